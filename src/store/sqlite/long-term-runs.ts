/** The SQLite records of long-term memory maintenance: which memories are due, and the runs kept. */
import type Database from 'better-sqlite3';
import type { MaintenanceRun } from '../../core/maintenance-run.js';
import { toLongTermMemory, toMaintenanceRun, type LongTermRow } from '../long-term-rows.js';
import type { LongTermRepository } from '../long-term-store.js';
import { immediately, type Run } from './run.js';

type Runs = Pick<LongTermRepository, 'due' | 'saveRun' | 'getRun' | 'runs'>;

export function createLongTermRuns(db: Database.Database, tenantId: string, run: Run, columns: string): Runs {
  const statements = {
    due: db.prepare<[string, number], LongTermRow>(`SELECT ${columns} FROM long_term_memories WHERE tenant_id = ? AND deprecated = 0 ORDER BY tended_at, id LIMIT ?`),
    save: db.prepare('INSERT INTO long_term_runs (tenant_id, id, started_at, run) VALUES (?, ?, ?, ?) ON CONFLICT (tenant_id, id) DO UPDATE SET started_at = excluded.started_at, run = excluded.run'),
    prune: db.prepare(
      'DELETE FROM long_term_runs WHERE tenant_id = ? AND id NOT IN (SELECT id FROM long_term_runs WHERE tenant_id = ? ORDER BY started_at DESC, id DESC LIMIT ?)',
    ),
    get: db.prepare<[string, string], string>('SELECT run FROM long_term_runs WHERE tenant_id = ? AND id = ?').pluck(),
    list: db.prepare<[string, number, number], string>('SELECT run FROM long_term_runs WHERE tenant_id = ? ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?').pluck(),
  };
  const save = immediately(db, (kept: MaintenanceRun, keep: number): void => {
    statements.save.run(tenantId, kept.id, kept.startedAt, JSON.stringify(kept));
    statements.prune.run(tenantId, tenantId, Math.max(0, keep));
  });
  return {
    due: ({ limit }) => run(() => statements.due.all(tenantId, Math.max(0, limit)).map(toLongTermMemory)),
    saveRun: ({ run: kept, keep }) => run(() => save(kept, keep)),
    getRun: ({ id }) =>
      run(() => {
        const found = statements.get.get(tenantId, id);
        return found === undefined ? null : toMaintenanceRun(found);
      }),
    runs: ({ limit, offset }) => run(() => statements.list.all(tenantId, Math.max(0, limit), Math.max(0, offset ?? 0)).map(toMaintenanceRun)),
  };
}
