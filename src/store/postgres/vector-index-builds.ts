/**
 * The HNSW indexes of the vector tables, built only once a session of the space is large enough to be
 * searched through one (see `vectors.ts`): kept up to date, an index costs every vector stored after it
 * (adding 10,000 realistic 100-number vectors took 9.2 s with one and 64 ms without, 2 cores), which small
 * sessions, searched exactly, would pay for nothing. A build runs in the background, CONCURRENTLY (writes
 * go on), on one server at a time (an advisory lock per table); searches stay exact until it is valid.
 */
import type { Pool } from 'pg';
import { advisoryKey, checkOut, postgresFailure } from './pool.js';

/** How long after a build failed, or was left to another server, the index is looked for again (ms). */
const LOOK_AGAIN_MS = 60_000;

export interface VectorIndexBuilds {
  /** Whether `table` has a valid HNSW index; when not, starts building one (at most once at a time) and says false. */
  ready(table: string): Promise<boolean>;
  /** Stop a build in flight (the database drops what it left half made; a later build starts over). */
  close(): Promise<void>;
}

export interface VectorIndexBuildsOptions {
  pool: () => Pool;
  connectionString: string;
  /** The server's time in ms (default: now). */
  now?: () => number;
  /** Told of a build that failed (it is tried again a minute later). */
  onError?: (error: unknown) => void;
}

export function indexName(table: string): string {
  return `${table}_hnsw`;
}

export function createVectorIndexBuilds(options: VectorIndexBuildsOptions): VectorIndexBuilds {
  const now = options.now ?? Date.now;
  const valid = new Set<string>();
  /** Tables whose index was found missing or half made, and when to look again. */
  const lookAgain = new Map<string, number>();
  const building = new Map<string, { done: Promise<void>; pid: number | undefined }>();

  const isValid = async (table: string): Promise<boolean | null> => {
    const found = await options
      .pool()
      .query<{ valid: boolean }>('SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace', [indexName(table)]);
    return found.rows[0]?.valid ?? null;
  };

  /** Build the index unless another server is; says whether it is valid now. */
  const build = async (table: string, entry: { pid: number | undefined }): Promise<boolean> => {
    const { client, release } = await checkOut(options.pool());
    entry.pid = (client as unknown as { processID?: number }).processID;
    const key = advisoryKey(`strata:vector-index:${table}`);
    let locked = false;
    try {
      locked = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [key])).rows[0]?.locked === true;
      // Another server is building it: look again later.
      if (!locked) return false;
      const state = await isValid(table);
      if (state === true) return true;
      // A build stopped half way leaves an invalid index behind: it goes first.
      if (state === false) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${indexName(table)}`);
      await client.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${indexName(table)} ON ${table} USING hnsw (embedding vector_cosine_ops)`);
      return true;
    } finally {
      if (locked) await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
      release();
    }
  };

  const start = (table: string): void => {
    if (building.has(table)) return;
    const entry: { done: Promise<void>; pid: number | undefined } = { done: Promise.resolve(), pid: undefined };
    entry.done = build(table, entry)
      .catch((error: unknown) => {
        options.onError?.(postgresFailure(error, `building the HNSW index of ${table}`, options.connectionString));
        return false;
      })
      .then((built) => {
        building.delete(table);
        if (built) valid.add(table);
        else lookAgain.set(table, now() + LOOK_AGAIN_MS);
      });
    building.set(table, entry);
  };

  return {
    ready: async (table) => {
      if (valid.has(table)) return true;
      if (building.has(table) || (lookAgain.get(table) ?? 0) > now()) return false;
      if ((await isValid(table)) === true) {
        valid.add(table);
        return true;
      }
      start(table);
      return false;
    },
    close: async () => {
      const inFlight = [...building.values()];
      for (const { pid } of inFlight) {
        if (pid !== undefined) await options.pool().query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
      }
      await Promise.all(inFlight.map((entry) => entry.done));
    },
  };
}
