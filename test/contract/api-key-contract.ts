/**
 * The API-key part of the Store contract: every adapter's test file calls `describeApiKeyContract`
 * beside `describeStoreContract`, with the same `openStore`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import type { ApiKeyRecord, Store } from '../../src/store/store.js';
import { at, storePerTest, type OpenStore } from './store-contract.js';

function key(id: string, fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return { id, tenantId: 'acme', name: `key ${id}`, hash: `${id}`.padEnd(64, '0'), createdAt: at(1), revokedAt: null, ...fields };
}

export function describeApiKeyContract(name: string, openStore: OpenStore): void {
  describe(`Store contract, API keys: ${name}`, () => {
    const current = storePerTest(openStore);
    let store: Store;
    beforeEach(() => {
      store = current();
    });

    it('finds a live key by its hash, and nothing for a hash it does not hold', async () => {
      await store.keys.create({ key: key('k1') });
      expect(await store.keys.findLive({ hash: key('k1').hash })).toEqual(key('k1'));
      expect(await store.keys.findLive({ hash: key('k2').hash })).toBeNull();
    });

    it('refuses a second key with the same id or the same hash, changing nothing', async () => {
      await store.keys.create({ key: key('k1') });
      for (const repeated of [key('k1', { hash: 'f'.repeat(64) }), key('k2', { hash: key('k1').hash })]) {
        const failure = await store.keys.create({ key: repeated }).catch((error: unknown) => error);
        expect(isStrataError(failure, 'STORE_FAILURE')).toBe(true);
      }
      expect(await store.keys.list()).toEqual([key('k1')]);
    });

    it('lists keys oldest first, of every tenant or of one', async () => {
      await store.keys.create({ key: key('k3', { createdAt: at(3), tenantId: 'beta' }) });
      await store.keys.create({ key: key('k1', { createdAt: at(1) }) });
      await store.keys.create({ key: key('k2', { createdAt: at(2) }) });
      expect((await store.keys.list()).map((record) => record.id)).toEqual(['k1', 'k2', 'k3']);
      expect((await store.keys.list({ tenantId: 'acme' })).map((record) => record.id)).toEqual(['k1', 'k2']);
      expect(await store.keys.list({ tenantId: 'nobody' })).toEqual([]);
    });

    it('revokes a key for good: it serves nothing, stays listed, and keeps the first revocation time', async () => {
      await store.keys.create({ key: key('k1') });
      await store.keys.create({ key: key('k2') });
      expect(await store.keys.revoke({ id: 'k1', at: at(5) })).toEqual(key('k1', { revokedAt: at(5) }));
      expect(await store.keys.revoke({ id: 'k1', at: at(9) })).toEqual(key('k1', { revokedAt: at(5) }));
      expect(await store.keys.findLive({ hash: key('k1').hash })).toBeNull();
      expect(await store.keys.findLive({ hash: key('k2').hash })).toEqual(key('k2'));
      expect(await store.keys.list()).toEqual([key('k1', { revokedAt: at(5) }), key('k2')]);
      expect(await store.keys.revoke({ id: 'missing', at: at(5) })).toBeNull();
    });
  });
}
