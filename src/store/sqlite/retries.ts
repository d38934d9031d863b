import Database from 'better-sqlite3';
import { StrataError } from '../../core/errors.js';
import type { MemoryRetry, RetryRepository } from '../store.js';
import { toRetry, type RetryRow } from '../rows.js';
import type { Run } from './run.js';

const COLUMNS = 'session_id, turn, attempts, next_attempt_at, reason, last_error, created_at, updated_at';

/** The queue entry refers to a turn the tenant has not stored: say so, and what to do first. */
function missingTurn(retry: MemoryRetry, tenantId: string, cause: unknown): StrataError {
  return new StrataError(
    'STORE_FAILURE',
    `Cannot queue turn ${retry.turn} of session "${retry.sessionId}" for a memory retry: tenant "${tenantId}" has no stored summary for that turn; store the turn (turns.upsert) before queueing it.`,
    { cause, details: { code: 'SQLITE_CONSTRAINT_FOREIGNKEY', sessionId: retry.sessionId, turn: retry.turn } },
  );
}

export function createRetryRepository(db: Database.Database, tenantId: string, run: Run): RetryRepository {
  const put = db.prepare(`INSERT INTO memory_retries
    (tenant_id, session_id, turn, attempts, next_attempt_at, reason, last_error, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (tenant_id, session_id, turn) DO UPDATE SET
      attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at, reason = excluded.reason,
      last_error = excluded.last_error, updated_at = excluded.updated_at`);
  // Filtered through the index memory_retries_due, then put in session and turn order.
  const due = db.prepare<[string, string, number], RetryRow>(
    `SELECT ${COLUMNS} FROM memory_retries WHERE tenant_id = ? AND next_attempt_at <= ? ORDER BY session_id, turn LIMIT ?`,
  );
  const dueInSession = db.prepare<[string, string, string, number], RetryRow>(
    `SELECT ${COLUMNS} FROM memory_retries WHERE tenant_id = ? AND session_id = ? AND next_attempt_at <= ? ORDER BY turn LIMIT ?`,
  );
  const list = db.prepare<[string, string], RetryRow>(
    `SELECT ${COLUMNS} FROM memory_retries WHERE tenant_id = ? AND session_id = ? ORDER BY turn`,
  );
  const nextDue = db
    .prepare<[string], string | null>('SELECT min(next_attempt_at) FROM memory_retries WHERE tenant_id = ?')
    .pluck();
  const remove = db.prepare('DELETE FROM memory_retries WHERE tenant_id = ? AND session_id = ? AND turn = ?');
  const count = db.prepare<[string], number>('SELECT count(*) FROM memory_retries WHERE tenant_id = ?').pluck();
  const countInSession = db
    .prepare<[string, string], number>('SELECT count(*) FROM memory_retries WHERE tenant_id = ? AND session_id = ?')
    .pluck();

  // Sessions with a due entry that no other claimant holds past now.
  const claimable = db
    .prepare<[string, string, string, string, string, number], string>(
      `SELECT DISTINCT r.session_id FROM memory_retries r WHERE r.tenant_id = ? AND r.next_attempt_at <= ?
         AND NOT EXISTS (SELECT 1 FROM retry_claims c WHERE c.tenant_id = ? AND c.session_id = r.session_id AND c.until > ? AND c.claimant <> ?)
       ORDER BY r.session_id LIMIT ?`,
    )
    .pluck();
  const claim = db.prepare(`INSERT INTO retry_claims (tenant_id, session_id, claimant, until) VALUES (?, ?, ?, ?)
    ON CONFLICT (tenant_id, session_id) DO UPDATE SET claimant = excluded.claimant, until = excluded.until`);
  const release = db.prepare('DELETE FROM retry_claims WHERE tenant_id = ? AND session_id = ? AND claimant = ?');
  // Read and written under one write lock: two processes never both claim a session.
  const claimDue = db.transaction((now: string, until: string, claimant: string, limit: number): string[] => {
    const ids = claimable.all(tenantId, now, tenantId, now, claimant, Math.max(0, limit));
    for (const id of ids) claim.run(tenantId, id, claimant, until);
    return ids;
  });

  return {
    put: ({ retry }) =>
      run(() => {
        try {
          put.run(
            tenantId,
            retry.sessionId,
            retry.turn,
            retry.attempts,
            retry.nextAttemptAt,
            retry.reason,
            retry.lastError,
            retry.createdAt,
            retry.updatedAt,
          );
        } catch (error) {
          if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw missingTurn(retry, tenantId, error);
          throw error;
        }
      }),
    listDue: ({ now, limit, sessionId }) =>
      run(() =>
        (sessionId === undefined ? due.all(tenantId, now, limit) : dueInSession.all(tenantId, sessionId, now, limit)).map(toRetry),
      ),
    list: ({ sessionId }) => run(() => list.all(tenantId, sessionId).map(toRetry)),
    nextDue: () => run(() => nextDue.get(tenantId) ?? null),
    remove: ({ sessionId, turn }) =>
      run(() => {
        remove.run(tenantId, sessionId, turn);
      }),
    count: (options) =>
      run(() => {
        const sessionId = options?.sessionId;
        return (sessionId === undefined ? count.get(tenantId) : countInSession.get(tenantId, sessionId)) ?? 0;
      }),
    claimDue: ({ now, until, claimant, limit }) => run(() => (db.inTransaction ? claimDue(now, until, claimant, limit) : claimDue.immediate(now, until, claimant, limit))),
    release: ({ sessionId, claimant }) =>
      run(() => {
        release.run(tenantId, sessionId, claimant);
      }),
  };
}
