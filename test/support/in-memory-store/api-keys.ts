/** The in-memory fake's API keys: one list for the whole store, like the SQLite adapter's one table. */
import type { ApiKeyRecord, ApiKeyRepository } from '../../../src/store/store.js';
import { compareText, storeFailure } from './state.js';

export function createApiKeyRepository(ensureOpen: () => void): ApiKeyRepository {
  const keys: ApiKeyRecord[] = [];
  const copy = (key: ApiKeyRecord): ApiKeyRecord => ({ ...key });
  return {
    create: async ({ key }) => {
      ensureOpen();
      if (keys.some((existing) => existing.id === key.id || existing.hash === key.hash)) {
        throw storeFailure(`An API key with id "${key.id}" or the same hash exists already; create a new key.`);
      }
      keys.push(copy(key));
    },
    findLive: async ({ hash }) => {
      ensureOpen();
      const found = keys.find((key) => key.hash === hash && key.revokedAt === null);
      return found === undefined ? null : copy(found);
    },
    list: async (options = {}) => {
      ensureOpen();
      return keys
        .filter((key) => options.tenantId === undefined || key.tenantId === options.tenantId)
        .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id))
        .map(copy);
    },
    revoke: async ({ id, at }) => {
      ensureOpen();
      const found = keys.find((key) => key.id === id);
      if (found === undefined) return null;
      found.revokedAt ??= at;
      return copy(found);
    },
  };
}
