import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StrataError, isStrataError } from '../../core/errors.js';
import type { Store, TenantRepositories, TenantStore } from '../store.js';
import { createApiKeyRepository } from './api-keys.js';
import { createArtifactRepository } from './artifacts.js';
import { createFactRepository } from './facts.js';
import { createMessageRepository } from './messages.js';
import { migrate, refuseForeign, requireCurrentSchema } from './migrate.js';
import { copyForReading, readableOnly } from './read-only-copy.js';
import { createRetryRepository } from './retries.js';
import type { Run } from './run.js';
import { createArchiveSearch } from './search.js';
import { TenantSearchIndex } from './search-index.js';
import { loadVectorExtension } from './vector-extension.js';
import { createMessageVectors, indexVectorChunks, purgeOrphanVectors, resizeVectorChunks } from './vectors.js';
import { createSessionRepository } from './sessions.js';
import { createTurnRepository } from './turns.js';
import { createLongTermRepository } from './long-term.js';
import { createTurnJournal, type TurnJournal } from './turn-changes.js';

/** Bytes of the database file reads may map into memory (SQLite's mmap_size). */
const MMAP_BYTES = 256 * 1024 * 1024;

export interface SqliteStoreSettings {
  /** Database file (default `./strata.db`); `:memory:` for a private in-memory database. */
  path?: string;
  /** How long a write waits for another process's lock, in ms (default 5000). */
  busyTimeoutMs?: number;
  /**
   * `full` (default) syncs every commit to disk, so an acknowledged turn survives a power cut;
   * `normal` syncs at WAL checkpoints only: faster, and still safe against a process crash.
   */
  durability?: 'full' | 'normal';
  /** Time source for migration bookkeeping (default: now). */
  now?: () => string;
  /**
   * Vectors of one session before they are filed in cells and a search reads only the cells nearest its
   * query (default 4,096; below it every vector is read, which is exact).
   */
  vectorCellsFrom?: number;
}

/** Translate a driver failure into a StrataError that says what to do. */
function wrapFailure(error: unknown, path: string, readOnly = false): unknown {
  if (error instanceof TypeError && /directory does not exist/iu.test(error.message)) {
    return new StrataError('INVALID_CONFIG', `Cannot open the database ${path}: its folder ${dirname(resolve(path))} does not exist. Create the folder, or set the path (--db, STRATA_DB) to a file in one that does.`, {
      cause: error,
      details: { path },
    });
  }
  if (isStrataError(error) || !(error instanceof Database.SqliteError || (error instanceof TypeError && /database connection is not open/iu.test(error.message)))) {
    return error;
  }
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
  const message = error instanceof Error ? error.message : String(error);
  if (readOnly && code.startsWith('SQLITE_READONLY')) {
    return new StrataError('STORE_FAILURE', `The database ${path} can only be read here: this process cannot write it or its folder, so it was opened read-only and nothing was written. Run as a user who can write it to change it.`, {
      cause: error,
      details: { code, path },
    });
  }
  const hint =
    code === 'SQLITE_FULL'
      ? 'free disk space and retry'
      : code === 'SQLITE_BUSY'
        ? 'another process holds the database lock; retry, or raise busyTimeoutMs (STRATA_BUSY_TIMEOUT_MS)'
        : code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN'
          ? `check that ${path} and its folder are writable`
          : code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB'
            ? `${path} is not a healthy Strata database; restore it from a backup or point STRATA_DB elsewhere`
            : 'nothing was written by the failed operation';
  return new StrataError('STORE_FAILURE', `SQLite failed (${code}): ${message}; ${hint}.`, { cause: error, details: { code } });
}

/**
 * Run `step` again while it fails with SQLITE_BUSY, for up to `timeoutMs`. Switching a file to WAL needs
 * an exclusive lock and SQLite answers BUSY at once, without its busy handler, when another process
 * opening the same new file holds one (it is migrating it); opening is synchronous, so this waits in place.
 */
function whileBusy<T>(step: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return step();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/** Open a database this process can only read: a copy of it, read-only, whose schema must be this build's. */
function openForReading(path: string): { db: Database.Database; wal: boolean; readOnly: true; remove: () => void } {
  let copy: ReturnType<typeof copyForReading>;
  try {
    copy = copyForReading(path);
  } catch (error) {
    throw new StrataError('STORE_FAILURE', `The database ${path} can only be read here, and copying it to read it failed: ${(error as Error).message}. Free space in the temporary folder (TMPDIR) and retry.`, {
      cause: error,
      details: { path },
    });
  }
  let opened: Database.Database | undefined;
  try {
    const db = (opened = new Database(copy.path, { readonly: true, fileMustExist: true }));
    refuseForeign(db, path);
    requireCurrentSchema(db, path);
    return { db, wal: false, readOnly: true, remove: copy.remove };
  } catch (error) {
    if (opened?.open === true) opened.close();
    copy.remove();
    throw wrapFailure(error, path, true);
  }
}

/** Open the database, set its pragmas and migrate it; `wal` says whether it runs in WAL mode. */
function openDatabase(path: string, settings: SqliteStoreSettings, fullSync: boolean): { db: Database.Database; wal: boolean; readOnly: boolean; remove: () => void } {
  if (readableOnly(path)) return openForReading(path);
  let opened: Database.Database | undefined;
  try {
    const db = (opened = new Database(path));
    const busyTimeoutMs = Math.max(0, Math.floor(settings.busyTimeoutMs ?? 5000));
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // Before the journal mode is set: that writes to the file.
    refuseForeign(db, path);
    const wal = path !== ':memory:' && whileBusy(() => db.pragma('journal_mode = WAL', { simple: true }), busyTimeoutMs) === 'wal';
    db.pragma(`synchronous = ${fullSync ? 'FULL' : 'NORMAL'}`);
    // Reads map the file instead of copying its pages: a vector search reads every vector of a session.
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    db.pragma('foreign_keys = ON');
    migrate(db, (settings.now ?? (() => new Date().toISOString()))());
    return { db, wal, readOnly: false, remove: () => undefined };
  } catch (error) {
    // Do not leak the file handle of a database we refuse to use.
    if (opened?.open === true) opened.close();
    throw wrapFailure(error, path);
  }
}

export function createSqliteStore(settings: SqliteStoreSettings = {}): Store {
  const path = settings.path ?? './strata.db';
  const fullSync = settings.durability !== 'normal';
  // Commits may skip their sync only in WAL mode, where such a commit is still atomic.
  const { db, wal, readOnly, remove } = openDatabase(path, settings, fullSync);
  const extension = loadVectorExtension(db);
  // Vectors of sessions a process without the extension deleted go before any vector is read or written,
  // and tables of an older layout are rebuilt or indexed.
  let purged = !extension.loaded || readOnly;
  const purgeOnce = (): void => {
    if (purged) return;
    purgeOrphanVectors(db);
    resizeVectorChunks(db);
    indexVectorChunks(db);
    purged = true;
  };

  let active: Promise<void> | null = null;
  let closed = false;
  /** True while commits skip their sync (a relaxed transaction runs, or its end could not restore FULL). */
  let syncRelaxed = false;
  const relaxSync = (relaxed: boolean): void => {
    if (relaxed === syncRelaxed) return;
    db.pragma(`synchronous = ${relaxed ? 'NORMAL' : 'FULL'}`);
    syncRelaxed = relaxed;
  };
  const ensureOpen = (): void => {
    if (closed) throw new StrataError('STORE_FAILURE', 'The store is closed; create a new one with createMemory().');
  };
  const direct: Run = async (work) => {
    ensureOpen();
    try {
      return work();
    } catch (error) {
      throw wrapFailure(error, path, readOnly);
    }
  };
  const gated: Run = async (work) => {
    while (active !== null) await active;
    return direct(work);
  };

  const repositories = (tenantId: string, run: Run, index: TenantSearchIndex, journal: TurnJournal): TenantRepositories => ({
    tenantId,
    sessions: createSessionRepository(db, tenantId, run, index, extension),
    messages: createMessageRepository(db, tenantId, run, index, journal),
    turns: createTurnRepository(db, tenantId, run, journal),
    facts: createFactRepository(db, tenantId, run),
    artifacts: createArtifactRepository(db, tenantId, run),
    search: createArchiveSearch(db, tenantId, run, index),
    retries: createRetryRepository(db, tenantId, run),
    vectors: createMessageVectors(db, tenantId, run, extension, { beforeUse: purgeOnce, ...(settings.vectorCellsFrom === undefined ? {} : { cellsFrom: settings.vectorCellsFrom }) }),
    longTerm: createLongTermRepository(db, tenantId, run),
  });

  const tenants = new Map<string, TenantStore>();
  return {
    kind: 'sqlite',
    keys: createApiKeyRepository(db, gated),
    tenant(tenantId: string): TenantStore {
      if (tenantId.trim() === '') throw new StrataError('INVALID_INPUT', 'A tenant id must not be empty; pass tenant: "…" or set STRATA_TENANT.');
      let tenant = tenants.get(tenantId);
      if (tenant !== undefined) return tenant;
      ensureOpen();
      const index = new TenantSearchIndex(db, tenantId);
      // One journal of turn changes (its statements prepared once) for the tenant's turns and messages.
      const journal = createTurnJournal(db, tenantId);
      const inside = repositories(tenantId, direct, index, journal);
      tenant = {
        ...repositories(tenantId, gated, index, journal),
        async transaction(work, options = {}) {
          while (active !== null) await active;
          ensureOpen();
          let release: () => void = () => undefined;
          active = new Promise((resolve) => {
            release = resolve;
          });
          const restore = (): void => {
            try {
              if (!db.inTransaction) relaxSync(false);
            } catch {
              // A failure here must not keep the store locked; the next transaction sets the sync first.
            }
          };
          try {
            // In WAL mode a commit without a sync is still atomic; the next synced commit makes it durable too.
            relaxSync(options.durable === false && fullSync && wal);
            db.exec('BEGIN IMMEDIATE');
          } catch (error) {
            restore();
            active = null;
            release();
            throw wrapFailure(error, path, readOnly);
          }
          try {
            const result = await work(inside);
            db.exec('COMMIT');
            return result;
          } catch (error) {
            if (db.inTransaction) db.exec('ROLLBACK');
            // The rollback may have undone the creation of the search index.
            index.reset();
            throw wrapFailure(error, path, readOnly);
          } finally {
            restore();
            active = null;
            release();
          }
        },
      };
      tenants.set(tenantId, tenant);
      return tenant;
    },
    async close() {
      while (active !== null) await active;
      if (closed) return;
      closed = true;
      db.close();
      remove();
    },
  };
}
