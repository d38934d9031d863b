import type Database from 'better-sqlite3';
import { SessionMessages } from './session-messages.js';

/**
 * Where each session's messages sit (ids, turns, positions, rowids), in memory, shared by a tenant's
 * repositories. Messages are append-only, so an entry is extended with the rows after its last
 * position; the session's message count (written in the same transaction as the messages) and the id
 * and rowid of its last message tell whether it is current, even after a rollback, a session deleted
 * and imported again under the same ids, or another process appending. Holds at most `maxSessions`
 * sessions and, beyond the one in use, `maxMessages` messages, least recently used going first.
 */
export class MessageIdCache {
  private readonly entries = new Map<string, SessionMessages>();
  private messages = 0;
  private readonly count: Database.Statement<[string, string], number | undefined>;
  private readonly after: Database.Statement<[string, string, number], [number, string, number, number]>;
  private readonly rowAt: Database.Statement<[string, string, number], { id: string; seq: number } | undefined>;

  constructor(
    db: Database.Database,
    private readonly tenantId: string,
    private readonly limits: { maxSessions: number; maxMessages: number } = { maxSessions: 64, maxMessages: 250_000 },
  ) {
    this.count = db.prepare<[string, string], number | undefined>('SELECT message_count FROM sessions WHERE tenant_id = ? AND id = ?').pluck();
    this.rowAt = db.prepare<[string, string, number], { id: string; seq: number }>('SELECT id, seq FROM messages WHERE tenant_id = ? AND session_id = ? AND position = ?');
    // Rows as arrays (`raw`): a first read of a long session builds no object per message.
    this.after = db
      .prepare<[string, string, number], [number, string, number, number]>('SELECT seq, id, turn, position FROM messages WHERE tenant_id = ? AND session_id = ? AND position > ? ORDER BY position')
      .raw(true);
  }

  /** Ids of the messages of turns ≤ `toTurn`, oldest first. */
  idsUpTo(sessionId: string, toTurn: number): string[] {
    return this.current(sessionId)?.idsUpToTurn(toTurn) ?? [];
  }

  /** The session's messages as they stand now, or null for an unknown session. Read, do not keep: the next call may replace it. */
  current(sessionId: string): SessionMessages | null {
    const expected = this.count.get(this.tenantId, sessionId);
    let entry = this.entries.get(sessionId);
    if (entry !== undefined) this.forget(sessionId, entry);
    if (expected === undefined) return null;
    if (entry !== undefined && (entry.size > expected || !this.endsAsStored(sessionId, entry))) entry = undefined;
    entry ??= new SessionMessages();
    if (entry.size < expected) {
      for (const [seq, id, turn, position] of this.after.iterate(this.tenantId, sessionId, entry.lastPosition)) entry.append({ seq, id, turn, position });
    }
    // Most recently used last, so the first key is the one to evict.
    this.entries.set(sessionId, entry);
    this.messages += entry.size;
    for (const [oldest, evicted] of this.entries) {
      if (oldest === sessionId || (this.entries.size <= this.limits.maxSessions && this.messages <= this.limits.maxMessages)) break;
      this.forget(oldest, evicted);
    }
    return entry;
  }

  /** Whether the stored message at the entry's last position is still the one it holds (same id, same row). */
  private endsAsStored(sessionId: string, entry: SessionMessages): boolean {
    if (entry.size === 0) return true;
    const row = this.rowAt.get(this.tenantId, sessionId, entry.lastPosition);
    return row !== undefined && row.id === entry.ids.at(-1) && row.seq === entry.lastSeq;
  }

  private forget(sessionId: string, entry: SessionMessages): void {
    this.entries.delete(sessionId);
    this.messages -= entry.size;
  }
}
