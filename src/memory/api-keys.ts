/**
 * API keys: each serves one tenant. A key is shown once, when it is created; the store keeps only its
 * SHA-256 hash (a key is 256 random bits, so a fast hash is enough: there is nothing to guess), and a
 * request's key is checked by looking its hash up.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { checkTenantId } from '../core/tenant-id.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import { isOptions } from './session-input.js';

/** What every key starts with, so a leaked one is easy to recognise. */
const KEY_PREFIX = 'strata_';
const MAX_NAME_LENGTH = 200;

/** An API key as listed: everything but the key and its hash. */
export interface ApiKeyInfo {
  id: string;
  tenant: string;
  name: string;
  createdAt: string;
  /** When it was revoked; null while it serves. */
  revokedAt: string | null;
}

/** A key just created: the only time `key` is ever shown. */
export interface CreatedApiKey extends ApiKeyInfo {
  key: string;
}

/** The API keys of a memory's store (see the module comment). */
export interface ApiKeys {
  /**
   * A new key for `tenant` (a valid tenant id; its data is created on first write), named `name`
   * (default empty). Keep `key`: it cannot be shown again.
   *
   * @example
   * const { key } = await memory.keys.create({ tenant: 'acme', name: 'web app' });
   */
  create(options: { tenant: string; name?: string }): Promise<CreatedApiKey>;
  /** Keys, revoked ones included, oldest first; of one tenant when given. */
  list(options?: { tenant?: string }): Promise<ApiKeyInfo[]>;
  /** Revoke a key by id; INVALID_INPUT naming the id when there is no such key. Revoking twice keeps the first time. */
  revoke(id: string): Promise<ApiKeyInfo>;
  /** The tenant a key serves, or null for a key that is unknown, revoked or not a string. */
  verify(key: unknown): Promise<string | null>;
}

function hashOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function info(record: ApiKeyRecord): ApiKeyInfo {
  return { id: record.id, tenant: record.tenantId, name: record.name, createdAt: record.createdAt, revokedAt: record.revokedAt };
}

export function apiKeys(store: Store, clock: { now: () => string; newId: () => string }): ApiKeys {
  return {
    create: async (options) => {
      if (!isOptions(options)) throw new StrataError('INVALID_INPUT', `keys.create() takes { tenant, name? } (got ${describeValue(options)}).`);
      const tenant = checkTenantId(options.tenant);
      const name = options.name ?? '';
      if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH || /\p{Cc}/u.test(name)) {
        throw new StrataError('INVALID_INPUT', `A key name is text of at most ${MAX_NAME_LENGTH} characters without control characters (got ${describeValue(name)}).`);
      }
      const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const record: ApiKeyRecord = { id: clock.newId(), tenantId: tenant, name, hash: hashOf(key), createdAt: clock.now(), revokedAt: null };
      await store.keys.create({ key: record });
      return { ...info(record), key };
    },
    list: async (options = {}) => {
      if (!isOptions(options)) throw new StrataError('INVALID_INPUT', `keys.list() takes { tenant? } (got ${describeValue(options)}).`);
      const tenant = options.tenant === undefined ? undefined : checkTenantId(options.tenant);
      return (await store.keys.list(tenant === undefined ? {} : { tenantId: tenant })).map(info);
    },
    revoke: async (id) => {
      if (typeof id !== 'string' || id === '') throw new StrataError('INVALID_INPUT', `A key id is a non-empty string (got ${describeValue(id)}); list keys with \`strata keys list\`.`);
      const record = await store.keys.revoke({ id, at: clock.now() });
      if (record === null) throw new StrataError('INVALID_INPUT', `No API key with id "${id}"; list keys with \`strata keys list\`.`);
      return info(record);
    },
    verify: async (key) => {
      if (typeof key !== 'string' || !key.startsWith(KEY_PREFIX) || key.length > 200) return null;
      return (await store.keys.findLive({ hash: hashOf(key) }))?.tenantId ?? null;
    },
  };
}
