/**
 * The public API of a memory: `createMemory()`'s options, the session handle, the sessions collection and
 * the memory itself, with the shapes they take and return. Implemented in `create-memory.ts`.
 */
import type { LongTermMemories } from './long-term-api.js';
import type { DetailRequest } from '../core/detail-markers.js';
import type { Artifact, DetailRequestRecord, Fact, FactEvent, FactKind, Message, Session, TurnStatus, TurnSummary } from '../core/types.js';
import type { AssemblerSettings } from '../context/assembler.js';
import type { ContextPackage } from '../context/context-package.js';
import type { MemoryManager } from '../managers/memory-manager.js';
import type { ChatModel, ChatTool, ToolChoice } from '../providers/chat-model/chat-model.js';
import type { ChatContinuation } from './tool-exchange.js';
import type { Tokenizer, TokenizerName } from '../providers/tokenizer/tokenizer.js';
import type { SessionLock } from '../store/session-lock.js';
import type { Store } from '../store/store.js';
import type { ApiKeys } from './api-keys.js';
import type { SearchResult } from './session-search.js';
import type { CleanupOptions, CleanupResult } from './session-cleanup.js';
import type { Settings } from './config.js';
import type { ChatResult, ChatStream } from './chat-turn.js';
import type { MemoryCounterSet } from './memory-counters.js';
import type { LogDestination, MemoryLogger } from './memory-logger.js';
import type { MessageInput } from './message-input.js';
import type { Embedder } from '../providers/embedder/embedder.js';
import type { ToolStepInput } from './tool-use-input.js';

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
  /**
   * Milliseconds a context read runs before it lets other work in at its next step (default 25; 0: at
   * every step). A large session's package takes tens of milliseconds a step: with the default, other
   * requests are served between its steps, while a small session's package is built straight through.
   * Counting the tokens of messages before they are stored (a long pasted message, an import's many
   * messages) is paced the same way.
   */
  readSliceMs?: number;
  /** Consolidate facts after every N-th turn when the manager can (the model manager); 0 = never (default 15). */
  consolidateEveryTurns?: number;
  /**
   * Promote each session's standing facts (rules, preferences, long-lived goals, facts about the user) to
   * the tenant's long-term memories (`memory.memories`) as turns are written, a correction as a new
   * version of the memory (default true).
   */
  promote?: boolean;
  /**
   * Hours between background maintenance runs of each tenant's long-term memory, while this instance
   * serves it (default 24; 0 = only when asked, `memory.memories.tend()`).
   */
  tendEveryHours?: number;
  /** A tag holding more current memories than this is split into subtags by the tagger (default 20). */
  refineTagsAbove?: number;
  /** `auto` (default): the tagger's subtags are put on; `approve`: they wait in the run's record for approve()/reject(). */
  tagRefinement?: 'auto' | 'approve';
  /**
   * How older messages are found for a query (default `hybrid`): BM25 fused with the nearest messages by
   * vectors, or `lexical`, BM25 alone. Hybrid needs a store that keeps vectors (SQLite with the optional
   * sqlite-vec package); without one, recall is lexical and a warning says why.
   */
  recall?: 'hybrid' | 'lexical';
  /**
   * Embeds messages for hybrid recall (default: an OpenAI-compatible endpoint from STRATA_EMBEDDING_MODEL,
   * STRATA_EMBEDDING_BASE_URL and STRATA_EMBEDDING_API_KEY when set, else the bundled word vectors,
   * offline). Vectors are kept per embedder `id`: changing it embeds the sessions again as they are read.
   */
  embedder?: Embedder;
  /**
   * Tokens of the newest raw conversation a package's history may reach back over (default 30,000): older
   * turns are archived, kept and found by recall, but not shown as history.
   */
  contextWindowTokens?: number;
  /** Another store (default: the SQLite store at `path`). Not closed by `close()`. */
  store?: Store;
  /**
   * What serialises the storing of a session's turns (default: a lock within this process). A store
   * shared by several processes needs one that holds across them.
   */
  sessionLock?: SessionLock;
  /** Who writes memory (default: the local rule-based manager). */
  manager?: MemoryManager;
  /** Time source (default: the system clock). */
  clock?: () => Date;
  /**
   * Id source (default: UUIDs of version 7, which sort in the order they were made). Facts of one turn are
   * listed in id order, so ids that do not grow make that order, and the local manager's tie-breaks, arbitrary.
   */
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
  assembler?: Omit<AssemblerSettings, 'rawWindowTurns' | 'contextWindowTokens'>;
  /** Environment to read `STRATA_*` from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Config file (default `STRATA_CONFIG`, else `./strata.config.json` when present). */
  configFile?: string;
}

/**
 * One side or both sides of a turn, and an agent's tool use between them.
 *
 * @example
 * await session.record({
 *   user: 'What is the weather in Lisbon?',
 *   tools: [{ calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Lisbon' }, result: '{"celsius":21,"sky":"clear"}' }] }],
 *   assistant: 'Clear and 21 °C in Lisbon.',
 * });
 */
export interface RecordInput {
  user?: MessageInput;
  /**
   * The tools the assistant called before its answer, step by step (an agent's loop): each step's calls
   * are stored as an assistant message, each call's result as a `tool` message after it, so a package
   * never shows a call without its result.
   */
  tools?: ToolStepInput[];
  assistant?: MessageInput;
  /** When the turn happened (default: now). ISO-8601 string, Date or epoch ms. */
  timestamp?: string | number | Date;
  /**
   * What the chat model asked for before it answered, as `session.requestDetail()` reported it: kept
   * with the turn (a loop of your own that follows the detail protocol; `chat()` and the proxy do this
   * themselves). At most 50.
   */
  detailRequests?: DetailRequestRecord[];
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
  /**
   * Turns waiting in the persisted retry queue now: those whose memory manager fell back, and the later
   * turns of their sessions, which wait behind them so that turns change the facts in order.
   */
  pendingRetries: number;
}

export interface ChatOptions {
  /** Stream the reply (default false: resolve with the whole reply). */
  stream?: boolean;
  /** Budget of the context package (default: the `contextBudget` setting, 30,000 tokens). */
  budget?: number;
  /** Cancels the model call; nothing is stored then. */
  signal?: AbortSignal;
  /**
   * Tools the chat model may call (default none). When its reply calls some, `result.toolCalls` lists
   * them and nothing is stored yet: run them, then call `chat({ toolResults }, { tools })` to go on; the
   * turn is stored, calls and results included, once the model answers in text.
   *
   * @example
   * const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
   * let result = await session.chat('Weather in Lisbon?', { tools });
   * while (result.toolCalls.length > 0) {
   *   const toolResults = result.toolCalls.map((call) => ({ toolCallId: call.id, result: '{"celsius":21}' }));
   *   result = await session.chat({ toolResults }, { tools });
   * }
   */
  tools?: ChatTool[];
  /** Whether and which tool the model must call (default: the endpoint's, `auto`). */
  toolChoice?: ToolChoice;
  /** Sampling temperature, 0–2 (default: the endpoint's). */
  temperature?: number;
  /** Most tokens the reply may have (default: the endpoint's limit). */
  maxTokens?: number;
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
  /** Messages left out: legacy `function` results (no call id to pair them with) and assistant messages with neither text nor tool calls. */
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
   * The detail protocol for a chat loop of your own (`chat()` and the proxy use it): apply one request
   * the chat model made while answering the session's next turn, and say what it did. A tier request
   * raises the message it names (`12u` or an id) so packages show it at that tier from now on; one
   * naming no message of this session changes nothing (`ignored`). A search is noted (`searched`): add
   * its words to the next `context()` query. `round` (default 1) is the model's reply it came in. Call it
   * only for the model's own output, never for text a user or a tool wrote.
   *
   * @example
   * const done = await session.requestDetail({ kind: 'tier', tier: 3, ref: '12u' });
   * await session.record({ user: 'What was the gate code?', assistant: 'It is 4417.', detailRequests: [done] });
   */
  requestDetail(request: DetailRequest, options?: { round?: number }): Promise<DetailRequestRecord>;
  /**
   * The session's messages that best match `query` (BM25 over their raw text), best first; `limit`
   * defaults to 10 (at most 100).
   *
   * @example
   * const [best] = await session.search({ query: 'florist deposit' });
   */
  search(options: { query: string; limit?: number }): Promise<SearchResult[]>;
  /**
   * One live chat turn. Phase 1 waits for the session's previous memory work (up to `memoryWaitMs`, then
   * proceeds on stale memory and says so), assembles the package with the message as the query and asks
   * the chat model; phase 2 (memory) runs after the reply is stored (`result.memory`). With `stream: true`
   * the reply can be read as it is written; the turn is stored once it has been read to its end.
   */
  chat(input: string | ChatContinuation, options: ChatOptions & { stream: true }): ChatStream;
  chat(input: string | ChatContinuation, options?: ChatOptions & { stream?: false }): Promise<ChatResult>;
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
  /**
   * The session's messages in order, with their tiers; `offset` skips that many (default 0), `limit`
   * gives at most that many (default all), so a client can read only what came since it last read.
   */
  messages(options?: { offset?: number; limit?: number }): Promise<Message[]>;
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

/** Where chat requests go: an OpenAI-compatible endpoint and the model to ask there. */
export interface ChatEndpoint {
  model: string;
  /** Base URL, usually ending in `/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Extra headers for every request. */
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface Sessions {
  /**
   * A new session. `id` (default: a fresh one) lets a client name it, e.g. the proxy's `X-Strata-Session`:
   * 1 to 256 visible ASCII characters (no spaces); SESSION_EXISTS when taken.
   */
  create(options?: { id?: string; title?: string; instructions?: string }): Promise<SessionHandle>;
  /** Open an existing session; fails with SESSION_NOT_FOUND. */
  open(sessionId: string): Promise<SessionHandle>;
  /** Most recently updated first (default limit 50). */
  list(options?: { limit?: number; offset?: number }): Promise<Session[]>;
  import(options: ImportOptions): Promise<ImportResult>;
  /**
   * Delete the sessions not updated for `olderThan` (`30d`, `12h`, `2w` …) with everything derived from
   * them; with `dryRun: true`, only list them.
   *
   * @example
   * const { sessions } = await memory.sessions.cleanup({ olderThan: '90d', dryRun: true });
   */
  cleanup(options: CleanupOptions): Promise<CleanupResult>;
}

/** The sessions of one tenant, and their counters. No method reaches another tenant's sessions. */
export interface TenantMemory {
  /** The tenant's id. */
  readonly tenantId: string;
  readonly sessions: Sessions;
  /** What the tenant's assistant should know across sessions: versioned, tagged, linked memories. */
  readonly memories: LongTermMemories;
  /** Counters since this memory was opened, of the tenant's sessions or one of them, with the retry queue's current size. */
  stats(options?: { sessionId?: string }): Promise<MemoryStats>;
}

/**
 * A memory: the sessions of its default tenant (`tenant` option, `STRATA_TENANT`, else `default`), and
 * through `tenant(id)` those of any other, all served by one store, manager and set of caches.
 */
export interface Memory extends TenantMemory {
  readonly settings: Settings;
  readonly tokenizer: Tokenizer;
  /**
   * The tenant-scoped API of tenant `tenantId` (created on its first write). The same object for the
   * same id; a session id of another tenant answers SESSION_NOT_FOUND exactly like an unknown one.
   * Each tenant served keeps its caches and its retry runner until `close()`, and a tenant's queued
   * retries run once it has been served since the memory opened.
   *
   * @example
   * const acme = memory.tenant('acme');
   * const session = await acme.sessions.create({ title: 'Support' });
   */
  tenant(tenantId: string): TenantMemory;
  /** The API keys `strata serve` accepts, each serving one tenant of this memory's store. */
  readonly keys: ApiKeys;
  /** The chat model `session.chat()` uses; fails with MODEL_NOT_CONFIGURED, naming the variables to set, when there is none. */
  chatModelName(): string;
  /**
   * The OpenAI-compatible endpoint chat requests go to (`STRATA_CHAT_MODEL`, `STRATA_CHAT_BASE_URL`,
   * `STRATA_CHAT_API_KEY` …): where `strata serve`'s proxy forwards. MODEL_NOT_CONFIGURED, naming the
   * variables to set, when there is none.
   */
  chatEndpoint(): ChatEndpoint;
  /** Stop background retries, wait for memory work in flight, close the store (when this memory opened it). */
  close(): Promise<void>;
}
