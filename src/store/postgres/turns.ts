import type { TurnRepository } from '../store.js';
import { summaryValues, toSummary, type TurnRow } from '../rows.js';
import { sqlLimit, type Sql } from './sql.js';
import { journaled, turnChanges } from './turn-changes.js';

const COLUMNS = `session_id, turn, message_ids, user_summary, assistant_summary, depth, status, window_extension, tokens, created_at,
  stale_memory, detail_requests::text AS detail_requests`;

export function createTurnRepository(sql: Sql, tenantId: string): TurnRepository {
  const rows = async (text: string, values: readonly unknown[]): Promise<TurnRow[]> => (await sql.query<TurnRow>(text, values)).rows;
  return {
    upsert: ({ summary }) =>
      sql.write(async (write) => {
        await write.query(
          journaled(
            `INSERT INTO turns (tenant_id, session_id, turn, message_ids, user_summary, assistant_summary, depth, status, window_extension, tokens, created_at, stale_memory, detail_requests)
           VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)
           ON CONFLICT (tenant_id, session_id, turn) DO UPDATE SET
             message_ids = excluded.message_ids, user_summary = excluded.user_summary, assistant_summary = excluded.assistant_summary,
             depth = excluded.depth, status = excluded.status, window_extension = excluded.window_extension, tokens = excluded.tokens,
             stale_memory = turns.stale_memory OR excluded.stale_memory,
             detail_requests = coalesce(excluded.detail_requests, turns.detail_requests)
           RETURNING turn`,
            '$1',
            '$2',
          ),
          [tenantId, ...summaryValues(summary)],
        );
      }),
    changes: ({ sessionId, after }) => turnChanges(sql, tenantId, sessionId, after),
    get: async ({ sessionId, turn }) => {
      const row = (await rows(`SELECT ${COLUMNS} FROM turns WHERE tenant_id = $1 AND session_id = $2 AND turn = $3`, [tenantId, sessionId, turn]))[0];
      return row === undefined ? null : toSummary(row);
    },
    listBefore: async ({ sessionId, beforeTurn, limit }) =>
      (await rows(`SELECT ${COLUMNS} FROM turns WHERE tenant_id = $1 AND session_id = $2 AND turn < $3 ORDER BY turn DESC LIMIT $4`, [tenantId, sessionId, beforeTurn, sqlLimit(Math.max(0, limit))])).map(toSummary),
    list: async ({ sessionId }) => (await rows(`SELECT ${COLUMNS} FROM turns WHERE tenant_id = $1 AND session_id = $2 ORDER BY turn`, [tenantId, sessionId])).map(toSummary),
    // For the rare statuses, "status <> 'summarised'" lets PostgreSQL use the partial index turns_status.
    listByStatus: async ({ sessionId, status, limit }) => {
      const rare = status === 'summarised' ? '' : " AND status <> 'summarised'";
      const found =
        sessionId === undefined
          ? await rows(`SELECT ${COLUMNS} FROM turns WHERE tenant_id = $1 AND status = $2${rare} ORDER BY session_id, turn LIMIT $3`, [tenantId, status, sqlLimit(Math.max(0, limit))])
          : await rows(`SELECT ${COLUMNS} FROM turns WHERE tenant_id = $1 AND session_id = $4 AND status = $2${rare} ORDER BY turn LIMIT $3`, [tenantId, status, sqlLimit(Math.max(0, limit)), sessionId]);
      return found.map(toSummary);
    },
  };
}
