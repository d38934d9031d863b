/**
 * The PostgreSQL store's schema: made on first open in a schema of its own, safely when several
 * servers open a new database at once; a schema another application made is refused and left as it
 * was; a schema newer than the build is refused.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../src/store/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../../src/store/postgres/migrations.js';
import { openPool } from '../../../src/store/postgres/pool.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON } from '../../support/postgres.js';
import { strataFailure } from '../../support/strata-failure.js';

const databaseUrl = DATABASE_URL ?? '';
const NOW = '2026-11-27T05:00:00.000Z';
const TABLES = ['api_keys', 'artifact_versions', 'artifacts', 'fact_events', 'facts', 'long_term_edges', 'long_term_memories', 'long_term_runs', 'long_term_tags', 'long_term_versions', 'memory_retries', 'messages', 'retry_claims', 'schema_migrations', 'search_terms', 'sessions', 'tenants', 'turn_changes', 'turns', 'vector_progress', 'vector_spaces'];

/** A schema name no other test uses. */
const freshSchema = (): string => `strata_test_${randomBytes(4).toString('hex')}`;

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`PostgreSQL migrations${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  let admin: Pool;
  const made: string[] = [];
  beforeAll(async () => {
    admin = await openPool({ connectionString: databaseUrl, max: 2 });
  });
  afterAll(async () => {
    for (const schema of made) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  const tables = async (schema: string): Promise<string[]> =>
    (await admin.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [schema])).rows.map((row) => row.name);

  it('makes every table in a schema of its own, once, when three servers open a new database together', async () => {
    const schema = freshSchema();
    made.push(schema);
    const pools = await Promise.all([1, 2, 3].map(() => openPool({ connectionString: databaseUrl, max: 1 })));
    try {
      const versions = await Promise.all(pools.map((pool) => migratePostgres(pool, { schema, connectionString: databaseUrl, now: NOW })));
      expect(versions).toEqual([1, 1, 1].map(() => POSTGRES_MIGRATIONS.length));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    expect(await tables(schema)).toEqual(TABLES);
    const applied = await admin.query(`SELECT version, name FROM ${schema}.schema_migrations ORDER BY version`);
    expect(applied.rows).toEqual(POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it("refuses a schema another application made, and leaves it as it was", async () => {
    const schema = freshSchema();
    made.push(schema);
    await admin.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.orders (id integer PRIMARY KEY); CREATE TABLE ${schema}.schema_migrations (version text)`);
    const pool = await openPool({ connectionString: databaseUrl, max: 1 });
    try {
      const refused = await strataFailure(migratePostgres(pool, { schema, connectionString: databaseUrl, now: NOW }), 'STORE_FAILURE');
      expect(refused.message).toContain('belongs to another application');
      expect(refused.message).toContain('orders');
    } finally {
      await pool.end();
    }
    expect(await tables(schema)).toEqual(['orders', 'schema_migrations']);
  });

  it('refuses a schema newer than this build, and a schema name that is not an identifier', async () => {
    const schema = freshSchema();
    made.push(schema);
    const pool = await openPool({ connectionString: databaseUrl, max: 1 });
    try {
      await migratePostgres(pool, { schema, connectionString: databaseUrl, now: NOW });
      await admin.query(`INSERT INTO ${schema}.schema_migrations VALUES (99, 'from the future', $1)`, [NOW]);
      expect((await strataFailure(migratePostgres(pool, { schema, connectionString: databaseUrl, now: NOW }), 'STORE_FAILURE')).message).toContain('upgrade strata-memory');
      expect((await strataFailure(migratePostgres(pool, { schema: 'strata; DROP TABLE x', connectionString: databaseUrl, now: NOW }), 'INVALID_CONFIG')).message).toContain('schema name');
    } finally {
      await pool.end();
    }
  });

  it('takes an empty schema made for it, and a schema name that is a keyword; refuses a view it did not make', async () => {
    const empty = freshSchema();
    made.push(empty, 'order');
    await admin.query(`CREATE SCHEMA ${empty}`);
    const viewed = freshSchema();
    made.push(viewed);
    await admin.query(`CREATE SCHEMA ${viewed}; CREATE VIEW ${viewed}.report AS SELECT 1 AS one`);
    const pool = await openPool({ connectionString: databaseUrl, max: 1 });
    try {
      await migratePostgres(pool, { schema: empty, connectionString: databaseUrl, now: NOW });
      expect(await tables(empty)).toEqual(TABLES);
      await admin.query('DROP SCHEMA IF EXISTS "order" CASCADE');
      await migratePostgres(pool, { schema: 'order', connectionString: databaseUrl, now: NOW });
      expect(await tables('order')).toEqual(TABLES);
      expect((await strataFailure(migratePostgres(pool, { schema: viewed, connectionString: databaseUrl, now: NOW }), 'STORE_FAILURE')).message).toContain('report');
      expect((await strataFailure(migratePostgres(pool, { schema: 'pg_strata', connectionString: databaseUrl, now: NOW }), 'INVALID_CONFIG')).message).toContain('pg_');
    } finally {
      await pool.end();
    }
  });
});
