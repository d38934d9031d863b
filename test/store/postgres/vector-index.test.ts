/**
 * Large sessions on PostgreSQL are searched through the space's HNSW index: the index is built when a
 * large session is first searched (small ones never need it), the query takes it, and it finds what
 * comparing every vector finds; a half-made index is rebuilt; vectors too long for pgvector's HNSW are
 * always compared one by one.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPool } from '../../../src/store/postgres/pool.js';
import { createPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { HNSW_SETTINGS, nearestSql } from '../../../src/store/postgres/vectors.js';
import type { Store, TenantStore } from '../../../src/store/store.js';
import { seedSession } from '../../contract/store-contract.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON, dropSchemas } from '../../support/postgres.js';

/** Message `index`'s vector: near axis `index % 16`, a little off it by an amount of its own. */
function vectorOf(index: number, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  vector[index % 16] = 1;
  const off = (index * 7 + 3) % 16;
  vector[off] = (vector[off] ?? 0) + 0.05 + (index % 13) / 100;
  return vector;
}

function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index += 1) {
    dot += (left[index] ?? 0) * (right[index] ?? 0);
    leftNorm += (left[index] ?? 0) ** 2;
    rightNorm += (right[index] ?? 0) ** 2;
  }
  return dot / Math.sqrt(leftNorm * rightNorm);
}

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`PostgreSQL vector search${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(...schemas));

  /** A store in a schema of its own where sessions of 400 vectors and more count as large, and a pool to look at it. */
  const opened = async (): Promise<{ store: Store; admin: Pool; tenant: TenantStore; hnswIndexes: () => Promise<Array<{ name: string; table: string; valid: boolean }>>; close: () => Promise<void> }> => {
    const schema = `strata_test_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    const store = createPostgresStore({ connectionString: DATABASE_URL ?? '', schema, hnswFrom: { vectors: 400, numbers: 0 } });
    const admin = await openPool({ connectionString: DATABASE_URL ?? '', max: 1 });
    const hnswIndexes = async (): Promise<Array<{ name: string; table: string; valid: boolean }>> =>
      (
        await admin.query<{ name: string; table: string; valid: boolean }>(
          `SELECT c.relname AS name, t.relname AS "table", i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'hnsw' AND c.relnamespace = $1::regnamespace`,
          [schema],
        )
      ).rows;
    return { store, admin, tenant: store.tenant('acme'), hnswIndexes, close: async () => void (await Promise.all([store.close(), admin.end()])) };
  };

  const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Gave up waiting until ${what}.`);
  };

  /** A session of `turns` turns whose messages have vectors `vectorOf(index)`; gives their ids. */
  const embedded = async (tenant: TenantStore, sessionId: string, turns: number, dimensions = 16): Promise<string[]> => {
    const exchanges = Array.from({ length: turns }, (_, turn) => [`Question ${String(turn)} about the move.`, `Answer ${String(turn)} about the move.`] as const);
    const messages = await seedSession(tenant, sessionId, exchanges);
    await tenant.vectors.put({ sessionId, space: 'axes', dimensions, entries: messages.map((message, index) => ({ messageId: message.id, vector: vectorOf(index, dimensions) })) });
    return messages.map((message) => message.id);
  };

  /** The session's 12 nearest to axis 3 are those an exact comparison in JavaScript finds, in order. */
  const expectExact = async (tenant: TenantStore, sessionId: string, ids: readonly string[], dimensions = 16): Promise<void> => {
    const query = vectorOf(3, dimensions);
    const exact = ids
      .map((messageId, index) => ({ messageId, similarity: cosine(query, vectorOf(index, dimensions)), index }))
      .sort((left, right) => right.similarity - left.similarity || left.index - right.index)
      .slice(0, 12);
    const found = await tenant.vectors.nearest({ sessionId, space: 'axes', vector: query, limit: 12 });
    expect(found.map((hit) => hit.messageId)).toEqual(exact.map((hit) => hit.messageId));
    found.forEach((hit, rank) => expect(hit.similarity).toBeCloseTo(exact[rank]?.similarity ?? 0, 5));
  };

  it('builds the index when a large session is first searched, then searches through it, finding what an exact scan finds', async () => {
    const { admin, tenant, hnswIndexes, close } = await opened();
    try {
      const large = await embedded(tenant, 'large', 300);
      const small = await embedded(tenant, 'small', 40);
      await expectExact(tenant, 'small', small);
      expect(await hnswIndexes()).toEqual([]);
      // The first search of the large session is exact and starts the build.
      await expectExact(tenant, 'large', large);
      await until(async () => (await hnswIndexes()).some((index) => index.valid), 'the index is built');
      await expectExact(tenant, 'large', large);
      // The large session's query can take it: on a table this small the planner finds a scan and a
      // sort cheaper, so those are ruled out here.
      const [index] = await hnswIndexes();
      const client = await admin.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL search_path = "${schemas.at(-1) ?? ''}", public`);
        await client.query(HNSW_SETTINGS);
        await client.query("SELECT set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true)");
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${nearestSql(index?.table ?? '', 'index')}`, ['acme', 'large', `[${Array.from(vectorOf(3, 16)).join(',')}]`, 1_000_000, 12]);
        expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Scan using \S+_hnsw/u);
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
    } finally {
      await close();
    }
  }, 60_000);

  it('drops a half-made index and builds it again', async () => {
    const { admin, tenant, hnswIndexes, close } = await opened();
    try {
      const large = await embedded(tenant, 'large', 300);
      await expectExact(tenant, 'large', large);
      await until(async () => (await hnswIndexes()).some((index) => index.valid), 'the index is built');
      const [index] = await hnswIndexes();
      // As a build stopped half way leaves it, seen by a server that starts afresh.
      await admin.query('UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::regclass', [`"${schemas.at(-1) ?? ''}".${index?.name ?? ''}`]);
      const { tenant: restarted, hnswIndexes: indexesNow, close: closeRestarted } = await reopened(schemas.at(-1) ?? '');
      try {
        await expectExact(restarted, 'large', large);
        await until(async () => (await indexesNow()).some((found) => found.valid), 'the index is built again');
        expect((await indexesNow()).length).toBe(1);
        await expectExact(restarted, 'large', large);
      } finally {
        await closeRestarted();
      }
    } finally {
      await close();
    }
  }, 60_000);

  it('compares vectors too long for HNSW one by one, and builds no index for them', async () => {
    const { tenant, hnswIndexes, close } = await opened();
    try {
      const large = await embedded(tenant, 'large', 220, 2001);
      await expectExact(tenant, 'large', large, 2001);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await hnswIndexes()).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  /** Another store on an existing schema, as a server that starts afresh. */
  async function reopened(schema: string): Promise<{ tenant: TenantStore; hnswIndexes: () => Promise<Array<{ valid: boolean }>>; close: () => Promise<void> }> {
    const store = createPostgresStore({ connectionString: DATABASE_URL ?? '', schema, hnswFrom: { vectors: 400, numbers: 0 } });
    const admin = await openPool({ connectionString: DATABASE_URL ?? '', max: 1 });
    const hnswIndexes = async (): Promise<Array<{ valid: boolean }>> =>
      (await admin.query<{ valid: boolean }>("SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'hnsw' AND c.relnamespace = $1::regnamespace", [schema])).rows;
    return { tenant: store.tenant('acme'), hnswIndexes, close: async () => void (await Promise.all([store.close(), admin.end()])) };
  }
});
