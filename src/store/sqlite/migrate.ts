/** Opening a database: refusing another application's, migrating Strata's to this build's schema. */
import type Database from 'better-sqlite3';
import { StrataError } from '../../core/errors.js';
import { MIGRATIONS } from './migrations.js';

/**
 * Refuse a database another application made: one holding tables but no record of Strata's first
 * migration. Reads only, before anything is written, so the file is left as it was.
 */
export function refuseForeign(db: Database.Database, path: string): void {
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name").all().map((row) => row.name);
  const others = tables.filter((name) => name !== 'schema_migrations');
  if (others.length === 0) return;
  let first: string | undefined;
  try {
    first = db.prepare<[], { name: string }>('SELECT name FROM schema_migrations WHERE version = 1').get()?.name;
  } catch {
    // No such table, or one of another shape (another framework's schema_migrations).
  }
  if (first === MIGRATIONS[0]?.name) return;
  const shown = others.slice(0, 5).join(', ') + (others.length > 5 ? ` and ${others.length - 5} more` : '');
  throw new StrataError(
    'STORE_FAILURE',
    `${path} is another application's database (it holds ${shown}, and no Strata schema); Strata left it untouched. Point --db or STRATA_DB at a new file or at a Strata database.`,
    { details: { path, tables: others } },
  );
}

/**
 * Apply every migration newer than the database's version. One write transaction, begun at once
 * (IMMEDIATE), reads the version and applies what is missing: processes opening a new database
 * together each wait for the lock, and the later ones find the work done.
 */
export function migrate(db: Database.Database, now: string): number {
  const newest = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  const apply = db.transaction(() => {
    // Read again under the lock: another process may have migrated meanwhile.
    const current = schemaVersion(db);
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
    ) STRICT`);
    if (current > newest) {
      throw new StrataError(
        'STORE_FAILURE',
        `The database is at schema version ${current} but this build of strata-memory knows only up to ${newest}; upgrade strata-memory to open it.`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      if (typeof migration.change === 'string') db.exec(migration.change);
      else migration.change(db);
      record.run(migration.version, migration.name, now);
    }
  });
  // A database already at the newest version needs no write lock: read its version first.
  if (schemaVersion(db) === newest) return newest;
  apply.immediate();
  return newest;
}

/** Refuse a database opened read-only whose schema is not this build's: it cannot be migrated. */
export function requireCurrentSchema(db: Database.Database, path: string): void {
  const newest = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  const current = schemaVersion(db);
  if (current === newest) return;
  throw new StrataError(
    'STORE_FAILURE',
    current > newest
      ? `The database ${path} is at schema version ${current} but this build of strata-memory knows only up to ${newest}; upgrade strata-memory to read it.`
      : `The database ${path} is at schema version ${current} and this build needs ${newest}; it can only be read here (no write access to it or its folder), so it cannot be upgraded. Open it once with write access, then read it here.`,
    { details: { path } },
  );
}

/** The schema version a database records, 0 for none. */
function schemaVersion(db: Database.Database): number {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
  if (!exists) return 0;
  return (db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number | null }).version ?? 0;
}
