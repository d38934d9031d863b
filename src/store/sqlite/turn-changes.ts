/**
 * The SQLite side of `TurnRepository.changes`: every write of a turn's summary or of its messages' tiers
 * gives the turn the session's next revision (in the writer's transaction), and a reader asks which turns
 * have a revision above the one it saw. Writes to a database are serialised, so revisions only grow.
 */
import type Database from 'better-sqlite3';
import type { TurnChanges } from '../store.js';

export interface TurnJournal {
  /** Give each of `turns` the session's next revision. */
  note(sessionId: string, turns: Iterable<number>): void;
  changes(sessionId: string, after?: number): TurnChanges;
}

export function createTurnJournal(db: Database.Database, tenantId: string): TurnJournal {
  const note = db.prepare<[string, string, number, string, string]>(
    `INSERT INTO turn_changes (tenant_id, session_id, turn, revision)
       VALUES (?, ?, ?, (SELECT coalesce(max(revision), 0) + 1 FROM turn_changes WHERE tenant_id = ? AND session_id = ?))
       ON CONFLICT (tenant_id, session_id, turn) DO UPDATE SET revision = excluded.revision`,
  );
  const latest = db
    .prepare<[string, string], number>('SELECT coalesce(max(revision), 0) FROM turn_changes WHERE tenant_id = ? AND session_id = ?')
    .pluck();
  const since = db
    .prepare<[string, string, number], number>('SELECT turn FROM turn_changes WHERE tenant_id = ? AND session_id = ? AND revision > ? ORDER BY turn')
    .pluck();
  return {
    note: (sessionId, turns) => {
      for (const turn of new Set(turns)) note.run(tenantId, sessionId, turn, tenantId, sessionId);
    },
    changes: (sessionId, after) => ({
      revision: latest.get(tenantId, sessionId) ?? 0,
      turns: after === undefined ? [] : since.all(tenantId, sessionId, after),
    }),
  };
}
