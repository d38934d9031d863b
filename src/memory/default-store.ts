/**
 * The store and session lock a memory makes for itself from its `path` setting: a PostgreSQL URL
 * (`postgres://…` or `postgresql://…`, with `?schema=name` for a schema other than `strata`) opens the
 * PostgreSQL store with a session lock shared by every server on that database; anything else is a SQLite file with a lock of this process.
 */
import type { SessionLock } from '../store/session-lock.js';
import type { Store } from '../store/store.js';
import { createPostgresSessionLock } from '../store/postgres/session-lock.js';
import { createPostgresStore } from '../store/postgres/postgres-store.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Settings } from './config.js';
import { inProcessSessionLock } from './in-process-session-lock.js';

/** Whether a `path` setting names a PostgreSQL database. */
export function isPostgresUrl(path: string): boolean {
  return /^postgres(?:ql)?:\/\//iu.test(path);
}

export interface OwnStore {
  store: Store;
  sessionLock: SessionLock;
  /** Close what was made here (the store, and the lock's connections). */
  close: () => Promise<void>;
}

/**
 * A PostgreSQL URL's `schema` parameter (Strata's own, taken off before the URL reaches the driver):
 * several Strata stores may share one database, each in its schema.
 */
export function splitSchema(url: string): { connectionString: string; schema?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url };
  }
  const schema = parsed.searchParams.get('schema');
  if (schema === null) return { connectionString: url };
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
}

/** The store and lock for these settings; `onBackgroundError` hears of what the store does on its own that fails. */
export function openDefaultStore(settings: Pick<Settings, 'path' | 'busyTimeoutMs' | 'durability'>, onBackgroundError?: (error: unknown) => void): OwnStore {
  if (isPostgresUrl(settings.path)) {
    const { connectionString, schema } = splitSchema(settings.path);
    const store = createPostgresStore({ connectionString, ...(schema === undefined ? {} : { schema }), ...(onBackgroundError === undefined ? {} : { onBackgroundError }) });
    const lock = createPostgresSessionLock({ connectionString });
    return {
      store,
      sessionLock: lock,
      close: async () => {
        await Promise.all([store.close(), lock.close()]);
      },
    };
  }
  const store = createSqliteStore({ path: settings.path, busyTimeoutMs: settings.busyTimeoutMs, durability: settings.durability });
  return { store, sessionLock: inProcessSessionLock(), close: () => store.close() };
}
