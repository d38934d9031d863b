import { StrataError } from '../../core/errors.js';
import type { MemoryRetry, RetryRepository } from '../store.js';
import { toRetry, type RetryRow } from '../rows.js';
import { sqlLimit, type Sql } from './sql.js';

const COLUMNS = 'session_id, turn, attempts, next_attempt_at, reason, last_error, created_at, updated_at';

/** The queue entry refers to a turn the tenant has not stored: say so, and what to do first. */
function missingTurn(retry: MemoryRetry, tenantId: string): StrataError {
  return new StrataError(
    'STORE_FAILURE',
    `Cannot queue turn ${retry.turn} of session "${retry.sessionId}" for a memory retry: tenant "${tenantId}" has no stored summary for that turn; store the turn (turns.upsert) before queueing it.`,
    { details: { sessionId: retry.sessionId, turn: retry.turn } },
  );
}

export function createRetryRepository(sql: Sql, tenantId: string): RetryRepository {
  const rows = async (text: string, values: readonly unknown[]): Promise<MemoryRetry[]> => (await sql.query<RetryRow>(text, values)).rows.map(toRetry);
  return {
    put: ({ retry }) =>
      sql.write(async (write) => {
        // Checked first under the tenant's lock: a failed statement would end the caller's whole transaction.
        const turn = await write.query('SELECT 1 FROM turns WHERE tenant_id = $1 AND session_id = $2 AND turn = $3', [tenantId, retry.sessionId, retry.turn]);
        if (turn.rowCount === 0) throw missingTurn(retry, tenantId);
        await write.query(
          `INSERT INTO memory_retries (tenant_id, session_id, turn, attempts, next_attempt_at, reason, last_error, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (tenant_id, session_id, turn) DO UPDATE SET attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at,
             reason = excluded.reason, last_error = excluded.last_error, updated_at = excluded.updated_at`,
          [tenantId, retry.sessionId, retry.turn, retry.attempts, retry.nextAttemptAt, retry.reason, retry.lastError, retry.createdAt, retry.updatedAt],
        );
      }),
    listDue: ({ now, limit, sessionId }) =>
      sessionId === undefined
        ? rows(`SELECT ${COLUMNS} FROM memory_retries WHERE tenant_id = $1 AND next_attempt_at <= $2 ORDER BY session_id, turn LIMIT $3`, [tenantId, now, sqlLimit(Math.max(0, limit))])
        : rows(`SELECT ${COLUMNS} FROM memory_retries WHERE tenant_id = $1 AND session_id = $4 AND next_attempt_at <= $2 ORDER BY turn LIMIT $3`, [tenantId, now, sqlLimit(Math.max(0, limit)), sessionId]),
    list: ({ sessionId }) => rows(`SELECT ${COLUMNS} FROM memory_retries WHERE tenant_id = $1 AND session_id = $2 ORDER BY turn`, [tenantId, sessionId]),
    nextDue: async () => (await sql.query<{ due: string | null }>('SELECT min(next_attempt_at) AS due FROM memory_retries WHERE tenant_id = $1', [tenantId])).rows[0]?.due ?? null,
    remove: ({ sessionId, turn }) =>
      sql.write(async (write) => {
        await write.query('DELETE FROM memory_retries WHERE tenant_id = $1 AND session_id = $2 AND turn = $3', [tenantId, sessionId, turn]);
      }),
    count: async (options) => {
      const sessionId = options?.sessionId;
      const found =
        sessionId === undefined
          ? await sql.query<{ count: number }>('SELECT count(*)::integer AS count FROM memory_retries WHERE tenant_id = $1', [tenantId])
          : await sql.query<{ count: number }>('SELECT count(*)::integer AS count FROM memory_retries WHERE tenant_id = $1 AND session_id = $2', [tenantId, sessionId]);
      return found.rows[0]?.count ?? 0;
    },
    // Under the tenant's write lock, like every write: two servers never both claim a session.
    claimDue: ({ now, until, claimant, limit }) =>
      sql.write(async (write) => {
        const claimed = await write.query<{ session_id: string }>(
          `WITH due AS (
             SELECT DISTINCT r.session_id FROM memory_retries r WHERE r.tenant_id = $1 AND r.next_attempt_at <= $2
                AND NOT EXISTS (SELECT 1 FROM retry_claims c WHERE c.tenant_id = $1 AND c.session_id = r.session_id AND c.until > $2 AND c.claimant <> $4)
              ORDER BY r.session_id LIMIT $5)
           INSERT INTO retry_claims (tenant_id, session_id, claimant, until) SELECT $1, session_id, $4, $3 FROM due
           ON CONFLICT (tenant_id, session_id) DO UPDATE SET claimant = excluded.claimant, until = excluded.until
           RETURNING session_id`,
          [tenantId, now, until, claimant, sqlLimit(Math.max(0, limit))],
        );
        return claimed.rows.map((row) => row.session_id).sort();
      }),
    release: ({ sessionId, claimant }) =>
      sql.write(async (write) => {
        await write.query('DELETE FROM retry_claims WHERE tenant_id = $1 AND session_id = $2 AND claimant = $3', [tenantId, sessionId, claimant]);
      }),
  };
}
