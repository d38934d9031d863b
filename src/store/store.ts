import type { LongTermRepository } from './long-term-store.js';
import type {
  Artifact,
  ArtifactKind,
  ArtifactVersion,
  Fact,
  FactEvent,
  Message,
  Session,
  Tier,
  TierTokens,
  TurnStatus,
  TurnSummary,
} from '../core/types.js';

/**
 * The storage port. Every adapter (SQLite now, PostgreSQL later) implements it and passes the
 * contract suite in test/contract/store-contract.ts. All data is reached through `tenant()`,
 * which binds the tenant id into every query: no repository method can cross tenants.
 *
 * What an adapter guarantees, and all the engine relies on:
 * - Each repository call is atomic: it commits whole or not at all.
 * - A transaction is atomic and serializable: its writes commit together or not at all, and concurrent
 *   transactions end as if they had run one after the other (no lost update). An adapter may make one
 *   wait for another, or retry one that conflicts; it never reports a conflict to the caller.
 * - A read outside a transaction never sees a transaction's uncommitted writes, and a write committed
 *   before a read starts is visible to that read (in this process or any other sharing the database).
 * Whether a read waits for a writer, and how sessions' turns are serialised (the `SessionLock` port),
 * are the adapter's and the engine's business, not the contract's.
 */
export interface Store {
  /** Adapter name, for diagnostics. */
  readonly kind: string;
  /** Repositories scoped to one tenant (created on first write). */
  tenant(tenantId: string): TenantStore;
  /** The API keys of every tenant: a key names the tenant it serves, so they live above the tenants. */
  readonly keys: ApiKeyRepository;
  /** Close connections. Further calls fail. */
  close(): Promise<void>;
}

/** An API key as stored: never the key itself, only its SHA-256 hash. */
export interface ApiKeyRecord {
  id: string;
  /** The tenant every request made with the key acts for. */
  tenantId: string;
  /** A label for people ("ci", "web app"); may be empty. */
  name: string;
  /** Lowercase hex SHA-256 of the key. */
  hash: string;
  createdAt: string;
  /** When it was revoked; a revoked key serves nothing. */
  revokedAt: string | null;
}

export interface ApiKeyRepository {
  /** Fails with STORE_FAILURE, changing nothing, when a key with this id or hash exists. */
  create(options: { key: ApiKeyRecord }): Promise<void>;
  /** The key with this hash that is not revoked, or null. One indexed read. */
  findLive(options: { hash: string }): Promise<ApiKeyRecord | null>;
  /** Keys, revoked ones included, oldest first (of one tenant when given). */
  list(options?: { tenantId?: string }): Promise<ApiKeyRecord[]>;
  /** Revoke the key at `at` (a key revoked before keeps its first time); the key as it now stands, or null when there is none with this id. */
  revoke(options: { id: string; at: string }): Promise<ApiKeyRecord | null>;
}

export interface TenantRepositories {
  readonly tenantId: string;
  readonly sessions: SessionRepository;
  readonly messages: MessageRepository;
  readonly turns: TurnRepository;
  readonly facts: FactRepository;
  readonly artifacts: ArtifactRepository;
  readonly search: ArchiveSearch;
  readonly retries: RetryRepository;
  readonly vectors: MessageVectors;
  /** The tenant's long-term memories (`long-term-store.ts`). */
  readonly longTerm: LongTermRepository;
}

export interface TenantStore extends TenantRepositories {
  /**
   * Run `work` atomically and serializably: everything it writes through `repositories` commits together
   * or not at all, and no other call sees a part of it (see the guarantees above). When `work` throws,
   * its writes are undone and the very error it threw is rethrown.
   */
  transaction<T>(work: (repositories: TenantRepositories) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

export interface TransactionOptions {
  /**
   * False for a write that can be redone from data already durable (a turn's derived memory, whose raw
   * messages and pending turn-log entry were committed durably before): the store may skip syncing it
   * to disk, so a power cut can lose it, never what was written durably. Default true.
   */
  durable?: boolean;
}

export interface SessionRepository {
  /**
   * Fails with SESSION_EXISTS, changing nothing, when the tenant already has a session with this id (a
   * hidden one included). With `importUntil` (a time) the session is being imported: `get` and `list` do
   * not show it until `finishImport`, and `removeAbandonedImports` deletes it once that time is past.
   */
  create(options: { session: Session; importUntil?: string }): Promise<void>;
  /** The session, or null when there is none or it is still being imported. */
  get(options: { sessionId: string }): Promise<Session | null>;
  /** Most recently updated first; sessions still being imported are left out. */
  list(options: { limit: number; offset?: number }): Promise<Session[]>;
  /** Push a session's import deadline to `until`; false when the session is gone or no longer importing. */
  renewImport(options: { sessionId: string; until: string }): Promise<boolean>;
  /** The import is complete: the session is shown from now on. False when it is gone. */
  finishImport(options: { sessionId: string; updatedAt: string }): Promise<boolean>;
  /** Delete the sessions whose import stopped before `now` without finishing (and everything of them); gives their ids. */
  removeAbandonedImports(options: { now: string }): Promise<string[]>;
  update(options: { sessionId: string; title?: string; instructions?: string; updatedAt: string }): Promise<boolean>;
  /** Delete the session and everything derived from it. Returns false when it did not exist. */
  delete(options: { sessionId: string }): Promise<boolean>;
}

export interface TierUpdate {
  messageId: string;
  tier1: string;
  tier2: string;
  /** Tier 1 and tier 2 tokens are written; tier 3 (the raw text) never changes. */
  tokens: TierTokens;
  requiredTier: Tier;
}

export interface MessageRepository {
  /**
   * Append messages (raw tier first) and bump the session's counters. Messages come in position order,
   * each after the session's last: a session only grows at its end (the search relies on it).
   */
  append(options: { sessionId: string; messages: readonly Message[]; updatedAt: string }): Promise<void>;
  /** Replace tiers written by a memory manager (a raised message keeps its raised tier if higher, and returns to the new one). */
  updateTiers(options: { sessionId: string; updates: readonly TierUpdate[] }): Promise<void>;
  /**
   * Raise a message's required tier to at least `tier`, asked for at `turn`: the tier it had is kept to
   * return to (`lowerTiers`), and a message asked for again is kept raised longer. Returns the message as
   * it now stands, or null when the session holds no message with that id.
   */
  raiseTier(options: { sessionId: string; messageId: string; tier: Tier; turn: number }): Promise<Message | null>;
  /** Return the messages last asked for before `turn` to the tiers they had; gives the turns whose messages changed. */
  lowerTiers(options: { sessionId: string; raisedBefore: number }): Promise<number[]>;
  /** Messages of a turn range (inclusive), in position order. */
  listByTurns(options: { sessionId: string; fromTurn: number; toTurn: number }): Promise<Message[]>;
  /** Every message of the session, in position order. */
  list(options: { sessionId: string; limit?: number; offset?: number }): Promise<Message[]>;
  /** The session's messages among `messageIds`, each once, in position order; unknown ids are ignored. */
  getMany(options: { sessionId: string; messageIds: readonly string[] }): Promise<Message[]>;
  /** How many messages the session holds in turns ≤ `toTurn` (0 for an unknown session). */
  countUpToTurn(options: { sessionId: string; toTurn: number }): Promise<number>;
  /** The last turn number and position (0 and -1 for an empty session). */
  last(options: { sessionId: string }): Promise<{ turn: number; position: number }>;
  /**
   * When each listed turn was said: the `sentAt` of its first message that has one. Turns with no known
   * time (imported without one) or no messages are absent.
   */
  sentTimes(options: { sessionId: string; turns: readonly number[] }): Promise<Map<number, string>>;
}

/** What changed in a session's turns since a revision of it (see `TurnRepository.changes`). */
export interface TurnChanges {
  /** The session's latest revision: every write of a turn's summary or of its messages' tiers raises it; 0 before any. */
  revision: number;
  /** The turns written after the revision asked about, ascending (none when no revision was given). */
  turns: number[];
}

export interface TurnRepository {
  /** Write a turn's summary (the turn's revision is raised, see `changes`). */
  upsert(options: { summary: TurnSummary }): Promise<void>;
  /**
   * The session's revision, and the turns whose summary or message tiers were written after revision
   * `after`, by anyone sharing the store: how a cache of older turns learns what other processes or
   * servers changed. One indexed read.
   */
  changes(options: { sessionId: string; after?: number }): Promise<TurnChanges>;
  get(options: { sessionId: string; turn: number }): Promise<TurnSummary | null>;
  /** Turn summaries with `turn` < `beforeTurn`, newest first. */
  listBefore(options: { sessionId: string; beforeTurn: number; limit: number }): Promise<TurnSummary[]>;
  /** Every turn summary, oldest first. */
  list(options: { sessionId: string }): Promise<TurnSummary[]>;
  listByStatus(options: { sessionId?: string; status: TurnStatus; limit: number }): Promise<TurnSummary[]>;
}

export interface FactRepository {
  /** The current base-truth document (oldest fact first). */
  list(options: { sessionId: string }): Promise<Fact[]>;
  /** Fact events in sequence order, optionally only those of turns ≤ `upToTurn`. */
  listEvents(options: { sessionId: string; upToTurn?: number }): Promise<FactEvent[]>;
  /** The highest event sequence of the session (0 when none). */
  lastSequence(options: { sessionId: string }): Promise<number>;
  /** Persist events and the resulting projection changes together. */
  apply(options: { sessionId: string; events: readonly FactEvent[]; upserts: readonly Fact[]; removedIds: readonly string[] }): Promise<void>;
}

export interface ArtifactRepository {
  /** Add a version to the artifact with this name, creating it when new. Returns the stored version. */
  addVersion(options: {
    sessionId: string;
    artifactId: string;
    name: string;
    kind: ArtifactKind;
    language: string | null;
    version: Omit<ArtifactVersion, 'artifactId' | 'version'>;
  }): Promise<ArtifactVersion>;
  /** Every artifact of the session with all its versions. */
  list(options: { sessionId: string }): Promise<Artifact[]>;
  /** Every artifact of the session with only its newest version (what a new turn builds on). */
  listLatest(options: { sessionId: string }): Promise<Artifact[]>;
  /** Restore an artifact exactly as exported (ids and versions kept). */
  restore(options: { artifact: Artifact }): Promise<void>;
}

/** A turn waiting for its memory to be written again (its memory manager fell back and may succeed later). */
export interface MemoryRetry {
  sessionId: string;
  turn: number;
  /** Attempts in a row that failed for `reason`, the first (failed) one included (at least 1). */
  attempts: number;
  /**
   * ISO-8601 time at or after which the next attempt is due. Times are compared as written, so
   * give every time in the same UTC form `Date.prototype.toISOString()` produces.
   */
  nextAttemptAt: string;
  /** Why the turn's latest attempt fell back: `timeout`, `malformed` … (the manager's fallback reason). */
  reason: string;
  /** The last failure's message. */
  lastError: string;
  /** When the turn was first queued; replacing the entry keeps the first value. */
  createdAt: string;
  updatedAt: string;
}

/**
 * The persisted memory-retry queue: turns stored with a raw fallback whose memory should be written
 * again later. Entries survive a restart and go away with their session.
 */
export interface RetryRepository {
  /**
   * Queue a turn, or replace its entry (attempts, next attempt, reason, last error, updatedAt; the
   * first createdAt is kept). The turn's summary must be stored (`turns.upsert`) first: otherwise it
   * fails with STORE_FAILURE naming the session and turn.
   */
  put(options: { retry: MemoryRetry }): Promise<void>;
  /**
   * Entries due at `now` or earlier, ordered by session then turn (oldest turn first), at most
   * `limit`; one session when `sessionId` is given.
   */
  listDue(options: { now: string; limit: number; sessionId?: string }): Promise<MemoryRetry[]>;
  /** Every entry of a session, oldest turn first. */
  list(options: { sessionId: string }): Promise<MemoryRetry[]>;
  /** The earliest `nextAttemptAt` in the tenant, or null when the queue is empty. */
  nextDue(): Promise<string | null>;
  /** Remove a turn's entry (no error when absent). */
  remove(options: { sessionId: string; turn: number }): Promise<void>;
  /** Entries in the tenant, or in one session when `sessionId` is given (default: the whole tenant). */
  count(options?: { sessionId?: string }): Promise<number>;
  /**
   * Claim, for `claimant` until `until`, the sessions (at most `limit`, by id) holding an entry due at
   * `now`, except those another claimant holds past `now`; gives their ids. A claim keeps other servers
   * sharing the database from retrying the same session meanwhile; it ends at `until`, when released, or
   * with its session. Claiming is atomic: two claimants never both get a session.
   */
  claimDue(options: { now: string; until: string; claimant: string; limit: number }): Promise<string[]>;
  /** End `claimant`'s claim on the session (no error when it holds none). */
  release(options: { sessionId: string; claimant: string }): Promise<void>;
}

export interface SearchHit {
  messageId: string;
  turn: number;
  /** BM25 relevance, higher is better. */
  score: number;
}

/**
 * The lexical index of a tenant's raw messages (speaker and content), with diacritics folded and
 * English words stemmed ("painted", "painting" and "paint" are one term; "tomatoes" and "tomato" too),
 * whose term statistics are the tenant's alone. Which terms to rank and how many hits to keep
 * is decided by `searchArchive` (store/archive-query.ts), the same for every adapter; an adapter only
 * counts and ranks.
 */
export interface ArchiveSearch {
  /** How many messages the tenant's index holds. */
  documentCount(): Promise<number>;
  /** For each term, how many of the tenant's messages hold it (in the order given). */
  termFrequencies(options: { terms: readonly string[] }): Promise<number[]>;
  /**
   * The session's messages holding any of `terms`, ranked by BM25 over the tenant's statistics, best
   * first (a tie in conversation order), at most `limit`, only turns ≤ `maxTurn` when given. The
   * session is a condition of the query itself: no other session's message is ever ranked.
   */
  rank(options: { sessionId: string; terms: readonly string[]; limit: number; maxTurn?: number }): Promise<SearchHit[]>;
}

/** A message of the session waiting for its vector in a space. */
export interface UnembeddedMessage {
  messageId: string;
  /** Its place in the session (0-based): vectors are kept in this order. */
  position: number;
  /** The text to embed, as the lexical index holds it: the content, then the tools it called (`messageText`). */
  text: string;
}

export interface VectorHit {
  messageId: string;
  turn: number;
  /** Cosine similarity to the query vector, from -1 to 1, higher is closer. */
  similarity: number;
}

/**
 * The vector index of a tenant's messages, one space per embedder (`Embedder.id`): vectors of different
 * spaces are never compared. A session's messages are embedded in position order, so what is still
 * missing is what comes after the last one stored. Vectors go with their session when it is deleted.
 */
export interface MessageVectors {
  /** False when this store cannot keep vectors (SQLite without its sqlite-vec extension); every call then fails with STORE_FAILURE. */
  readonly available: boolean;
  /** The session's messages after the last one embedded in `space`, in position order, at most `limit`. */
  pending(options: { sessionId: string; space: string; limit: number }): Promise<UnembeddedMessage[]>;
  /**
   * Keep vectors of the session's messages (as `pending` gave them, in position order), each of `dimensions` numbers (a vector
   * stored again replaces the first); a null vector marks a message with nothing to embed (no words the
   * embedder knows), which is then no longer pending and never found. Fails with STORE_FAILURE, changing
   * nothing, when the space holds vectors of another length or a message is not the session's.
   */
  put(options: { sessionId: string; space: string; dimensions: number; entries: ReadonlyArray<{ messageId: string; vector: Float32Array | null }> }): Promise<void>;
  /** The session's `limit` messages closest to `vector` in `space` (turns ≤ `maxTurn` when given), closest first, a tie in conversation order. */
  nearest(options: { sessionId: string; space: string; vector: Float32Array; limit: number; maxTurn?: number }): Promise<VectorHit[]>;
}
