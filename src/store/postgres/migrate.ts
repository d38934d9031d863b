/**
 * Opening the PostgreSQL store: refusing a schema another application made, migrating Strata's to this
 * build's version. One transaction holds an advisory lock for the schema while it reads the version and
 * applies what is missing, so servers starting together each wait their turn and the later ones find
 * the work done; a failure rolls everything back.
 */
import type { Pool, PoolClient } from 'pg';
import { StrataError } from '../../core/errors.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { advisoryKey, checkOut, describeTarget, postgresFailure, type CheckedOut } from './pool.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/u;

/** The schema name, checked (PostgreSQL keeps names starting with pg_ for itself). */
export function checkSchemaName(schema: string): string {
  if (SCHEMA_NAME.test(schema) && !schema.startsWith('pg_')) return schema;
  throw new StrataError('INVALID_CONFIG', `The PostgreSQL schema name must be 1–63 lowercase letters, digits or "_", not starting with a digit or pg_ (got "${schema.slice(0, 80)}").`);
}

/** A name as a quoted SQL identifier (the checked names hold no quote; keywords such as user need the quotes). */
export function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Every relation of the schema (tables, views, sequences …), whoever owns it: the catalog, not information_schema, which lists only what the role may use. */
async function relationsOf(client: PoolClient, schema: string): Promise<Array<{ name: string; kind: string }>> {
  const found = await client.query<{ name: string; kind: string }>(
    'SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 ORDER BY c.relname',
    [schema],
  );
  return found.rows;
}

/** Whether `schema_migrations` has Strata's columns (read from the catalog: a failed query would abort the transaction). */
async function isStrataLedger(client: PoolClient, schema: string): Promise<boolean> {
  const columns = await client.query<{ name: string }>(
    "SELECT a.attname AS name FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = 'schema_migrations' AND a.attnum > 0 AND NOT a.attisdropped",
    [schema],
  );
  const names = new Set(columns.rows.map((row) => row.name));
  return names.has('version') && names.has('name') && names.has('applied_at');
}

/** The version the schema records (0 for none), refusing one that holds anything but a Strata schema. */
async function versionOf(client: PoolClient, schema: string, target: string): Promise<number> {
  const relations = await relationsOf(client, schema);
  const others = relations.filter((relation) => relation.kind !== 'i' && relation.name !== 'schema_migrations').map((relation) => relation.name);
  const ledger = relations.some((relation) => relation.name === 'schema_migrations') && (await isStrataLedger(client, schema));
  const first = ledger ? (await client.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = 1')).rows[0]?.name : undefined;
  const foreign = relations.some((relation) => relation.name === 'schema_migrations') ? first !== POSTGRES_MIGRATIONS[0]?.name : others.length > 0;
  if (foreign) {
    const names = [...others, ...(ledger ? [] : relations.filter((relation) => relation.name === 'schema_migrations').map((relation) => relation.name))];
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${String(names.length - 5)} more` : '');
    throw new StrataError('STORE_FAILURE', `The schema "${schema}" of ${target} belongs to another application (it holds ${shown}, and no Strata schema); Strata left it untouched. Choose another schema for Strata.`, {
      details: { schema, relations: names },
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
  let connection: CheckedOut;
  try {
    connection = await checkOut(pool);
  } catch (error) {
    throw postgresFailure(error, 'connect', options.connectionString);
  }
  const { client } = connection;
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryKey(`strata migrations ${schema}`)]);
    // Created only when missing: CREATE SCHEMA IF NOT EXISTS needs the right to create in the database even then.
    const exists = (await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount !== 0;
    if (!exists) await client.query(`CREATE SCHEMA ${quoted(schema)}`);
    await client.query(`SET LOCAL search_path TO ${quoted(schema)}`);
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
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw postgresFailure(error, 'open its Strata schema', options.connectionString);
  } finally {
    connection.release(broken);
  }
}
