/**
 * How the assembler reads older turns: page by page from the store, or through a cache that keeps
 * each session's turns in memory between calls. Older turns rarely change (only when their memory is
 * written or retried), so the memory that owns the writes tells the cache which turns to forget, and
 * before each package the cache asks the store which turns others sharing it wrote (`sync`).
 */
import { approximateBytes } from '../core/memo-space.js';
import type { Message, TurnSummary } from '../core/types.js';
import type { TenantRepositories, TurnRepository } from '../store/store.js';
import { TurnLines } from './turn-lines.js';
import type { TurnMaterial } from './turn-options.js';

/** Turns `fromTurn`..`toTurn` of a session with their messages and summaries, oldest first. */
export interface TurnReader {
  read(options: { sessionId: string; fromTurn: number; toTurn: number }): Promise<TurnMaterial[]>;
  /** The lines built for the turns this reader gives, kept as long as it keeps them. */
  readonly lines: TurnLines;
}

/** A reader that keeps turns between calls, so it can also give scattered turns one by one. */
export interface TurnCache extends TurnReader {
  /** The listed turns that have messages, by turn number. */
  readTurns(options: { sessionId: string; turns: readonly number[] }): Promise<Map<number, TurnMaterial>>;
}

function groupByTurn(messages: readonly Message[], summaries: readonly TurnSummary[]): Map<number, TurnMaterial> {
  const turns = new Map<number, TurnMaterial>();
  for (const message of messages) {
    const material = turns.get(message.turn) ?? { turn: message.turn, summary: null, messages: [] };
    material.messages.push(message);
    turns.set(message.turn, material);
  }
  for (const summary of summaries) {
    const material = turns.get(summary.turn);
    if (material !== undefined) material.summary = summary;
  }
  return turns;
}

/** The turns `messages` belong to, each with its summary when there is one, oldest first. */
export function turnsInOrder(messages: readonly Message[], summaries: readonly TurnSummary[]): TurnMaterial[] {
  return [...groupByTurn(messages, summaries).values()].sort((a, b) => a.turn - b.turn);
}

/** Reads straight from the store. */
export function storeTurnReader(repositories: TenantRepositories): TurnReader {
  return {
    lines: new TurnLines(),
    read: async ({ sessionId, fromTurn, toTurn }) => {
      const [messages, summaries] = await Promise.all([
        repositories.messages.listByTurns({ sessionId, fromTurn, toTurn }),
        repositories.turns.listBefore({ sessionId, beforeTurn: toTurn + 1, limit: toTurn - fromTurn + 1 }),
      ]);
      return turnsInOrder(messages, summaries);
    },
  };
}

/** The share of its bound a session's cache is trimmed to when it passes it. */
const TRIMMED_TO = 0.9;

/** Turns between two listed turns that are read with them rather than in a read of their own. */
const READ_GAP = 4;

/** Bytes a cached turn holds, about: its messages and summary, and as much again for the lines built from them. */
function turnBytes(material: TurnMaterial | null): number {
  return material === null ? 16 : 2 * approximateBytes(material);
}

/** How much a turn cache keeps. */
export interface TurnCacheLimits {
  /** Bytes of all cached turns together, about (default 32 MiB). */
  maxBytes?: number;
  /** Sessions cached at once (default 16). */
  maxSessions?: number;
}

/** The session a cache is brought up to date for: its id, and when it was made (a session made again under its id is another). */
export interface SyncedSession {
  id: string;
  createdAt: string;
}

/**
 * Keeps what `inner` read, per session, for the sessions used most recently, within a bound in bytes:
 * past it, the least recently used sessions go first, then the oldest turns of the session being read.
 * Call `forget` for every turn whose messages, tiers or summary are written, and for a deleted session.
 */
export class CachedTurnReader implements TurnCache {
  /** The lines of the cached turns, which live as long as the turns do. */
  readonly lines = new TurnLines();
  /** Per session: turn → material, or null for a turn known to have no messages. */
  private readonly sessions = new Map<string, Map<number, TurnMaterial | null>>();
  /** Per session: the bytes of its cached turns. */
  private readonly sessionBytes = new Map<string, number>();
  private totalBytes = 0;
  private readonly maxBytes: number;
  private readonly maxSessions: number;
  /** Bumped by every `forget`; a read keeps nothing about a turn forgotten while it ran. */
  private generation = 0;
  /** Per session: when it was last forgotten whole, and when each turn was, while reads are in flight. */
  private readonly forgotten = new Map<string, { all: number; turns: Map<number, number> }>();
  private reading = 0;
  /** Per cached session: the session it was read from and the revision of its turns it is up to date with. */
  private readonly synced = new Map<string, { createdAt: string; revision: number }>();

  /** `journal` tells the cache what others sharing the store wrote; without it, only `forget` does. */
  constructor(
    private readonly inner: TurnReader,
    limits: TurnCacheLimits = {},
    private readonly journal?: Pick<TurnRepository, 'changes'>,
  ) {
    this.maxBytes = limits.maxBytes ?? 32 * 1024 * 1024;
    this.maxSessions = limits.maxSessions ?? 16;
  }

  /** Bytes of the cached turns, about. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** The session's cached turns, marked as the most recently used. */
  private use(sessionId: string): Map<number, TurnMaterial | null> {
    let turns = this.sessions.get(sessionId);
    if (turns === undefined) {
      if (this.sessions.size >= this.maxSessions) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined) this.drop(oldest);
      }
      turns = new Map();
    } else {
      // Most recently used last.
      this.sessions.delete(sessionId);
    }
    this.sessions.set(sessionId, turns);
    return turns;
  }

  async read(options: { sessionId: string; fromTurn: number; toTurn: number }): Promise<TurnMaterial[]> {
    const { sessionId, fromTurn, toTurn } = options;
    const turns = this.use(sessionId);
    // Read only the runs of turns not cached yet.
    const missing: Array<[number, number]> = [];
    for (let turn = fromTurn; turn <= toTurn; turn += 1) {
      if (turns.has(turn)) continue;
      const last = missing[missing.length - 1];
      if (last !== undefined && last[1] === turn - 1) last[1] = turn;
      else missing.push([turn, turn]);
    }
    // What was read is returned even for turns a concurrent write keeps out of the cache.
    const fetched = new Map<number, TurnMaterial>();
    for (const [low, high] of missing) for (const material of await this.fill(sessionId, turns, low, high)) fetched.set(material.turn, material);
    const result: TurnMaterial[] = [];
    for (let turn = fromTurn; turn <= toTurn; turn += 1) {
      const material = turns.get(turn) ?? fetched.get(turn);
      if (material !== undefined && material !== null) result.push(material);
    }
    this.trim(sessionId);
    return result;
  }

  /**
   * Cached turns are looked up one by one; those not cached yet are read in runs of nearby turns (a gap
   * of up to `READ_GAP` turns is read with them), never as the whole span of a scattered list.
   */
  async readTurns(options: { sessionId: string; turns: readonly number[] }): Promise<Map<number, TurnMaterial>> {
    const { sessionId } = options;
    const turns = this.use(sessionId);
    const found = new Map<number, TurnMaterial>();
    const missing: number[] = [];
    for (const turn of options.turns) {
      const material = turns.get(turn);
      if (material === undefined) missing.push(turn);
      else if (material !== null) found.set(turn, material);
    }
    if (missing.length === 0) return found;
    const runs: Array<[number, number]> = [];
    for (const turn of [...new Set(missing)].sort((a, b) => a - b)) {
      const last = runs[runs.length - 1];
      if (last !== undefined && turn - last[1] <= READ_GAP + 1) last[1] = turn;
      else runs.push([turn, turn]);
    }
    const listed = new Set(missing);
    for (const [low, high] of runs) {
      for (const material of await this.fill(sessionId, turns, low, high)) if (listed.has(material.turn)) found.set(material.turn, material);
    }
    this.trim(sessionId);
    return found;
  }

  /** Read turns from the store and cache those no write touched meanwhile; returns what was read. */
  private async fill(sessionId: string, turns: Map<number, TurnMaterial | null>, fromTurn: number, toTurn: number): Promise<TurnMaterial[]> {
    const start = this.generation;
    this.reading += 1;
    let read: TurnMaterial[];
    try {
      read = await this.inner.read({ sessionId, fromTurn, toTurn });
    } finally {
      this.reading -= 1;
    }
    const forgotten = this.forgotten.get(sessionId);
    if (this.reading === 0) this.forgotten.clear();
    if (forgotten !== undefined && forgotten.all > start) return read;
    const changed = (turn: number): boolean => (forgotten?.turns.get(turn) ?? 0) > start;
    const byTurn = new Map(read.map((material) => [material.turn, material]));
    // Turns still cached keep their objects (and what was derived from them).
    let added = 0;
    for (let turn = fromTurn; turn <= toTurn; turn += 1) {
      if (changed(turn) || turns.has(turn)) continue;
      const material = byTurn.get(turn) ?? null;
      turns.set(turn, material);
      added += turnBytes(material);
    }
    this.count(sessionId, added);
    return read;
  }

  private count(sessionId: string, bytes: number): void {
    this.sessionBytes.set(sessionId, (this.sessionBytes.get(sessionId) ?? 0) + bytes);
    this.totalBytes += bytes;
  }

  /**
   * Forget the session's turns that anyone sharing the store wrote since the cache last looked (one
   * indexed read), and all of them when the session was deleted and made again. Call before a package.
   */
  async sync(session: SyncedSession): Promise<void> {
    if (this.journal === undefined) return;
    const seen = this.synced.get(session.id);
    const known = seen !== undefined && seen.createdAt === session.createdAt;
    const { revision, turns } = await this.journal.changes(known ? { sessionId: session.id, after: seen.revision } : { sessionId: session.id });
    // Turns cached with no revision to check them against (or from a session since replaced) go.
    if ((!known && this.sessions.has(session.id)) || (known && revision < seen.revision)) this.forget(session.id);
    // This memory's own writes are listed too: a turn it wrote and read again since is read once more.
    for (const turn of turns) this.forget(session.id, turn);
    const now = this.synced.get(session.id);
    // Two packages may sync at once: the revision seen only grows.
    if (now === undefined || now.createdAt !== session.createdAt || now.revision < revision) this.synced.set(session.id, { createdAt: session.createdAt, revision });
  }

  /** Forget a session's turns and their bytes. */
  private drop(sessionId: string): void {
    this.synced.delete(sessionId);
    this.sessions.delete(sessionId);
    this.totalBytes -= this.sessionBytes.get(sessionId) ?? 0;
    this.sessionBytes.delete(sessionId);
  }

  /**
   * Within the bound again: other sessions first, least recently used first; then `sessionId`'s oldest
   * turns, down to `TRIMMED_TO` of the bound, so that finding them (a sort of every turn cached) is not
   * done again on every read that adds a few turns.
   */
  private trim(sessionId: string): void {
    for (const other of this.sessions.keys()) {
      if (this.totalBytes <= this.maxBytes) return;
      if (other !== sessionId) this.drop(other);
    }
    const turns = this.sessions.get(sessionId);
    if (turns === undefined || this.totalBytes <= this.maxBytes) return;
    for (const turn of [...turns.keys()].sort((a, b) => a - b)) {
      if (this.totalBytes <= this.maxBytes * TRIMMED_TO) return;
      this.count(sessionId, -turnBytes(turns.get(turn) ?? null));
      turns.delete(turn);
    }
  }

  /** Forget one turn of a session (its memory was written), or the whole session. */
  forget(sessionId: string, turn?: number): void {
    this.generation += 1;
    if (this.reading > 0) {
      const entry = this.forgotten.get(sessionId) ?? { all: 0, turns: new Map<number, number>() };
      if (turn === undefined) entry.all = this.generation;
      else entry.turns.set(turn, this.generation);
      this.forgotten.set(sessionId, entry);
    }
    if (turn === undefined) {
      this.drop(sessionId);
      return;
    }
    const turns = this.sessions.get(sessionId);
    if (turns?.has(turn) !== true) return;
    this.count(sessionId, -turnBytes(turns.get(turn) ?? null));
    turns.delete(turn);
  }
}
