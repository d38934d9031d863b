import { StrataError } from '../../core/errors.js';
import { toApiKey, type ApiKeyRow } from '../rows.js';
import type { ApiKeyRepository } from '../store.js';
import type { Sql } from './sql.js';

const COLUMNS = 'id, tenant_id, name, hash, created_at, revoked_at';

/** The API keys of every tenant; `sql` serialises its writes under one lock of their own. */
export function createApiKeyRepository(sql: Sql): ApiKeyRepository {
  return {
    create: ({ key }) =>
      sql.write(async (write) => {
        if ((await write.query('SELECT 1 FROM api_keys WHERE id = $1 OR hash = $2', [key.id, key.hash])).rowCount !== 0) {
          throw new StrataError('STORE_FAILURE', `An API key with id "${key.id}" or the same hash exists already; create a new key.`);
        }
        await write.query(`INSERT INTO api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [key.id, key.tenantId, key.name, key.hash, key.createdAt, key.revokedAt]);
      }),
    findLive: async ({ hash }) => {
      const row = (await sql.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE hash = $1 AND revoked_at IS NULL`, [hash])).rows[0];
      return row === undefined ? null : toApiKey(row);
    },
    list: async (options = {}) =>
      (options.tenantId === undefined
        ? await sql.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`)
        : await sql.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id`, [options.tenantId])
      ).rows.map(toApiKey),
    revoke: ({ id, at }) =>
      sql.write(async (write) => {
        await write.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id]);
        const row = (await write.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id])).rows[0];
        return row === undefined ? null : toApiKey(row);
      }),
  };
}
