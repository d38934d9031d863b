import { StrataError } from '../../core/errors.js';
import type Database from 'better-sqlite3';
import type { SessionRepository } from '../store.js';
import { toSession, type SessionRow } from '../rows.js';
import type { Run } from './run.js';
import type { TenantSearchIndex } from './search-index.js';
import type { VectorExtension } from './vector-extension.js';
import { deleteSessionVectors } from './vectors.js';

export function createSessionRepository(db: Database.Database, tenantId: string, run: Run, index: TenantSearchIndex, extension: VectorExtension): SessionRepository {
  const ensureTenant = db.prepare('INSERT INTO tenants (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING');
  const insert = db.prepare(`INSERT INTO sessions
    (tenant_id, id, title, instructions, created_at, updated_at, message_count, turn_count, token_count, import_until)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const get = db.prepare<[string, string], SessionRow>('SELECT * FROM sessions WHERE tenant_id = ? AND id = ? AND import_until IS NULL');
  const taken = db.prepare<[string, string], { found: number }>('SELECT 1 AS found FROM sessions WHERE tenant_id = ? AND id = ?');
  const list = db.prepare<[string, number, number], SessionRow>(
    'SELECT * FROM sessions WHERE tenant_id = ? AND import_until IS NULL ORDER BY updated_at DESC, id LIMIT ? OFFSET ?',
  );
  const renew = db.prepare('UPDATE sessions SET import_until = ? WHERE tenant_id = ? AND id = ? AND import_until IS NOT NULL');
  const finish = db.prepare('UPDATE sessions SET import_until = NULL, updated_at = ? WHERE tenant_id = ? AND id = ?');
  const abandoned = db.prepare<[string, string], string>('SELECT id FROM sessions WHERE tenant_id = ? AND import_until IS NOT NULL AND import_until < ?').pluck();
  const update = db.prepare(`UPDATE sessions SET title = coalesce(?, title), instructions = coalesce(?, instructions), updated_at = ?
    WHERE tenant_id = ? AND id = ?`);
  const remove = db.prepare('DELETE FROM sessions WHERE tenant_id = ? AND id = ?');
  const unindex = (table: string): Database.Statement<[string, string]> =>
    db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT seq FROM messages WHERE tenant_id = ? AND session_id = ?)`);

  /** Delete a session, its search entries and vectors first (those indexes hold no session rows to cascade from). */
  const deleteSession = (sessionId: string): boolean =>
    db.transaction(() => {
      const table = index.table();
      if (table !== null) unindex(table).run(tenantId, sessionId);
      deleteSessionVectors(db, tenantId, sessionId, extension);
      return remove.run(tenantId, sessionId).changes > 0;
    })();

  return {
    create: ({ session, importUntil }) =>
      run(() => {
        ensureTenant.run(tenantId, session.createdAt);
        index.ensure();
        if (taken.get(tenantId, session.id) !== undefined) {
          throw new StrataError('SESSION_EXISTS', `A session "${session.id}" exists already in this tenant (or is being imported); pick another id.`, { details: { sessionId: session.id } });
        }
        insert.run(
          tenantId,
          session.id,
          session.title,
          session.instructions,
          session.createdAt,
          session.updatedAt,
          session.messageCount,
          session.turnCount,
          session.tokenCount,
          importUntil ?? null,
        );
      }),
    get: ({ sessionId }) =>
      run(() => {
        const row = get.get(tenantId, sessionId);
        return row === undefined ? null : toSession(row);
      }),
    list: ({ limit, offset }) => run(() => list.all(tenantId, limit, offset ?? 0).map(toSession)),
    update: ({ sessionId, title, instructions, updatedAt }) =>
      run(() => update.run(title ?? null, instructions ?? null, updatedAt, tenantId, sessionId).changes > 0),
    renewImport: ({ sessionId, until }) => run(() => renew.run(until, tenantId, sessionId).changes > 0),
    finishImport: ({ sessionId, updatedAt }) => run(() => finish.run(updatedAt, tenantId, sessionId).changes > 0),
    delete: ({ sessionId }) => run(() => deleteSession(sessionId)),
    removeAbandonedImports: ({ now }) =>
      run(() =>
        db.transaction(() => {
          const ids = abandoned.all(tenantId, now);
          for (const id of ids) deleteSession(id);
          return ids;
        })(),
      ),
  };
}
