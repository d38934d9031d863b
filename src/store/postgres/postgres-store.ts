import type { Pool } from 'pg';
import { StrataError } from '../../core/errors.js';
import { KeyedMutex } from '../../core/keyed-mutex.js';
import type { Store, TenantRepositories, TenantStore } from '../store.js';
import { createApiKeyRepository } from './api-keys.js';
import { createArtifactRepository } from './artifacts.js';
import { createFactRepository } from './facts.js';
import { createMessageRepository } from './messages.js';
import { checkSchemaName, migratePostgres, quoted } from './migrate.js';
import { openPool } from './pool.js';
import { createRetryRepository } from './retries.js';
import { createArchiveSearch } from './search.js';
import { createSessionRepository } from './sessions.js';
import { inTransaction, lockTenantWrites, poolSql, tenantWriteKey, type Sql, type SqlTarget } from './sql.js';
import { createTurnRepository } from './turns.js';
import { loadPostgresVectorExtension, type PostgresVectorExtension } from './vector-extension.js';
import { createVectorIndexBuilds } from './vector-index-builds.js';
import { createLongTermRepository } from './long-term.js';
import { NOT_CONNECTED, createMessageVectors } from './vectors.js';

export interface PostgresStoreSettings {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /** The connection pool: most connections open at once (default 10) and how long getting one may take in ms (default 30,000). */
  pool?: { max?: number; connectMs?: number };
  /** The schema Strata's tables live in (default `strata`); created when missing, refused when another application's. */
  schema?: string;
  /** Time source for migration bookkeeping (default: now). */
  now?: () => string;
  /**
   * From what size a session's vectors are searched through the HNSW index (approximate, and faster on a
   * large session) rather than compared one by one: `vectors` of them and `numbers` in all (vectors × their
   * length); defaults 5,000 and 2,000,000 (20,000 vectors of 100 numbers; 5,000 of 1,536). The index is
   * built when such a session is first searched. Needs pgvector 0.8.
   */
  hnswFrom?: { vectors?: number; numbers?: number };
  /** Told of a failure in the background (an HNSW index build; it is tried again later); default: a process warning. */
  onBackgroundError?: (error: unknown) => void;
}

/** How long a write waits for its tenant's lock, in ms. */
const LOCK_WAIT_MS = 30_000;

/**
 * A Store on PostgreSQL, for several Strata servers sharing one database. It connects, applies its
 * migrations (under an advisory lock: servers starting together are safe) and finds pgvector on the
 * first call, which fails with STORE_FAILURE when the database cannot be reached or is another
 * application's; `pg` is an optional dependency (npm install pg).
 *
 * @example
 * const store = createPostgresStore({ connectionString: 'postgres://strata@db.internal/strata' });
 * const memory = createMemory({ store, sessionLock: createPostgresSessionLock({ connectionString: 'postgres://strata@db.internal/strata' }) });
 */
export function createPostgresStore(settings: PostgresStoreSettings): Store {
  const schema = checkSchemaName(settings.schema ?? 'strata');
  const { connectionString } = settings;
  let pool: Pool | null = null;
  let extension: PostgresVectorExtension = { loaded: false, reason: NOT_CONNECTED };
  let closed = false;
  let opening: Promise<void> | null = null;

  const open = async (): Promise<void> => {
    const setup = await openPool({ connectionString, max: 1, ...(settings.pool?.connectMs === undefined ? {} : { connectMs: settings.pool.connectMs }) });
    try {
      await migratePostgres(setup, { schema, connectionString, now: (settings.now ?? (() => new Date().toISOString()))() });
      extension = await loadPostgresVectorExtension(setup);
    } finally {
      await setup.end();
    }
    pool = await openPool({
      connectionString,
      max: settings.pool?.max ?? 10,
      ...(settings.pool?.connectMs === undefined ? {} : { connectMs: settings.pool.connectMs }),
      searchPath: [quoted(schema), ...(extension.loaded ? [extension.schema] : [])],
      // A write waits at most 30 s for another server's hold on its tenant, and a server that stops
      // talking in the middle of a transaction (a network partition) loses it, and its locks, after 60 s.
      parameters: { lock_timeout: String(LOCK_WAIT_MS), idle_in_transaction_session_timeout: '60000' },
    });
  };

  // A tenant's writes queue here before they take a connection: one waits for the tenant's lock, not the pool.
  const writes = new KeyedMutex();
  const target: SqlTarget = {
    connectionString,
    queueWrite: (key, work) => writes.run(key, work),
    pool: () => {
      if (pool === null) throw new StrataError('STORE_FAILURE', 'The PostgreSQL store has not connected yet.');
      return pool;
    },
    ready: () => {
      // A failed open is tried again by the next call (the database may come back).
      opening ??= open().catch((error: unknown) => {
        opening = null;
        throw error;
      });
      return opening;
    },
    ensureOpen: () => {
      if (closed) throw new StrataError('STORE_FAILURE', 'The store is closed; create a new one with createPostgresStore().');
    },
  };

  const indexes = createVectorIndexBuilds({
    pool: target.pool,
    connectionString,
    schema,
    // Without a listener, the process hears of it as a warning.
    onError: settings.onBackgroundError ?? ((error) => process.emitWarning(error instanceof Error ? error.message : String(error), 'StrataWarning')),
  });

  const repositories = (tenantId: string, sql: Sql): TenantRepositories => ({
    tenantId,
    sessions: createSessionRepository(sql, tenantId),
    messages: createMessageRepository(sql, tenantId),
    turns: createTurnRepository(sql, tenantId),
    facts: createFactRepository(sql, tenantId),
    artifacts: createArtifactRepository(sql, tenantId),
    search: createArchiveSearch(sql, tenantId),
    retries: createRetryRepository(sql, tenantId),
    longTerm: createLongTermRepository(sql, tenantId),
    vectors: createMessageVectors(sql, tenantId, { extension: () => extension, connected: target.ready, indexes, ...(settings.hnswFrom === undefined ? {} : { hnswFrom: settings.hnswFrom }) }),
  });

  const tenants = new Map<string, TenantStore>();
  return {
    kind: 'postgres',
    keys: createApiKeyRepository(poolSql(target, tenantWriteKey(schema, '\u0000keys'))),
    tenant(tenantId: string): TenantStore {
      if (tenantId.trim() === '') throw new StrataError('INVALID_INPUT', 'A tenant id must not be empty; pass tenant: "…" or set STRATA_TENANT.');
      target.ensureOpen();
      let tenant = tenants.get(tenantId);
      if (tenant !== undefined) return tenant;
      const writeKey = tenantWriteKey(schema, tenantId);
      tenant = {
        ...repositories(tenantId, poolSql(target, writeKey)),
        transaction: (work, options = {}) =>
          target.queueWrite(writeKey, () =>
            inTransaction(target, 'BEGIN', async (sql) => {
              await lockTenantWrites(sql, writeKey);
              // A write that can be redone from what is durable already need not wait for the disk.
              if (options.durable === false) await sql.query('SET LOCAL synchronous_commit = off');
              return work(repositories(tenantId, sql));
            }),
          ),
      };
      tenants.set(tenantId, tenant);
      return tenant;
    },
    async close() {
      if (closed) return;
      closed = true;
      await opening?.catch(() => undefined);
      await indexes.close();
      await (pool as Pool | null)?.end();
    },
  };
}
