/**
 * Connections to PostgreSQL through `pg` (an optional dependency, loaded when first needed), and what
 * every part of the adapter says about them: where they point (without the password), and the one
 * error a failure becomes.
 */
import { createHash } from 'node:crypto';
import type * as PgModule from 'pg';
import type { Pool, PoolClient } from 'pg';
import { StrataError } from '../../core/errors.js';

export interface PoolSettings {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /** Most connections open at once. */
  max: number;
  /** How long getting a connection may take, in ms (default 30,000). */
  connectMs?: number;
  /** Schemas every connection looks names up in, first to last (quoted identifiers); PostgreSQL's default when absent. */
  searchPath?: readonly string[];
  /** Server settings every connection starts with (`lock_timeout` …), besides those of the URL's `options`. */
  parameters?: Readonly<Record<string, string>>;
}

/**
 * The URL without its `options` parameter, and that parameter: `pg` lets the URL's options replace the
 * ones given beside it, which would drop the store's search path; they are joined instead.
 */
function splitOptions(connectionString: string): { connectionString: string; options: string } {
  try {
    const url = new URL(connectionString);
    const options = url.searchParams.get('options');
    if (options === null) return { connectionString, options: '' };
    url.searchParams.delete('options');
    return { connectionString: url.toString(), options };
  } catch {
    return { connectionString, options: '' };
  }
}

/** Where a connection string points, without its password, for messages. */
export function describeTarget(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port === '' ? '5432' : url.port}${url.pathname}`;
  } catch {
    return 'the configured database';
  }
}

/** A failure of PostgreSQL while doing something, as the one error the adapter gives. */
export function postgresFailure(error: unknown, doing: string, connectionString: string): StrataError {
  if (error instanceof StrataError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StrataError('STORE_FAILURE', `PostgreSQL at ${describeTarget(connectionString)} failed to ${doing}: ${message}; nothing was written by the failed operation.`, { cause: error });
}

/** A 64-bit advisory lock key (as the text of a bigint) for `name`: the same on every server. */
export function advisoryKey(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest().readBigInt64BE(0).toString();
}

/**
 * A pool of connections; fails with INVALID_CONFIG when `pg` is not installed. A connection the server
 * ends while it waits in the pool (a restart, a failover, a terminated backend) is dropped from the
 * pool, never left to crash the process as an unhandled 'error'; the next use opens another.
 */
export async function openPool(settings: PoolSettings): Promise<Pool> {
  let pg: typeof PgModule & { default?: typeof PgModule };
  try {
    pg = (await import('pg')) as typeof PgModule & { default?: typeof PgModule };
  } catch (error) {
    throw new StrataError('INVALID_CONFIG', 'PostgreSQL needs the optional dependency pg: npm install pg.', { cause: error });
  }
  const Pool = pg.default?.Pool ?? pg.Pool;
  const { connectionString, options } = splitOptions(settings.connectionString);
  const parameters = Object.entries(settings.parameters ?? {}).map(([name, value]) => `-c ${name}=${value}`);
  const pool = new Pool({
    connectionString,
    max: Math.max(1, settings.max),
    connectionTimeoutMillis: Math.max(1, settings.connectMs ?? 30_000),
    // Set when each connection starts, so no statement ever runs with another search path. No JIT: it
    // compiles a search's ranking once its estimated cost passes a threshold, which took one search
    // from 8 ms to 1.3 s; Strata's statements are short.
    options: [options, '-c jit=off', ...parameters, ...(settings.searchPath === undefined ? [] : [`-c search_path=${settings.searchPath.join(',')}`])].filter((part) => part !== '').join(' '),
  });
  pool.on('error', () => undefined);
  return pool;
}

/** A connection taken from the pool, and how to give it back. */
export interface CheckedOut {
  client: PoolClient;
  /** Back to the pool, or closed when `destroy` is true or the server ended it meanwhile. */
  release(destroy?: boolean): void;
}

/**
 * Take a connection from the pool, listening for its 'error' while it is out: a connection the server
 * ends then (a restart, a failover, a terminated backend) fails the statement waiting on it instead of
 * crashing the process as an unheard event, and is closed rather than pooled when released.
 */
export async function checkOut(pool: Pool): Promise<CheckedOut> {
  const client = await pool.connect();
  let broken = false;
  const onError = (): void => {
    broken = true;
  };
  client.on('error', onError);
  return {
    client,
    release: (destroy = false) => {
      client.off('error', onError);
      client.release(destroy || broken);
    },
  };
}
