/**
 * Where an evaluation (or a benchmark) replays a conversation: a private in-memory SQLite database,
 * or, given a PostgreSQL URL, a schema of its own in that database, dropped when the replay ends. The same replay
 * on either store shows whether an adapter ranks and keeps what the other does.
 */
import { randomBytes } from 'node:crypto';
import type { MemoryOptions } from '../memory/memory-api.js';
import { isPostgresUrl, splitSchema } from '../memory/default-store.js';
import { openPool } from '../store/postgres/pool.js';
import { createPostgresStore } from '../store/postgres/postgres-store.js';

export interface ScratchStore {
  /** The memory options that put the replay there. */
  options: Pick<MemoryOptions, 'path' | 'store'>;
  /** Remove what the replay stored (call after the memory is closed). */
  drop: () => Promise<void>;
  /** Bytes the store takes in the database (tables and indexes), or null for in-memory SQLite. */
  bytes: () => Promise<number | null>;
}

/** A fresh store for one replay: `database` is a PostgreSQL URL, or absent for in-memory SQLite. */
export function scratchStore(database: string | undefined): ScratchStore {
  if (database === undefined || !isPostgresUrl(database)) return { options: { path: ':memory:' }, drop: async () => undefined, bytes: async () => null };
  const schema = `strata_eval_${randomBytes(6).toString('hex')}`;
  const { connectionString } = splitSchema(database);
  const store = createPostgresStore({ connectionString, schema });
  const withPool = async <T>(work: (pool: Awaited<ReturnType<typeof openPool>>) => Promise<T>): Promise<T> => {
    const pool = await openPool({ connectionString, max: 1 });
    try {
      return await work(pool);
    } finally {
      await pool.end();
    }
  };
  return {
    options: { store },
    drop: async () => {
      await store.close();
      await withPool((pool) => pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
    bytes: () =>
      withPool(async (pool) => {
        const found = await pool.query<{ bytes: string | null }>(
          "SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')",
          [schema],
        );
        return Number(found.rows[0]?.bytes ?? 0);
      }),
  };
}
