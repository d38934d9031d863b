/**
 * The HNSW indexes of the vector tables, built only once a session of the space is large enough to be
 * searched through one (see `vectors.ts`): kept up to date, an index costs every vector stored after it
 * (adding 10,000 realistic 100-number vectors took 9.2 s with one and 64 ms without, 2 cores), which small
 * sessions, searched exactly, would pay for nothing. A build runs in the background, CONCURRENTLY (writes
 * go on), on one server at a time (an advisory lock per schema and table); searches stay exact until it
 * is valid. A build that fails is tried again later, waiting twice as long after each failure.
 */
import type { Pool } from 'pg';
import { advisoryKey, checkOut, postgresFailure } from './pool.js';

/** How long after a first failed build, or one left to another server, the index is looked for again (ms). */
const LOOK_AGAIN_MS = 60_000;
/** The longest wait between two failed builds (ms). */
const LONGEST_WAIT_MS = 60 * 60_000;
/** PostgreSQL's code for a statement cancelled (as `close` cancels a build). */
const QUERY_CANCELED = '57014';

export interface VectorIndexBuilds {
  /**
   * Whether `table` has a valid HNSW index; when not, starts building one (at most one build a table at
   * a time) and says false. Never fails: a failure to look says false and is reported.
   */
  ready(table: string): Promise<boolean>;
  /** Stop a build in flight (the database drops what it left half made; a later build starts over). */
  close(): Promise<void>;
}

export interface VectorIndexBuildsOptions {
  pool: () => Pool;
  connectionString: string;
  /** The store's schema: servers of other schemas in the database build their own tables' indexes. */
  schema: string;
  /** The time in ms (default: now). */
  now?: () => number;
  /** Told of a failure (a build, or looking for the index); the build is tried again later. */
  onError: (error: unknown) => void;
}

export function indexName(table: string): string {
  return `${table}_hnsw`;
}

interface Build {
  done: Promise<void>;
  /** The server process running the build statement, while it runs. */
  pid: number | undefined;
}

export function createVectorIndexBuilds(options: VectorIndexBuildsOptions): VectorIndexBuilds {
  const now = options.now ?? Date.now;
  const valid = new Set<string>();
  /** Tables whose index was missing or half made, when to look again, and after how many failures. */
  const later = new Map<string, { at: number; failures: number }>();
  const building = new Map<string, Build>();
  let closed = false;

  const isValid = async (table: string): Promise<boolean | null> => {
    const found = await options
      .pool()
      .query<{ valid: boolean }>('SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace', [indexName(table)]);
    return found.rows[0]?.valid ?? null;
  };

  /** Build the index unless another server is; says whether it is valid now. */
  const build = async (table: string, entry: Build): Promise<boolean> => {
    const { client, release } = await checkOut(options.pool());
    const key = advisoryKey(`strata:vector-index:${options.schema}:${table}`);
    let locked = false;
    let clean = true;
    try {
      if (closed) return false;
      locked = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS locked', [key])).rows[0]?.locked === true;
      // Another server is building it: look again later.
      if (!locked) return false;
      const state = await isValid(table);
      if (state === true) return true;
      // A build waits for every transaction older than it, however long: not the pool's 30 s for locks.
      await client.query('SET lock_timeout = 0');
      entry.pid = (client as unknown as { processID?: number }).processID;
      // A build stopped half way leaves an invalid index behind: it goes first.
      if (state === false) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${indexName(table)}`);
      await client.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${indexName(table)} ON ${table} USING hnsw (embedding vector_cosine_ops)`);
      return true;
    } finally {
      entry.pid = undefined;
      try {
        await client.query('RESET lock_timeout');
        if (locked) await client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
      } catch {
        // The connection may hold the lock or the setting still: it is closed, not pooled.
        clean = false;
      }
      release(!clean);
    }
  };

  const start = (table: string): void => {
    const entry: Build = { done: Promise.resolve(), pid: undefined };
    const failures = later.get(table)?.failures ?? 0;
    entry.done = build(table, entry)
      .catch((error: unknown) => {
        const cancelled = (error as { code?: unknown }).code === QUERY_CANCELED;
        if (!(closed && cancelled)) options.onError(postgresFailure(error, `build the HNSW index of ${table}`, options.connectionString));
        return null;
      })
      .then((built) => {
        building.delete(table);
        if (built === true) {
          valid.add(table);
          later.delete(table);
          return;
        }
        // A failure doubles the wait; another server building does not count as one.
        const failed = built === null ? failures + 1 : failures;
        later.set(table, { at: now() + Math.min(LONGEST_WAIT_MS, LOOK_AGAIN_MS * 2 ** Math.max(0, failed - 1)), failures: failed });
      });
    building.set(table, entry);
  };

  return {
    ready: async (table) => {
      if (valid.has(table)) return true;
      if (closed || building.has(table) || (later.get(table)?.at ?? 0) > now()) return false;
      let state: boolean | null;
      try {
        state = await isValid(table);
      } catch (error) {
        options.onError(postgresFailure(error, `look for the HNSW index of ${table}`, options.connectionString));
        later.set(table, { at: now() + LOOK_AGAIN_MS, failures: later.get(table)?.failures ?? 0 });
        return false;
      }
      if (state === true) {
        valid.add(table);
        return true;
      }
      if (!closed && !building.has(table)) start(table);
      return false;
    },
    close: async () => {
      closed = true;
      const inFlight = [...building.values()];
      for (const { pid } of inFlight) {
        if (pid !== undefined) await options.pool().query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
      }
      await Promise.all(inFlight.map((entry) => entry.done));
    },
  };
}
