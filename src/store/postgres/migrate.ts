/**
 * Opening the PostgreSQL store: refusing a schema another application made, migrating Strata's to this
 * build's version. One transaction holds an advisory lock for the schema while it reads the version and
 * applies what is missing, so servers starting together each wait their turn and the later ones find
 * the work done; a failure rolls everything back.
 */
import type { Pool, PoolClient } from 'pg';
import { StrataError } from '../../core/errors.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { advisoryKey, describeTarget, postgresFailure } from './pool.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/u;

/** The schema name, checked: it is written into SQL as an identifier. */
export function checkSchemaName(schema: string): string {
  if (SCHEMA_NAME.test(schema)) return schema;
  throw new StrataError('INVALID_CONFIG', `The PostgreSQL schema name must be 1–63 lowercase letters, digits or "_", not starting with a digit (got "${schema.slice(0, 80)}").`);
}

async function tablesOf(client: PoolClient, schema: string): Promise<string[]> {
  const found = await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name", [schema]);
  return found.rows.map((row) => row.name);
}

/** The version the schema records (0 for none), refusing one that holds tables but no Strata schema. */
async function versionOf(client: PoolClient, schema: string, target: string): Promise<number> {
  const tables = await tablesOf(client, schema);
  const others = tables.filter((name) => name !== 'schema_migrations');
  let first: string | undefined;
  if (tables.includes('schema_migrations')) {
    try {
      first = (await client.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = 1')).rows[0]?.name;
    } catch {
      // Another framework's schema_migrations, of another shape.
    }
  }
  if (others.length > 0 && first !== POSTGRES_MIGRATIONS[0]?.name) {
    const shown = others.slice(0, 5).join(', ') + (others.length > 5 ? ` and ${String(others.length - 5)} more` : '');
    throw new StrataError('STORE_FAILURE', `The schema "${schema}" of ${target} belongs to another application (it holds ${shown}, and no Strata schema); Strata left it untouched. Choose another schema for Strata.`, {
      details: { schema, tables: others },
    });
  }
  if (first === undefined) return 0;
  return (await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')).rows[0]?.version ?? 0;
}

/** Apply every migration newer than the schema's version; returns the version it is at. */
export async function migratePostgres(pool: Pool, options: { schema: string; connectionString: string; now: string }): Promise<number> {
  const schema = checkSchemaName(options.schema);
  const target = describeTarget(options.connectionString);
  const newest = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]?.version ?? 0;
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw postgresFailure(error, 'connect', options.connectionString);
  }
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryKey(`strata migrations ${schema}`)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET LOCAL search_path TO ${schema}, public`);
    const current = await versionOf(client, schema, target);
    if (current > newest) {
      throw new StrataError('STORE_FAILURE', `The schema "${schema}" is at version ${String(current)} but this build of strata-memory knows only up to ${String(newest)}; upgrade strata-memory to open it.`);
    }
    if (current === 0) await client.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
    for (const migration of POSTGRES_MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, options.now]);
    }
    await client.query('COMMIT');
    return newest;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw postgresFailure(error, 'open its Strata schema', options.connectionString);
  } finally {
    client.release();
  }
}
