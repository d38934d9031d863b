/**
 * The in-memory fake store's data: one plain value per tenant, whose sessions hold everything derived
 * from them (so deleting a session is deleting one map entry), and how repositories reach it.
 */
import { StrataError } from '../../../src/core/errors.js';
import type { Artifact, Fact, FactEvent, Message, Session, Tier, TurnSummary } from '../../../src/core/types.js';
import type { LongTermMemory, MemoryEdge, MemoryTag, MemoryVersion } from '../../../src/core/long-term-memory.js';
import type { MaintenanceRun } from '../../../src/core/maintenance-run.js';
import type { MemoryRetry } from '../../../src/store/store.js';

/** A message with its search-index entry: the terms of its speaker and of its content, in order. */
export interface IndexedMessage {
  message: Message;
  terms: { speaker: string[]; content: string[] };
  /** Set while the message is raised on request: the tier to return to and the turn of the latest request. */
  raised?: { defaultTier: Tier; atTurn: number };
}

export interface SessionState {
  session: Session;
  /** In position order. */
  messages: IndexedMessage[];
  turns: Map<number, TurnSummary>;
  /** The tenant's revision each turn was last written at (summary or message tiers). */
  turnRevisions: Map<number, number>;
  facts: Map<string, Fact>;
  /** In sequence order. */
  events: FactEvent[];
  artifacts: Artifact[];
  retries: Map<number, MemoryRetry>;
  /** Who is retrying the session's queued turns, until when. */
  claim?: { claimant: string; until: string };
  /** Set while the session is being imported: hidden from `get` and `list` until then. */
  importUntil: string | null;
  /** By space: the vectors of its messages, by message id, and the position of the last one embedded. */
  vectors: Map<string, { through: number; byMessage: Map<string, Float32Array> }>;
}

export interface TenantState {
  sessions: Map<string, SessionState>;
  /** The length of the vectors of each space the tenant has stored some in. */
  vectorSpaces: Map<string, number>;
  /** The tenant's last turn revision: it never goes back, so a session made again never repeats one. */
  turnRevision: number;
  longTerm: LongTermState;
}

/** A tenant's long-term memories: by id, their versions oldest first, their tags, the edges, and how many were ever made. */
export interface LongTermState {
  memories: Map<string, LongTermMemory>;
  versions: Map<string, MemoryVersion[]>;
  tags: Map<string, MemoryTag[]>;
  edges: MemoryEdge[];
  count: number;
  /** Maintenance runs in the order first kept. */
  runs: MaintenanceRun[];
}

export function emptyTenantState(): TenantState {
  return { sessions: new Map(), vectorSpaces: new Map(), turnRevision: 0, longTerm: { memories: new Map(), versions: new Map(), tags: new Map(), edges: [], count: 0, runs: [] } };
}

/**
 * How a tenant's repositories reach its state. `read` answers from the state as it stands; `write`
 * changes a copy of it and puts the copy in place only when `change` returns, so a call that throws
 * changes nothing. Both hand back a copy of what they return, never a piece of the state.
 */
export interface StateAccess {
  read<T>(look: (state: TenantState) => T): Promise<T>;
  write<T>(change: (draft: TenantState) => T): Promise<T>;
}

export function storeFailure(message: string, details: Record<string, unknown> = {}): StrataError {
  return new StrataError('STORE_FAILURE', message, { details });
}

/** The session, or a STORE_FAILURE saying what to create first (the write needs it to exist). */
export function requireSession(state: TenantState, sessionId: string, what: string): SessionState {
  const found = state.sessions.get(sessionId);
  if (found === undefined) throw storeFailure(`Cannot store ${what}: session "${sessionId}" does not exist in this tenant; create it first.`, { sessionId });
  return found;
}

/** Give each of `turns` the tenant's next revision (see `TurnRepository.changes`). */
export function noteTurnChanges(state: TenantState, session: SessionState, turns: Iterable<number>): void {
  const distinct = new Set(turns);
  if (distinct.size === 0) return;
  state.turnRevision += 1;
  for (const turn of distinct) session.turnRevisions.set(turn, state.turnRevision);
}

/** Ascending order of two texts (compared as written, like the SQLite adapter's ORDER BY). */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The entries from `offset`, at most `limit` of them (no limit when undefined or negative). */
export function page<T>(items: readonly T[], limit: number | undefined, offset = 0): T[] {
  return items.slice(offset, limit === undefined || limit < 0 ? undefined : offset + limit);
}
