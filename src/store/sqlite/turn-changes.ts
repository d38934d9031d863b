/**
 * The SQLite side of `TurnRepository.changes`: every write of a turn's summary or of its messages' tiers
 * gives the turns it wrote the tenant's next revision (in the writer's transaction), and a reader asks
 * which turns of a session have a revision above the one it saw. Writes to a database are serialised,
 * and the tenant's counter never goes back, so a session's revisions only grow, even across a session
 * deleted and made again under its id.
 */
import type Database from 'better-sqlite3';
import type { TurnChanges } from '../store.js';

export interface TurnJournal {
  /** Give each of `turns` the session's next revision. */
  /** Give `turns` the tenant's next revision. */
  note(sessionId: string, turns: Iterable<number>): void;
  changes(sessionId: string, after?: number): TurnChanges;
}

export function createTurnJournal(db: Database.Database, tenantId: string): TurnJournal {
  const next = db.prepare<[string], number>('UPDATE tenants SET turn_revision = turn_revision + 1 WHERE id = ? RETURNING turn_revision').pluck();
  const note = db.prepare<[string, string, number, number]>(
    `INSERT INTO turn_changes (tenant_id, session_id, turn, revision) VALUES (?, ?, ?, ?)
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
      const distinct = new Set(turns);
      if (distinct.size === 0) return;
      const revision = next.get(tenantId) ?? 0;
      for (const turn of distinct) note.run(tenantId, sessionId, turn, revision);
    },
    changes: (sessionId, after) => ({
      revision: latest.get(tenantId, sessionId) ?? 0,
      turns: after === undefined ? [] : since.all(tenantId, sessionId, after),
    }),
  };
}
