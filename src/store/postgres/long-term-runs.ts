/** The PostgreSQL records of long-term memory maintenance: which memories are due, and the runs kept. */
import { toLongTermMemory, toMaintenanceRun, type LongTermRow } from '../long-term-rows.js';
import type { MaintenanceRun } from '../../core/maintenance-run.js';
import type { LongTermRepository } from '../long-term-store.js';
import { sqlLimit, type Sql } from './sql.js';

type Runs = Pick<LongTermRepository, 'due' | 'saveRun' | 'getRun' | 'runs'>;

export function createLongTermRuns(sql: Sql, tenantId: string, columns: string): Runs {
  return {
    due: async ({ limit }) =>
      (
        await sql.query<LongTermRow>(`SELECT ${columns} FROM long_term_memories WHERE tenant_id = $1 AND NOT deprecated ORDER BY tended_at NULLS FIRST, id LIMIT $2`, [
          tenantId,
          sqlLimit(limit),
        ])
      ).rows.map(toLongTermMemory),
    saveRun: async ({ run, keep }) => {
      await sql.write(async (write) => {
        await write.query(
          `INSERT INTO long_term_runs (tenant_id, id, started_at, run) VALUES ($1, $2, $3, $4::jsonb)
           ON CONFLICT (tenant_id, id) DO UPDATE SET started_at = excluded.started_at, run = excluded.run`,
          [tenantId, run.id, run.startedAt, JSON.stringify(run)],
        );
        await write.query(
          `DELETE FROM long_term_runs WHERE tenant_id = $1
             AND id NOT IN (SELECT id FROM long_term_runs WHERE tenant_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2)`,
          [tenantId, Math.max(0, Math.floor(keep))],
        );
      });
    },
    getRun: async ({ id }) => {
      const found = await sql.query<{ run: MaintenanceRun }>('SELECT run FROM long_term_runs WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
      const row = found.rows[0];
      return row === undefined ? null : toMaintenanceRun(row.run);
    },
    runs: async ({ limit, offset }) =>
      (
        await sql.query<{ run: MaintenanceRun }>('SELECT run FROM long_term_runs WHERE tenant_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2 OFFSET $3', [
          tenantId,
          sqlLimit(limit),
          Math.max(0, Math.floor(offset ?? 0)),
        ])
      ).rows.map((row) => toMaintenanceRun(row.run)),
  };
}
