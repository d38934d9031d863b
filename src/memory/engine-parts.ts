/**
 * What the services of one memory share: its settings, its tenant's repositories, the manager that writes
 * memory, the caches and queues that keep sessions in order, and the clock and ids it is given.
 */
import type { Session } from '../core/types.js';
import type { CachedTurnReader } from '../context/turn-reader.js';
import type { MemoryManager } from '../managers/memory-manager.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantStore } from '../store/store.js';
import type { Settings } from './config.js';
import type { MemoryCounters } from './memory-counters.js';
import type { MemoryGate } from './memory-gate.js';
import type { MemoryLogger } from './memory-logger.js';
import type { MemoryStateCache } from './memory-state-cache.js';
import type { SessionWrites } from './session-writes.js';
import type { WriteContext } from './write-path.js';

export interface EngineParts {
  settings: Settings;
  /** The tenant whose sessions these parts serve. */
  tenant: string;
  repositories: TenantStore;
  tokenizer: Tokenizer;
  manager: MemoryManager;
  /** What the write path needs: tokenizer, manager, clock and ids. */
  context: WriteContext;
  clock: () => Date;
  now: () => string;
  newId: () => string;
  /** Run `work` under the session's lock, which serialises the storing of its raw turns (and its deletion). */
  lock<T>(sessionId: string, work: () => Promise<T>): Promise<T>;
  /** Announces every committed write that changes a session's reads; the caches listen. */
  writes: SessionWrites;
  /** Runs a session's memory work in turn order. */
  gate: MemoryGate;
  counters: MemoryCounters;
  /** Older turns kept between packages; it listens to `writes`. */
  turnReader: CachedTurnReader;
  /** Each session's memory state between its turns. */
  states: MemoryStateCache;
  logger: MemoryLogger;
  onBackgroundError: ((error: unknown) => void) | undefined;
  /** The session, or SESSION_NOT_FOUND naming it. */
  requireSession(sessionId: string): Promise<Session>;
}
