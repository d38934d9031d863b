import { randomUUID } from 'node:crypto';
import { replayFactEvents } from '../core/diff.js';
import { StrataError } from '../core/errors.js';
import { loneSurrogateIndex } from '../core/text.js';
import type { Artifact, Fact, FactEvent, FactKind, Message, Session, TurnStatus, TurnSummary } from '../core/types.js';
import { assembleContext, validateBudget, type AssemblerSettings } from '../context/assembler.js';
import { CachedTurnReader, storeTurnReader } from '../context/turn-reader.js';
import type { ContextPackage } from '../context/context-package.js';
import type { MemoryManager } from '../managers/memory-manager.js';
import type { ModelMemoryManager } from '../managers/model/index.js';
import type { ChatModel } from '../providers/chat-model/chat-model.js';
import { readModelSettings, requireModelSettings, type ModelSettings, type ModelSettingsByRole } from '../providers/model-settings.js';
import { createOpenAiChatModel } from '../providers/openai/openai-chat-model.js';
import { createGptTokenizer } from '../providers/tokenizer/gpt-tokenizer.js';
import type { Tokenizer, TokenizerName } from '../providers/tokenizer/tokenizer.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { MemoryRetry, Store, TenantRepositories, TenantStore } from '../store/store.js';
import { resolveSettings, type Settings } from './config.js';
import type { SessionExport } from './export-schema.js';
import { chatTurn, completeChat, type ChatResult, type ChatStream } from './chat-turn.js';
import { KeyedMutex } from './keyed-mutex.js';
import { MemoryCounters, type MemoryCounterSet } from './memory-counters.js';
import { MemoryGate } from './memory-gate.js';
import { createMemoryLogger, type LogDestination, type MemoryLogger } from './memory-logger.js';
import { createRetryRunner, firstRetry, type RetryOutcome } from './retry-runner.js';
import { checkContent, checkMessageInput, toTimestamp, type CheckedMessage, type MessageInput } from './message-input.js';
import { parseJsonText, planImport, withNewIds } from './session-import.js';
import { toMarkdown, toSessionExport, type SessionSnapshot } from './session-export.js';
import { mostTurns } from './import-size.js';
import { consolidateAfterTurn } from './consolidation.js';
import { editFact } from './edit-facts.js';
import { undoFactEvent } from './undo-fact-event.js';
import { managerWorkerUrl, startManagerPipeline } from './manager-pipeline.js';
import { MemoryStateCache } from './memory-state-cache.js';
import {
  completeTurn,
  deriveTurn,
  loadMemoryState,
  runManager,
  writeDerivedTurns,
  writeRawTurns,
  type DerivedTurn,
  type RawTurn,
  type WriteContext,
} from './write-path.js';

/** Options of `createMemory()`. Unset fields come from `STRATA_*` variables, then `strata.config.json`, then defaults. */
export interface MemoryOptions {
  /** SQLite database file (default `./strata.db`; `:memory:` for a throwaway store). */
  path?: string;
  /** Tenant owning every session this instance touches (default `default`). */
  tenant?: string;
  /** Token encoding name or a tokenizer instance (default `o200k_base`). */
  tokenizer?: TokenizerName | Tokenizer;
  /** Turns kept verbatim at the end of a package (default 6). */
  rawWindowTurns?: number;
  /** Largest accepted message in UTF-8 bytes (default 524,288). */
  maxMessageBytes?: number;
  /** `full` (default) or `normal` commit durability of the SQLite store. */
  durability?: 'full' | 'normal';
  /** Lock wait of the SQLite store in ms (default 5000). */
  busyTimeoutMs?: number;
  /** Analyse large imports in a worker thread when the local manager is in charge (default true). */
  importWorker?: boolean;
  /**
   * The compiled script of that worker, as a `file:` URL (default: `manager-worker.js` beside the
   * engine's own compiled files; without one, imports are analysed on the calling thread). Set it when a
   * bundler moves the engine's files.
   */
  importWorkerScript?: URL;
  /** Consolidate facts after every N-th turn when the manager can (the model manager); 0 = never (default 15). */
  consolidateEveryTurns?: number;
  /** Another store (default: the SQLite store at `path`). Not closed by `close()`. */
  store?: Store;
  /** Who writes memory (default: the local rule-based manager). */
  manager?: MemoryManager;
  /** Time source (default: the system clock). */
  clock?: () => Date;
  /** Id source (default: random UUIDs). */
  newId?: () => string;
  /**
   * The chat model `session.chat()` answers with (default: an OpenAI-compatible model from
   * STRATA_CHAT_MODEL, STRATA_CHAT_BASE_URL and STRATA_CHAT_API_KEY; none when STRATA_CHAT_MODEL is unset).
   */
  chatModel?: ChatModel;
  /** Told about failures of background memory work (retries of flagged turns); they are retried regardless. */
  onBackgroundError?: (error: unknown) => void;
  /** Structured logs (default: pino, JSON lines at the `logLevel` setting, written to `logDestination`). */
  logger?: MemoryLogger;
  /** Where the default logger writes its JSON lines (default: the process's stderr); unused with `logger`. */
  logDestination?: LogDestination;
  /** Assembler tuning (recall share, coverage share …). */
  assembler?: Omit<AssemblerSettings, 'rawWindowTurns'>;
  /** Environment to read `STRATA_*` from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Config file (default `STRATA_CONFIG`, else `./strata.config.json` when present). */
  configFile?: string;
}

/** One side or both sides of a turn. */
export interface RecordInput {
  user?: MessageInput;
  assistant?: MessageInput;
  /** When the turn happened (default: now). ISO-8601 string, Date or epoch ms. */
  timestamp?: string | number | Date;
}

export interface RecordResult {
  turn: number;
  messageIds: string[];
  /** `summarised`, or `fallback-raw` / `pending-retry` when memory work failed (the raw turn is stored either way). */
  status: TurnStatus;
  summary: TurnSummary;
  /** The base-truth changes, rejections and warnings this turn caused. */
  factEvents: FactEvent[];
  /** Why memory work was not applied, when it was not. */
  problem: string | null;
}

export interface ContextOptions {
  /** Hard limit on the rendered tokens. */
  budget: number;
  /** Optional: ranks older material by BM25. */
  query?: string;
}

/** What `memory.stats()` reports. */
export interface MemoryStats extends MemoryCounterSet {
  /** Flagged turns waiting in the persisted retry queue now. */
  pendingRetries: number;
}

export interface ChatOptions {
  /** Stream the reply (default false: resolve with the whole reply). */
  stream?: boolean;
  /** Budget of the context package (default: the `contextBudget` setting, 30,000 tokens). */
  budget?: number;
  /** Cancels the model call; nothing is stored then. */
  signal?: AbortSignal;
}

export interface ExportOptions {
  format: 'json' | 'markdown';
}

export interface ImportOptions {
  /** The parsed file, or its text. */
  data: unknown;
  /** Name used in error messages (default `the import`). */
  source?: string;
  /** Title of the new session (default: the export's title, else `Imported conversation`). */
  title?: string;
  /** Give an imported Strata export fresh ids (needed when the session already exists here). */
  newIds?: boolean;
  onProgress?: (progress: { done: number; total: number }) => void;
}

export interface ImportResult {
  sessionId: string;
  messages: number;
  turns: number;
  /** Tool and empty assistant messages skipped. */
  skipped: number;
}

export interface SessionHandle {
  readonly id: string;
  info(): Promise<Session>;
  /** Store one turn (raw text first, in its own transaction), then derive its memory. */
  record(input: RecordInput): Promise<RecordResult>;
  /** Assemble a context package within `budget` tokens. */
  context(options: ContextOptions): Promise<ContextPackage>;
  /**
   * One live chat turn. Phase 1 waits for the session's previous memory work (up to `memoryWaitMs`, then
   * proceeds on stale memory and says so), assembles the package with the message as the query and asks
   * the chat model; phase 2 (memory) runs after the reply is stored (`result.memory`). With `stream: true`
   * the reply can be read as it is written; the turn is stored once it has been read to its end.
   */
  chat(userMessage: string, options: ChatOptions & { stream: true }): ChatStream;
  chat(userMessage: string, options?: ChatOptions & { stream?: false }): Promise<ChatResult>;
  /**
   * The base-truth document, now or as it stood at the end of a past turn — and a person's corrections of
   * it: `facts.add`, `facts.edit`, `facts.remove`, each recorded as a fact event with actor `user` and the
   * reason given (required).
   */
  facts: SessionFacts;
  /**
   * Revert one add, update, remove or consolidate event by appending a compensating event (actor `user`,
   * reason `undo of event <id>`); returns it. Fails with INVALID_INPUT for an unknown id, a reject or
   * warning event, or an event whose fact a later event changed (undo that one first).
   */
  undoFactEvent(eventId: string): Promise<FactEvent>;
  factEvents(): Promise<FactEvent[]>;
  messages(): Promise<Message[]>;
  turns(): Promise<TurnSummary[]>;
  artifacts(): Promise<Artifact[]>;
  rename(title: string): Promise<void>;
  setInstructions(instructions: string): Promise<void>;
  /** Delete the session and everything derived from it. */
  delete(): Promise<void>;
  export(options: ExportOptions): Promise<string>;
}

/**
 * `session.facts()` reads the base truth; its methods let a person correct it. Every correction needs a
 * reason and becomes a fact event (actor `user`) at the session's latest turn, so it shows in
 * `factEvents()`, replays with the document and can be undone. A bad request (an unknown fact, an empty
 * reason or text, a key the document already holds) fails with INVALID_INPUT and changes nothing.
 *
 * @example
 * await session.facts.add({ text: 'budget: $82,000', kind: 'constraint', reason: 'Maya confirmed it on the call' });
 * await session.facts.edit({ fact: factId, text: 'budget: $80,000', reason: 'finance cut it again' });
 * await session.facts.remove({ fact: factId, reason: 'the plan was dropped' });
 */
export interface SessionFacts {
  (options?: { atTurn?: number }): Promise<Fact[]>;
  /** Add a fact line ("key: value"); `kind` defaults to `fact` (an `exception` is pinned). */
  add(options: { text: string; kind?: FactKind; reason: string }): Promise<FactEvent>;
  /** Change a fact's text and/or kind; `fact` is its id, or the id of an event that changed it. */
  edit(options: { fact: string; text?: string; kind?: FactKind; reason: string }): Promise<FactEvent>;
  /** Take a fact out of the document; `fact` is its id, or the id of an event that changed it. */
  remove(options: { fact: string; reason: string }): Promise<FactEvent>;
}

export interface Sessions {
  create(options?: { title?: string; instructions?: string }): Promise<SessionHandle>;
  /** Open an existing session; fails with SESSION_NOT_FOUND. */
  open(sessionId: string): Promise<SessionHandle>;
  /** Most recently updated first (default limit 50). */
  list(options?: { limit?: number; offset?: number }): Promise<Session[]>;
  import(options: ImportOptions): Promise<ImportResult>;
}

export interface Memory {
  readonly tenant: string;
  readonly settings: Settings;
  readonly tokenizer: Tokenizer;
  readonly sessions: Sessions;
  /** The chat model `session.chat()` uses; fails with MODEL_NOT_CONFIGURED, naming the variables to set, when there is none. */
  chatModelName(): string;
  /** Counters since this memory was opened, of all sessions or one, with the retry queue's current size. */
  stats(options?: { sessionId?: string }): Promise<MemoryStats>;
  close(): Promise<void>;
}

const IMPORT_CHUNK_TURNS = 200;
/**
 * Attempts of a turn whose memory model keeps answering it with malformed JSON (each attempt asks twice):
 * with the default backoff the last comes about a quarter of an hour after the first; then it ends `fallback-raw`.
 */
const MALFORMED_ATTEMPTS = 10;
/** Imports at least this long are worth starting a worker thread for (it takes about half a second to load). */
const WORKER_MIN_TURNS = 400;

/**
 * The default local manager, loaded on the first turn: its NLP libraries take most of a second to load,
 * which commands that only read memory should not pay.
 */
function lazyLocalManager(): MemoryManager {
  let loaded: Promise<MemoryManager> | undefined;
  let ready: MemoryManager | undefined;
  const load = (): Promise<MemoryManager> => (loaded ??= import('../managers/local/index.js').then((module) => (ready = module.createLocalMemoryManager())));
  return {
    name: 'local',
    processTurn: async (turn) => (await load()).processTurn(turn),
    // Until a first turn has loaded the manager, there is nothing to start early with.
    prepare: (message) => ready?.prepare?.(message),
    consolidate: async (consolidation) => {
      const manager = await load();
      return manager.consolidate === undefined ? { outcome: 'accepted', changes: [] } : manager.consolidate(consolidation);
    },
  };
}

/** An OpenAI-compatible chat model from settings read from the environment. */
function openAiModel(settings: ModelSettings): ChatModel {
  return createOpenAiChatModel({
    baseUrl: settings.baseUrl,
    model: settings.model,
    role: settings.role,
    headers: settings.headers,
    timeoutMs: settings.timeoutMs,
    ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
  });
}

/** The model manager over the configured memory model, loaded on the first turn like the local one. */
function lazyModelManager(settings: ModelSettings, tokenizer: Tokenizer): MemoryManager {
  let loaded: Promise<ModelMemoryManager> | undefined;
  let ready: ModelMemoryManager | undefined;
  const load = (): Promise<ModelMemoryManager> =>
    (loaded ??= import('../managers/model/index.js').then(
      (module) =>
        (ready = module.createModelMemoryManager({ model: openAiModel(settings), local: lazyLocalManager(), tokenizer, timeoutMs: settings.timeoutMs, name: `model:${settings.model}` })),
    ));
  return {
    name: `model:${settings.model}`,
    processTurn: async (turn) => (await load()).processTurn(turn),
    prepare: (message) => ready?.prepare?.(message),
    consolidate: async (consolidation) => (await load()).consolidate(consolidation),
  };
}

function checkTitle(title: unknown): string {
  if (typeof title !== 'string' || title.trim() === '' || title.length > 300 || loneSurrogateIndex(title) >= 0) {
    throw new StrataError('INVALID_INPUT', 'A session title must be non-empty text of at most 300 characters.');
  }
  return title.trim();
}

function checkInstructions(instructions: unknown): string {
  if (typeof instructions !== 'string' || loneSurrogateIndex(instructions) >= 0 || instructions.length > 100_000) {
    throw new StrataError('INVALID_INPUT', 'Session instructions must be text of at most 100,000 characters.');
  }
  return instructions.trim();
}

/** Create a memory: with no options, `./strata.db`, the local memory manager and the o200k tokenizer. */
export function createMemory(options: MemoryOptions = {}): Memory {
  const settings = resolveSettings({
    options: {
      path: options.path,
      tenant: options.tenant,
      tokenizer: typeof options.tokenizer === 'string' ? options.tokenizer : undefined,
      rawWindowTurns: options.rawWindowTurns,
      maxMessageBytes: options.maxMessageBytes,
      durability: options.durability,
      busyTimeoutMs: options.busyTimeoutMs,
      importWorker: options.importWorker,
      consolidateEveryTurns: options.consolidateEveryTurns,
    },
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
  });
  const workerScript = options.importWorkerScript;
  if (workerScript !== undefined && (!(workerScript instanceof URL) || workerScript.protocol !== 'file:')) {
    throw new StrataError(
      'INVALID_CONFIG',
      `importWorkerScript must be a file: URL of the compiled manager-worker.js (got ${String(workerScript)}); use pathToFileURL(path) from node:url.`,
    );
  }
  const tokenizer = typeof options.tokenizer === 'object' ? options.tokenizer : createGptTokenizer({ encoding: settings.tokenizer });
  const ownsStore = options.store === undefined;
  const store = options.store ?? createSqliteStore({ path: settings.path, busyTimeoutMs: settings.busyTimeoutMs, durability: settings.durability });
  const repositories: TenantStore = store.tenant(settings.tenant);
  const clock = options.clock ?? (() => new Date());
  const now = (): string => clock().toISOString();
  const newId = options.newId ?? randomUUID;
  const environment = options.env ?? process.env;
  // Read once, when first needed (at once unless a manager is given).
  let modelSettings: ModelSettingsByRole | undefined;
  const models = (): ModelSettingsByRole => (modelSettings ??= readModelSettings(environment));
  // With STRATA_MEMORY_MODEL set, the model manager writes memory; otherwise the local manager does.
  const memoryModel = options.manager === undefined ? models().memory : null;
  const localInCharge = options.manager === undefined && memoryModel === null;
  const manager = options.manager ?? (memoryModel === null ? lazyLocalManager() : lazyModelManager(memoryModel, tokenizer));
  const context: WriteContext = { tokenizer, manager, now, newId };
  const mutex = new KeyedMutex();
  const gate = new MemoryGate();
  const counters = new MemoryCounters();
  // Older turns stay in memory between packages; every write below tells the cache which turn changed.
  const turnReader = new CachedTurnReader(storeTurnReader(repositories));
  const states = new MemoryStateCache();
  /** Sessions whose chat turns have looked for turns an earlier run left underived. */
  const resumeChecked = new Set<string>();
  const logger = options.logger ?? createMemoryLogger(settings.logLevel, options.logDestination);
  let chatModel: ChatModel | null | undefined = options.chatModel;
  const requireChatModel = (): ChatModel => {
    if (chatModel === undefined) {
      const configured = models().chat;
      chatModel = configured === null ? null : openAiModel(configured);
    }
    return chatModel ?? openAiModel(requireModelSettings(null, 'chat'));
  };
  const assemblerSettings: AssemblerSettings = { ...options.assembler, rawWindowTurns: settings.rawWindowTurns };

  const requireSession = async (sessionId: string): Promise<Session> => {
    const session = await repositories.sessions.get({ sessionId });
    if (session === null) {
      throw new StrataError('SESSION_NOT_FOUND', `No session "${sessionId}" in tenant "${settings.tenant}"; list sessions with \`strata sessions\` or memory.sessions.list().`, {
        details: { sessionId },
      });
    }
    return session;
  };

  /** A person's correction of a session's facts, run as the session's memory work (see `SessionFacts`). */
  const correct = async (sessionId: string, request: unknown, op: 'add' | 'edit' | 'remove'): Promise<FactEvent> => {
    await requireSession(sessionId);
    // (A request that is not an object goes through as it is, so the refusal says what is wrong with it.)
    const withOp = typeof request === 'object' && request !== null && !Array.isArray(request) ? { ...request, op } : request;
    return gate.enqueue(sessionId, () => editFact({ repositories, sessionId, request: withOp, now, newId }));
  };

  /**
   * Put a turn whose manager asked for a retry in the queue (call inside a transaction). Only a first
   * derivation gets here: a turn already queued is retried by the runner, which keeps its entry.
   */
  const queueRetry = async (tx: TenantRepositories, derived: DerivedTurn): Promise<void> => {
    if (derived.retry === null) return;
    await tx.retries.put({ retry: firstRetry({ sessionId: derived.sessionId, turn: derived.turn, ...derived.retry }, { now: clock(), baseDelayMs: settings.retryBaseMs }) });
  };

  /** Persist a derived turn, queueing it for a background retry when its manager asked for one. */
  const persistDerived = async (derived: DerivedTurn, options: { retried?: boolean } = {}): Promise<void> => {
    // Derived memory can be redone from the raw turn and its pending entry, both committed durably before;
    // a new retry-queue entry cannot, since only the queue brings a flagged turn back.
    await repositories.transaction(async (tx) => {
      await writeDerivedTurns(tx, [derived]);
      if (derived.retry !== null) {
        await queueRetry(tx, derived);
      } else if (options.retried === true) {
        await tx.retries.remove({ sessionId: derived.sessionId, turn: derived.turn });
      }
    }, { durable: derived.retry !== null });
    turnReader.forget(derived.sessionId, derived.turn);
    if (derived.retry !== null) retries.schedule();
  };

  /** Count and log what deriving a turn cost and gave; write a base-truth snapshot every N turns. */
  const account = async (derived: DerivedTurn, options: { retried: boolean }): Promise<void> => {
    const { sessionId, turn, usage } = derived;
    counters.add(sessionId, {
      memoryModelCalls: usage?.calls ?? 0,
      memoryModelRetries: usage?.retries ?? 0,
      fallbacks: derived.failure !== null && !options.retried ? 1 : 0,
      retryAttempts: options.retried ? 1 : 0,
      retriesSucceeded: options.retried && derived.status === 'summarised' ? 1 : 0,
      tokens: { memoryPrompt: usage?.promptTokens ?? 0, memoryCompletion: usage?.completionTokens ?? 0 },
    });
    if (derived.failure !== null) {
      logger.warn(
        { sessionId, turn, status: derived.status, code: derived.failure.code, retry: derived.retry !== null, retried: options.retried },
        options.retried ? 'retried turn memory failed again' : 'turn memory fell back to the raw exchange',
      );
      return;
    }
    logger.debug({ sessionId, turn, status: derived.status, factEvents: derived.events.length, modelCalls: usage?.calls ?? 0 }, options.retried ? 'flagged turn summarised' : 'turn memory written');
    if (settings.snapshotEveryTurns > 0 && turn % settings.snapshotEveryTurns === 0 && logger.isLevelEnabled?.('info') !== false) {
      const facts = await repositories.facts.list({ sessionId });
      logger.info(
        { sessionId, turn, facts: facts.map((fact) => ({ id: fact.id, key: fact.key, kind: fact.kind, pinned: fact.pinned, text: fact.text, sourceMessageIds: fact.sourceMessageIds })) },
        'base-truth snapshot',
      );
    }
  };

  /** Derive one stored turn unless that already happened (a resumed run may have reached it first). */
  const deriveStored = async (raw: RawTurn): Promise<RecordResult> => {
    const sessionId = raw.messages[0]?.sessionId ?? '';
    const messageIds = raw.messages.map((message) => message.id);
    const current = await repositories.turns.get({ sessionId, turn: raw.turn });
    if (current !== null && current.status !== 'pending-retry') {
      const events = (await repositories.facts.listEvents({ sessionId, upToTurn: raw.turn })).filter((event) => event.turn === raw.turn);
      return { turn: raw.turn, messageIds, status: current.status, summary: current, factEvents: events, problem: null };
    }
    try {
      const state = await states.take(repositories, sessionId);
      const derived = await deriveTurn(raw, state, context);
      await persistDerived(derived);
      states.keep(sessionId, state);
      await account(derived, { retried: false });
      const consolidated = await consolidateAfterTurn({ repositories, manager, sessionId, turn: raw.turn, everyTurns: settings.consolidateEveryTurns, now, newId, onError: options.onBackgroundError });
      const factEvents = [...derived.events, ...consolidated];
      return { turn: raw.turn, messageIds, status: derived.status, summary: derived.summary, factEvents, problem: derived.failure?.message ?? null };
    } catch (error) {
      // The raw turn is committed; its memory stays pending so it can be derived again.
      const pending = await repositories.turns.get({ sessionId, turn: raw.turn });
      if (pending === null) throw error;
      return { turn: raw.turn, messageIds, status: 'pending-retry', summary: pending, factEvents: [], problem: `The turn is stored but its memory was not: ${(error as Error).message}` };
    }
  };

  /**
   * Derive the memory of turns whose raw messages were stored but whose memory was not (the process
   * stopped in between, or writing it failed), in turn order. Turns in the retry queue are left to it.
   * Runs as the session's memory work (behind the gate).
   */
  const resumePending = async (sessionId: string): Promise<void> => {
    const pending = await repositories.turns.listByStatus({ sessionId, status: 'pending-retry', limit: 1000 });
    if (pending.length === 0) return;
    const queued = new Set((await repositories.retries.list({ sessionId })).map((entry) => entry.turn));
    for (const summary of pending) {
      if (queued.has(summary.turn)) continue;
      const messages = await repositories.messages.listByTurns({ sessionId, fromTurn: summary.turn, toTurn: summary.turn });
      if (messages.length === 0) continue;
      await deriveStored({ turn: summary.turn, messages });
    }
  };

  /** Try a queued turn again; a success replaces its fallback memory and applies its diff. */
  const retryTurn = async (entry: MemoryRetry): Promise<{ outcome: RetryOutcome; message?: string; reason?: string }> => {
    const { sessionId, turn } = entry;
    const messages = await repositories.messages.listByTurns({ sessionId, fromTurn: turn, toTurn: turn });
    const current = await repositories.turns.get({ sessionId, turn });
    if (messages.length === 0 || current === null || current.status !== 'pending-retry') {
      await repositories.retries.remove({ sessionId, turn });
      return { outcome: 'ended' };
    }
    const derived = await deriveTurn({ turn, messages }, await loadMemoryState(repositories, sessionId), context);
    // `attempts` counts the attempts in a row that failed for the entry's reason.
    if (derived.retry !== null && derived.retry.reason === 'malformed' && entry.reason === 'malformed' && entry.attempts + 1 >= MALFORMED_ATTEMPTS) {
      // A model that garbles this turn every time will not be asked forever: the raw exchange stays.
      const final: DerivedTurn = { ...derived, status: 'fallback-raw', summary: { ...derived.summary, status: 'fallback-raw' }, retry: null, artifacts: [] };
      await persistDerived(final, { retried: true });
      await account(final, { retried: true });
      return { outcome: 'ended' };
    }
    if (derived.retry !== null) {
      await account(derived, { retried: true });
      return { outcome: 'again', message: derived.retry.message, reason: derived.retry.reason };
    }
    // Its artifacts were stored with the fallback.
    await persistDerived({ ...derived, artifacts: [] }, { retried: true });
    await account(derived, { retried: true });
    return { outcome: derived.status === 'summarised' ? 'summarised' : 'ended' };
  };

  const retries = createRetryRunner({
    repositories,
    gate,
    retryTurn,
    now: clock,
    baseDelayMs: settings.retryBaseMs,
    onError: (error) => options.onBackgroundError?.(error),
  });
  retries.schedule();

  /** Store one turn's raw messages and queue its memory work behind the session's earlier work. */
  const storeTurn = (sessionId: string, checked: CheckedMessage[], staleMemory = false): Promise<{ raw: RawTurn; memory: Promise<RecordResult> }> =>
    mutex.run(sessionId, async () => {
      const session = await requireSession(sessionId);
      const [raw] = await repositories.transaction((tx) => writeRawTurns(tx, session, [checked], context, { staleMemory }));
      if (raw === undefined) throw new StrataError('STORE_FAILURE', 'The turn was not stored.');
      counters.add(sessionId, { turns: 1 });
      turnReader.forget(sessionId, raw.turn);
      return { raw, memory: gate.enqueue(sessionId, () => deriveStored(raw)) };
    });

  const assemble = async (sessionId: string, budget: number, query: string | undefined): Promise<ContextPackage> => {
    const session = await requireSession(sessionId);
    return assembleContext({ repositories, session, budget, ...(query === undefined ? {} : { query }), tokenizer, settings: assemblerSettings, turnReader });
  };

  const snapshot = async (sessionId: string): Promise<SessionSnapshot> => {
    const session = await requireSession(sessionId);
    const [messages, turns, facts, factEvents, artifacts] = await Promise.all([
      repositories.messages.list({ sessionId }),
      repositories.turns.list({ sessionId }),
      repositories.facts.list({ sessionId }),
      repositories.facts.listEvents({ sessionId }),
      repositories.artifacts.list({ sessionId }),
    ]);
    return { session, messages, turns, facts, factEvents, artifacts };
  };

  const handle = (sessionId: string): SessionHandle => ({
    id: sessionId,
    info: () => requireSession(sessionId),
    record: async (input) => {
      if (typeof input !== 'object' || input === null) {
        throw new StrataError('INVALID_INPUT', 'record() takes { user?, assistant?, timestamp? }.');
      }
      const createdAt = input.timestamp === undefined ? now() : toTimestamp(input.timestamp, 'The turn timestamp');
      const checked: CheckedMessage[] = [];
      if (input.user !== undefined) checked.push(checkMessageInput(input.user, 'user', createdAt, settings.maxMessageBytes));
      if (input.assistant !== undefined) checked.push(checkMessageInput(input.assistant, 'assistant', createdAt, settings.maxMessageBytes));
      if (checked.length === 0) throw new StrataError('INVALID_INPUT', 'record() needs a user message, an assistant message, or both.');
      // (storeTurn reports an unknown session.) Turns an earlier run left underived go first, so memory is derived in turn order.
      void gate.enqueue(sessionId, () => resumePending(sessionId)).catch(() => undefined);
      const stored = await storeTurn(sessionId, checked);
      return stored.memory;
    },
    context: async ({ budget, query }) => {
      // (assemble reports an unknown session.)
      await gate.enqueue(sessionId, () => resumePending(sessionId));
      return assemble(sessionId, budget, query);
    },
    chat: ((userMessage: string, chatOptions: ChatOptions = {}) => {
      const chatModel = requireChatModel();
      const content = checkContent(userMessage, 'The user message', settings.maxMessageBytes);
      const budget = chatOptions.budget === undefined ? settings.contextBudget : validateBudget(chatOptions.budget);
      // The user message is sent now: its id and time are settled now, so memory work on it can start while the model writes.
      const sentAt = now();
      const question = { id: newId(), role: 'user', content, speaker: null, externalId: null, createdAt: sentAt, sentAt } satisfies CheckedMessage;
      const stream = chatTurn({
        userMessage: content,
        chatModel,
        ...(chatOptions.signal === undefined ? {} : { signal: chatOptions.signal }),
        steps: {
          settle: async () => {
            // Turns an earlier run left underived are derived first, as record() and context() do; this
            // process leaves none behind unless writing them failed, so a session is checked once.
            if (!resumeChecked.has(sessionId)) {
              resumeChecked.add(sessionId);
              if ((await repositories.turns.listByStatus({ sessionId, status: 'pending-retry', limit: 1 })).length > 0) {
                void gate.enqueue(sessionId, () => resumePending(sessionId)).catch(() => undefined);
              }
            }
            return gate.settle(sessionId, { boundMs: settings.memoryWaitMs });
          },
          assemble: async (query) => assemble(sessionId, budget, query),
          prepare: () => {
            const failed = (error: unknown): void => {
              logger.warn({ sessionId, error: error instanceof Error ? error.message : String(error) }, 'the memory manager could not start on the user message early; it will after the reply');
            };
            try {
              const started = manager.prepare?.({ sessionId, message: { id: question.id, role: question.role, speaker: question.speaker, content: question.content, sentAt: question.sentAt }, timestamp: question.createdAt });
              if (started instanceof Promise) started.catch(failed);
            } catch (error) {
              failed(error);
            }
          },
          store: async ({ assistant, staleMemory }) => {
            // The user message was checked when the turn began.
            const stored = await storeTurn(sessionId, [question, checkMessageInput(assistant, 'assistant', now(), settings.maxMessageBytes)], staleMemory);
            return {
              turn: stored.raw.turn,
              messageIds: stored.raw.messages.map((message) => message.id),
              memory: stored.memory.then((result) => ({ turn: result.turn, status: result.status, problem: result.problem })),
            };
          },
          monotonic: () => performance.now(),
        },
      });
      stream.result.then(
        (result) => {
          counters.add(sessionId, {
            chatTurns: 1,
            lockWaits: result.lockWaitMs > 0 ? 1 : 0,
            lockWaitMs: result.lockWaitMs,
            staleTurns: result.staleMemory ? 1 : 0,
            tokens: { context: result.contextTokens, chatPrompt: result.usage.promptTokens, chatCompletion: result.usage.completionTokens },
          });
          const details = { sessionId, turn: result.turn, contextTokens: result.contextTokens, overheadMs: result.overheadMs, lockWaitMs: result.lockWaitMs };
          if (result.staleMemory) logger.warn(details, 'chat turn proceeded on stale memory: the previous turn was still being remembered');
          else logger.debug(details, 'chat turn');
        },
        (error: unknown) => logger.warn({ sessionId, error: (error as Error).message }, 'chat turn failed; nothing was stored'),
      );
      return chatOptions.stream === true ? stream : completeChat(stream);
    }) as SessionHandle['chat'],
    facts: Object.assign(
      async (factOptions: { atTurn?: number } = {}) => {
        await requireSession(sessionId);
        const atTurn = factOptions.atTurn;
        if (atTurn === undefined) return repositories.facts.list({ sessionId });
        if (!Number.isInteger(atTurn) || atTurn < 0) {
          throw new StrataError('INVALID_INPUT', `atTurn must be a whole turn number ≥ 0 (got ${String(atTurn)}).`);
        }
        return replayFactEvents(await repositories.facts.listEvents({ sessionId, upToTurn: atTurn }), { atTurn });
      },
      {
        add: (request: unknown) => correct(sessionId, request, 'add'),
        edit: (request: unknown) => correct(sessionId, request, 'edit'),
        remove: (request: unknown) => correct(sessionId, request, 'remove'),
      },
    ),
    factEvents: async () => {
      await requireSession(sessionId);
      return repositories.facts.listEvents({ sessionId });
    },
    undoFactEvent: async (eventId) => {
      await requireSession(sessionId);
      return gate.enqueue(sessionId, () => undoFactEvent({ repositories, sessionId, eventId, now, newId }));
    },
    messages: async () => {
      await requireSession(sessionId);
      return repositories.messages.list({ sessionId });
    },
    turns: async () => {
      await requireSession(sessionId);
      return repositories.turns.list({ sessionId });
    },
    artifacts: async () => {
      await requireSession(sessionId);
      return repositories.artifacts.list({ sessionId });
    },
    rename: async (title) => {
      const checked = checkTitle(title);
      if (!(await repositories.sessions.update({ sessionId, title: checked, updatedAt: now() }))) await requireSession(sessionId);
    },
    setInstructions: async (instructions) => {
      const checked = checkInstructions(instructions);
      if (!(await repositories.sessions.update({ sessionId, instructions: checked, updatedAt: now() }))) await requireSession(sessionId);
    },
    delete: () =>
      mutex.run(sessionId, async () => {
        if (!(await repositories.sessions.delete({ sessionId }))) await requireSession(sessionId);
        // A read in flight meanwhile caches nothing: the reader drops what a forget overtook.
        turnReader.forget(sessionId);
        states.forget(sessionId);
      }),
    export: async ({ format }) => {
      if (format !== 'json' && format !== 'markdown') {
        throw new StrataError('INVALID_INPUT', `Unknown export format "${String(format)}"; use "json" or "markdown".`);
      }
      const data = await snapshot(sessionId);
      return format === 'json'
        ? `${JSON.stringify(toSessionExport(data, { exportedAt: now(), tokenizer: tokenizer.name }), null, 2)}\n`
        : toMarkdown(data);
    },
  });

  const importExport = async (data: SessionExport): Promise<ImportResult> => {
    if ((await repositories.sessions.get({ sessionId: data.session.id })) !== null) {
      throw new StrataError('SESSION_EXISTS', `Session "${data.session.id}" already exists here; delete it first or import with newIds (\`strata import --new-ids\`).`);
    }
    await repositories.transaction(async (tx) => {
      await tx.sessions.create({ session: { ...data.session, messageCount: 0, turnCount: 0, tokenCount: 0 } });
      if (data.messages.length > 0) {
        const messages = data.messages.map((message) => ({ ...message, sentAt: message.sentAt === undefined ? message.createdAt : message.sentAt }));
        await tx.messages.append({ sessionId: data.session.id, messages, updatedAt: data.session.updatedAt });
      }
      for (const summary of data.turns) await tx.turns.upsert({ summary });
      if (data.factEvents.length > 0 || data.facts.length > 0) {
        await tx.facts.apply({ sessionId: data.session.id, events: data.factEvents, upserts: data.facts, removedIds: [] });
      }
      for (const artifact of data.artifacts) await tx.artifacts.restore({ artifact });
    });
    states.forget(data.session.id);
    return { sessionId: data.session.id, messages: data.messages.length, turns: data.turns.length, skipped: 0 };
  };

  const sessions: Sessions = {
    create: async (createOptions = {}) => {
      const title = createOptions.title === undefined ? `Session ${now().slice(0, 16).replace('T', ' ')}` : checkTitle(createOptions.title);
      const instructions = createOptions.instructions === undefined ? '' : checkInstructions(createOptions.instructions);
      const time = now();
      const id = newId();
      await repositories.sessions.create({
        session: { id, title, instructions, createdAt: time, updatedAt: time, messageCount: 0, turnCount: 0, tokenCount: 0 },
      });
      return handle(id);
    },
    open: async (sessionId) => {
      if (typeof sessionId !== 'string' || sessionId.trim() === '') throw new StrataError('INVALID_INPUT', 'A session id must be a non-empty string.');
      await requireSession(sessionId);
      return handle(sessionId);
    },
    list: async (listOptions = {}) => {
      const limit = listOptions.limit ?? 50;
      const offset = listOptions.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) {
        throw new StrataError('INVALID_INPUT', 'list() takes a whole limit ≥ 1 and offset ≥ 0.');
      }
      return repositories.sessions.list({ limit, offset });
    },
    import: async (importOptions) => {
      const source = importOptions.source ?? 'the import';
      const value = typeof importOptions.data === 'string' ? parseJsonText(importOptions.data, source) : importOptions.data;
      // The worker thread takes a while to load: start it before the input is checked and planned.
      const workerUrl = localInCharge && settings.importWorker && mostTurns(value) >= WORKER_MIN_TURNS ? (workerScript ?? managerWorkerUrl()) : null;
      const started = workerUrl === null ? null : startManagerPipeline(workerUrl, context.manager.name);
      try {
        const plan = planImport(value, { now: now(), maxBytes: settings.maxMessageBytes, source });
        if (plan.kind === 'export') {
          const data = importOptions.newIds === true ? withNewIds(plan.data, newId) : plan.data;
          const title = importOptions.title === undefined ? data.session.title : checkTitle(importOptions.title);
          return await importExport({ ...data, session: { ...data.session, title } });
        }
        const title = importOptions.title === undefined ? 'Imported conversation' : checkTitle(importOptions.title);
        const time = now();
        const id = newId();
        const total = plan.turns.length;
        const pipeline = total >= WORKER_MIN_TURNS ? started : null;
        let queued = false;
        // Fewer turns than the messages promised: the worker is not worth its start.
        if (pipeline === null) await started?.close();
        await mutex.run(id, () =>
          repositories.transaction(async (tx) => {
            await tx.sessions.create({
              session: { id, title, instructions: plan.instructions, createdAt: time, updatedAt: time, messageCount: 0, turnCount: 0, tokenCount: 0 },
            });
            const session = await requireSessionIn(tx, id);
            const state = await loadMemoryState(tx, id);
            // Store every raw turn first; with a worker, the manager analyses them meanwhile.
            pipeline?.seed(state);
            const raws: RawTurn[] = [];
            for (let start = 0; start < total; start += IMPORT_CHUNK_TURNS) {
              // One transaction holds the whole import, so no turn can be left pending: skip the pending rows.
              const raw = await writeRawTurns(tx, session, plan.turns.slice(start, start + IMPORT_CHUNK_TURNS), context, { pendingSummaries: false });
              pipeline?.submit(raw);
              raws.push(...raw);
            }
            for (let start = 0; start < raws.length; start += IMPORT_CHUNK_TURNS) {
              const derived: DerivedTurn[] = [];
              for (const turn of raws.slice(start, start + IMPORT_CHUNK_TURNS)) {
                const outcome = (await pipeline?.outcome(turn.turn)) ?? (await runManager(turn, state, context));
                derived.push(completeTurn(turn, state, outcome, context));
                importOptions.onProgress?.({ done: start + derived.length, total });
              }
              await writeDerivedTurns(tx, derived);
              for (const turn of derived) {
                if (turn.retry === null) continue;
                await queueRetry(tx, turn);
                queued = true;
              }
              // Let timers (a progress bar, a server's other requests) run between chunks.
              await new Promise((resolve) => setImmediate(resolve));
            }
          }),
        );
        if (queued) retries.schedule();
        // An import of at least `consolidateEveryTurns` turns is consolidated once, at its last turn.
        if (settings.consolidateEveryTurns > 0 && total >= settings.consolidateEveryTurns) {
          await gate.enqueue(id, () => consolidateAfterTurn({ repositories, manager, sessionId: id, turn: total, everyTurns: 1, now, newId, onError: options.onBackgroundError }));
        }
        if (pipeline !== null) {
          const details = { sessionId: id, turns: total, workerTurns: pipeline.answered };
          if (pipeline.problem === null) logger.info(details, 'import analysed on a worker thread');
          else logger.warn({ ...details, problem: pipeline.problem }, 'import worker stopped; the turns it had not answered were analysed on the calling thread');
        }
        return { sessionId: id, messages: plan.messageCount, turns: total, skipped: plan.skipped };
      } finally {
        await started?.close();
      }
    },
  };

  return {
    tenant: settings.tenant,
    settings,
    tokenizer,
    sessions,
    chatModelName: () => requireChatModel().model,
    stats: async (statsOptions = {}) => {
      const sessionId = statsOptions.sessionId;
      if (sessionId !== undefined) await requireSession(sessionId);
      const pendingRetries = await repositories.retries.count(sessionId === undefined ? {} : { sessionId });
      return { ...counters.read(sessionId), pendingRetries };
    },
    close: async () => {
      await retries.close();
      await gate.drain();
      if (ownsStore) await store.close();
    },
  };
}

async function requireSessionIn(repositories: Pick<TenantStore, 'sessions'>, sessionId: string): Promise<Session> {
  const session = await repositories.sessions.get({ sessionId });
  if (session === null) throw new StrataError('STORE_FAILURE', `Session ${sessionId} vanished during the import.`);
  return session;
}
