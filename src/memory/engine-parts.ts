/**
 * What a memory's services share: the parts every tenant shares (settings, store, tokenizer, the manager
 * that writes memory, the session lock, the clock and ids it is given), and, for one tenant, its
 * repositories and the caches and queues that keep its sessions in order.
 */
import type { Session } from '../core/types.js';
import type { AssemblerSettings } from '../context/assembler.js';
import type { CachedFactReader } from '../context/fact-view.js';
import type { CachedTurnReader } from '../context/turn-reader.js';
import type { MemoryManager } from '../managers/memory-manager.js';
import type { ChatModel } from '../providers/chat-model/chat-model.js';
import type { Embedder } from '../providers/embedder/embedder.js';
import type { SessionSearch } from '../retrieval/session-search.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { SessionLock } from '../store/session-lock.js';
import type { Store, TenantStore } from '../store/store.js';
import type { Settings } from './config.js';
import type { MemoryCounters } from './memory-counters.js';
import type { MemoryGate } from './memory-gate.js';
import type { MemoryLogger } from './memory-logger.js';
import type { MemoryStateCache } from './memory-state-cache.js';
import type { SessionWrites } from './session-writes.js';
import type { WriteContext } from './write-path.js';

/** What every tenant of a memory shares. */
export interface SharedParts {
  settings: Settings;
  store: Store;
  tokenizer: Tokenizer;
  manager: MemoryManager;
  /** What the write path needs: tokenizer, manager, clock and ids. */
  context: WriteContext;
  clock: () => Date;
  now: () => string;
  newId: () => string;
  sessionLock: SessionLock;
  logger: MemoryLogger;
  onBackgroundError: ((error: unknown) => void) | undefined;
  /** The chat model `session.chat()` uses; MODEL_NOT_CONFIGURED, naming the variables to set, when there is none. */
  requireChatModel(): ChatModel;
  /** The embedder hybrid recall uses (made on first use): the one given, the STRATA_EMBEDDING_* endpoint, else the bundled word vectors. */
  embedder(): Embedder;
  assemblerSettings: AssemblerSettings;
  /** The local manager writes memory (so a long import may use a worker thread). */
  localInCharge: boolean;
  importWorkerScript: URL | undefined;
}

/** The parts of one tenant's services. */
export interface EngineParts extends SharedParts {
  /** The tenant whose sessions these parts serve. */
  tenant: string;
  repositories: TenantStore;
  /** Run `work` under the session's lock, which serialises the storing of its raw turns (and its deletion). */
  lock<T>(sessionId: string, work: () => Promise<T>): Promise<T>;
  /** Announces every committed write that changes a session's reads; the caches listen. */
  writes: SessionWrites;
  /** Runs a session's memory work in turn order. */
  gate: MemoryGate;
  counters: MemoryCounters;
  /** Older turns kept between packages; it listens to `writes`. */
  turnReader: CachedTurnReader;
  /** Each session's base-truth document as packages read it, checked against its last fact event. */
  factReader: CachedFactReader;
  /** Each session's memory state between its turns. */
  states: MemoryStateCache;
  /** How the session's archive is searched for a query: hybrid (BM25 and vectors) or lexical (see the `recall` setting). */
  search: SessionSearch;
  /** The session, or SESSION_NOT_FOUND naming it. */
  requireSession(sessionId: string): Promise<Session>;
}
