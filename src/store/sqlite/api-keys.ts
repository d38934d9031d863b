import type Database from 'better-sqlite3';
import { StrataError } from '../../core/errors.js';
import { toApiKey, type ApiKeyRow } from '../rows.js';
import type { ApiKeyRepository } from '../store.js';
import type { Run } from './run.js';

export function createApiKeyRepository(db: Database.Database, run: Run): ApiKeyRepository {
  const insert = db.prepare('INSERT INTO api_keys (id, tenant_id, name, hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)');
  const byHash = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL');
  const all = db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
  const ofTenant = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id');
  const byId = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const taken = db.prepare('SELECT 1 FROM api_keys WHERE id = ? OR hash = ?');

  return {
    create: ({ key }) =>
      run(() => {
        if (taken.get(key.id, key.hash) !== undefined) {
          throw new StrataError('STORE_FAILURE', `An API key with id "${key.id}" or the same hash exists already; create a new key.`);
        }
        insert.run(key.id, key.tenantId, key.name, key.hash, key.createdAt, key.revokedAt);
      }),
    findLive: ({ hash }) => run(() => {
      const row = byHash.get(hash);
      return row === undefined ? null : toApiKey(row);
    }),
    list: (options = {}) => run(() => (options.tenantId === undefined ? all.all() : ofTenant.all(options.tenantId)).map(toApiKey)),
    revoke: ({ id, at }) =>
      run(() => {
        revoke.run(at, id);
        const row = byId.get(id);
        return row === undefined ? null : toApiKey(row);
      }),
  };
}
