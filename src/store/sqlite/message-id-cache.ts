import type Database from 'better-sqlite3';

interface Entry {
  ids: string[];
  turns: number[];
  lastPosition: number;
}

/**
 * Message ids in turn order, per session, kept in memory. Messages are append-only, so an entry is
 * extended with the rows after its last position; the session's message count (written in the same
 * transaction as the messages) tells whether it is current, even when another process appended.
 */
export class MessageIdCache {
  private readonly entries = new Map<string, Entry>();
  private readonly count: Database.Statement<[string, string], number | undefined>;
  private readonly after: Database.Statement<[string, string, number], { id: string; turn: number; position: number }>;
  private readonly idAt: Database.Statement<[string, string, number], string | undefined>;

  constructor(
    db: Database.Database,
    private readonly tenantId: string,
    private readonly capacity = 16,
  ) {
    this.count = db.prepare<[string, string], number | undefined>('SELECT message_count FROM sessions WHERE tenant_id = ? AND id = ?').pluck();
    this.idAt = db.prepare<[string, string, number], string | undefined>('SELECT id FROM messages WHERE tenant_id = ? AND session_id = ? AND position = ?').pluck();
    this.after = db.prepare<[string, string, number], { id: string; turn: number; position: number }>(
      'SELECT id, turn, position FROM messages WHERE tenant_id = ? AND session_id = ? AND position > ? ORDER BY position',
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

  private current(sessionId: string): Entry | null {
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
    if (entry === undefined || stale) entry = { ids: [], turns: [], lastPosition: -1 };
    if (entry.ids.length < expected) {
      for (const row of this.after.all(this.tenantId, sessionId, entry.lastPosition)) {
        entry.ids.push(row.id);
        entry.turns.push(row.turn);
        entry.lastPosition = row.position;
      }
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
