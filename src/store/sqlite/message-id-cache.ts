import type Database from 'better-sqlite3';

/** Where a session's messages sit, oldest first: ids, turns, positions and search-index rowids (`seq`). */
export class SessionMessages {
  readonly ids: string[] = [];
  readonly turns: number[] = [];
  readonly positions: number[] = [];
  private readonly seqs: number[] = [];
  /** Built only if the rowids ever stop rising with the position (SQLite gives appended rows higher ones). */
  private bySeq: Map<number, number> | null = null;

  get lastPosition(): number {
    return this.positions.at(-1) ?? -1;
  }

  append(row: { seq: number; id: string; turn: number; position: number }): void {
    const last = this.seqs.at(-1);
    if (this.bySeq === null && last !== undefined && row.seq <= last) this.bySeq = new Map(this.seqs.map((seq, index) => [seq, index]));
    this.bySeq?.set(row.seq, this.seqs.length);
    this.seqs.push(row.seq);
    this.ids.push(row.id);
    this.turns.push(row.turn);
    this.positions.push(row.position);
  }

  /** The index of the message whose rowid is `seq`, or -1 when it is not one of this session's. */
  indexOfSeq(seq: number): number {
    if (this.bySeq !== null) return this.bySeq.get(seq) ?? -1;
    let low = 0;
    let high = this.seqs.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.seqs[middle] ?? 0) < seq) low = middle + 1;
      else high = middle;
    }
    return this.seqs[low] === seq ? low : -1;
  }
}

/**
 * Where each session's messages sit (ids, turns, positions, rowids), in memory. Messages are
 * append-only, so an entry is extended with the rows after its last position; the session's message
 * count (written in the same transaction as the messages) tells whether it is current, even when
 * another process appended. Shared by a tenant's repositories.
 */
export class MessageIdCache {
  private readonly entries = new Map<string, SessionMessages>();
  private readonly count: Database.Statement<[string, string], number | undefined>;
  private readonly after: Database.Statement<[string, string, number], { seq: number; id: string; turn: number; position: number }>;
  private readonly idAt: Database.Statement<[string, string, number], string | undefined>;

  constructor(
    db: Database.Database,
    private readonly tenantId: string,
    private readonly capacity = 16,
  ) {
    this.count = db.prepare<[string, string], number | undefined>('SELECT message_count FROM sessions WHERE tenant_id = ? AND id = ?').pluck();
    this.idAt = db.prepare<[string, string, number], string | undefined>('SELECT id FROM messages WHERE tenant_id = ? AND session_id = ? AND position = ?').pluck();
    this.after = db.prepare<[string, string, number], { seq: number; id: string; turn: number; position: number }>(
      'SELECT seq, id, turn, position FROM messages WHERE tenant_id = ? AND session_id = ? AND position > ? ORDER BY position',
    );
  }

  /** Ids of the messages of turns ≤ `toTurn`, oldest first. */
  idsUpTo(sessionId: string, toTurn: number): string[] {
    const entry = this.current(sessionId);
    if (entry === null) return [];
    let low = 0;
    let high = entry.turns.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((entry.turns[middle] ?? 0) <= toTurn) low = middle + 1;
      else high = middle;
    }
    return entry.ids.slice(0, low);
  }

  /** The session's messages as they stand now, or null for an unknown session. Read, do not keep: the next call may replace it. */
  current(sessionId: string): SessionMessages | null {
    const expected = this.count.get(this.tenantId, sessionId);
    if (expected === undefined) {
      this.entries.delete(sessionId);
      return null;
    }
    let entry = this.entries.get(sessionId);
    // A rolled-back append or a deleted and recreated session shows as a count or last id that no longer matches.
    const stale =
      entry !== undefined &&
      (entry.ids.length > expected || (entry.lastPosition >= 0 && this.idAt.get(this.tenantId, sessionId, entry.lastPosition) !== entry.ids.at(-1)));
    if (entry === undefined || stale) entry = new SessionMessages();
    if (entry.ids.length < expected) {
      for (const row of this.after.all(this.tenantId, sessionId, entry.lastPosition)) entry.append(row);
    }
    // Most recently used last, so the first key is the one to evict.
    this.entries.delete(sessionId);
    this.entries.set(sessionId, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return entry;
  }
}
