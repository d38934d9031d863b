import { StrataError } from '../../core/errors.js';
import type { SessionRepository } from '../store.js';
import { toSession, type SessionRow } from '../rows.js';
import { uncountSessions } from './search-statistics.js';
import { deleteSessionVectors } from './vectors.js';
import { sqlLimit, type Sql } from './sql.js';

const COLUMNS = 'id, title, instructions, created_at, updated_at, message_count, turn_count, token_count::float8 AS token_count';

/** The PostgreSQL session repository. Deleting a session cascades to everything of it; its vectors go and its terms stop counting. */
export function createSessionRepository(sql: Sql, tenantId: string): SessionRepository {
  return {
    create: ({ session, importUntil }) =>
      sql.write(async (write) => {
        await write.query('INSERT INTO tenants (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [tenantId, session.createdAt]);
        const taken = await write.query('SELECT 1 FROM sessions WHERE tenant_id = $1 AND id = $2', [tenantId, session.id]);
        if (taken.rowCount !== 0) {
          throw new StrataError('SESSION_EXISTS', `A session "${session.id}" exists already in this tenant (or is being imported); pick another id.`, { details: { sessionId: session.id } });
        }
        await write.query(
          `INSERT INTO sessions (tenant_id, id, title, instructions, created_at, updated_at, message_count, turn_count, token_count, import_until)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [tenantId, session.id, session.title, session.instructions, session.createdAt, session.updatedAt, session.messageCount, session.turnCount, session.tokenCount, importUntil ?? null],
        );
      }),
    get: async ({ sessionId }) => {
      const found = await sql.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE tenant_id = $1 AND id = $2 AND import_until IS NULL`, [tenantId, sessionId]);
      const row = found.rows[0];
      return row === undefined ? null : toSession(row);
    },
    list: async ({ limit, offset }) =>
      (
        await sql.query<SessionRow>(`SELECT ${COLUMNS} FROM sessions WHERE tenant_id = $1 AND import_until IS NULL ORDER BY updated_at DESC, id LIMIT $2 OFFSET $3`, [
          tenantId,
          sqlLimit(limit),
          Math.max(0, Math.floor(offset ?? 0)),
        ])
      ).rows.map(toSession),
    update: ({ sessionId, title, instructions, updatedAt }) =>
      sql.write(async (write) => {
        const changed = await write.query(
          'UPDATE sessions SET title = coalesce($1, title), instructions = coalesce($2, instructions), updated_at = $3 WHERE tenant_id = $4 AND id = $5',
          [title ?? null, instructions ?? null, updatedAt, tenantId, sessionId],
        );
        return changed.rowCount !== 0;
      }),
    renewImport: ({ sessionId, until }) =>
      sql.write(async (write) => (await write.query('UPDATE sessions SET import_until = $1 WHERE tenant_id = $2 AND id = $3 AND import_until IS NOT NULL', [until, tenantId, sessionId])).rowCount !== 0),
    finishImport: ({ sessionId, updatedAt }) =>
      sql.write(async (write) => (await write.query('UPDATE sessions SET import_until = NULL, updated_at = $1 WHERE tenant_id = $2 AND id = $3', [updatedAt, tenantId, sessionId])).rowCount !== 0),
    delete: ({ sessionId }) =>
      sql.write(async (write) => {
        await uncountSessions(write, tenantId, [sessionId]);
        await deleteSessionVectors(write, tenantId, [sessionId]);
        return (await write.query('DELETE FROM sessions WHERE tenant_id = $1 AND id = $2', [tenantId, sessionId])).rowCount !== 0;
      }),
    removeAbandonedImports: ({ now }) =>
      sql.write(async (write) => {
        const abandoned = await write.query<{ id: string }>('SELECT id FROM sessions WHERE tenant_id = $1 AND import_until IS NOT NULL AND import_until < $2 ORDER BY id', [tenantId, now]);
        const ids = abandoned.rows.map((row) => row.id);
        await uncountSessions(write, tenantId, ids);
        await deleteSessionVectors(write, tenantId, ids);
        await write.query('DELETE FROM sessions WHERE tenant_id = $1 AND id = ANY ($2::text[])', [tenantId, ids]);
        return ids;
      }),
  };
}
