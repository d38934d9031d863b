/**
 * How the PostgreSQL repositories reach the database. A repository never holds a connection itself: it
 * is given an `Sql`, either the pool's (each read a statement of its own, each write a transaction of
 * its own) or an open transaction's (everything on that transaction's connection).
 *
 * Writes of one tenant take the tenant's advisory lock inside their transaction, so they run one after
 * another whichever server makes them, while reads never wait: a transaction reads what no other write
 * can change until it commits, which makes it as good as serializable for Strata's tables without
 * PostgreSQL's SERIALIZABLE level and the conflicts it reports (the Store port promises none).
 */
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { StrataError } from '../../core/errors.js';
import { advisoryKey, postgresFailure } from './pool.js';

export interface Sql {
  /** One statement. */
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<QueryResult<R>>;
  /** The rows of one statement as arrays of their columns (cheaper than an object per row). */
  arrays<R extends unknown[]>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /** Statements that write: atomic and serialised with the tenant's other writes. */
  write<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Statements that read and must see one snapshot of the database. */
  read<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

/** Where the store connects and what its failures say. */
export interface SqlTarget {
  /** The store's pool (call after `ready`). */
  pool: () => Pool;
  connectionString: string;
  /** Waited for before any statement: the schema is migrated and `search_path` set on every connection. */
  ready: () => Promise<void>;
  /** Throws when the store is closed. */
  ensureOpen: () => void;
}

/** The advisory lock key serialising one tenant's writes in one schema. */
export function tenantWriteKey(schema: string, tenantId: string): string {
  return advisoryKey(`strata tenant writes\u0000${schema}\u0000${tenantId}`);
}

/** A row limit as SQL takes it: null (no limit) for a negative or unbounded one, as SQLite reads LIMIT -1. */
export function sqlLimit(limit: number | undefined): number | null {
  return limit === undefined || limit < 0 || !Number.isFinite(limit) ? null : Math.floor(limit);
}

/** PostgreSQL's error code (SQLSTATE) behind a failure, when there is one. */
export function sqlState(error: unknown): string | undefined {
  const cause = error instanceof StrataError ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function wrap(error: unknown, target: SqlTarget): unknown {
  return error instanceof StrataError ? error : postgresFailure(error, 'run a statement', target.connectionString);
}

/** A connection inside an open transaction, and whether a statement of it failed (PostgreSQL then only rolls back). */
export interface OpenTransaction {
  client: PoolClient;
  failed: boolean;
}

/** The `Sql` of a connection inside an open transaction: everything runs on it, as it is. */
export function transactionSql(open: OpenTransaction, target: SqlTarget): Sql {
  const sql: Sql = {
    async query(text, values) {
      try {
        return await open.client.query(text, values as unknown[] | undefined);
      } catch (error) {
        open.failed = true;
        throw wrap(error, target);
      }
    },
    arrays: async (text, values) => (await sql.query({ text, values, rowMode: 'array' } as unknown as string)).rows as never,
    write: (work) => work(sql),
    read: (work) => work(sql),
  };
  return sql;
}

/**
 * Run `work` in a transaction of its own on a connection of the pool, started by the `begin` statement:
 * committed when it resolves, rolled back when it throws (its very error rethrown). A statement that
 * failed while `work` went on anyway fails the commit: PostgreSQL would only roll back, silently.
 */
export async function inTransaction<T>(target: SqlTarget, begin: string, work: (sql: Sql, open: OpenTransaction) => Promise<T>): Promise<T> {
  target.ensureOpen();
  await target.ready();
  let client: PoolClient;
  try {
    client = await target.pool().connect();
  } catch (error) {
    throw postgresFailure(error, 'connect', target.connectionString);
  }
  const open: OpenTransaction = { client, failed: false };
  const sql = transactionSql(open, target);
  let broken = false;
  try {
    await sql.query(begin);
    const result = await work(sql, open);
    if (open.failed) throw new StrataError('STORE_FAILURE', 'A statement of the transaction failed and its error was not passed on; nothing of it was written.');
    await sql.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      // The connection is gone: the server has rolled the transaction back itself.
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

/** The `Sql` of the pool for one tenant: reads run alone, writes in a transaction of their own under the tenant's lock. */
export function poolSql(target: SqlTarget, writeKey: string): Sql {
  const sql: Sql = {
    async query(text, values) {
      target.ensureOpen();
      await target.ready();
      try {
        return await target.pool().query(text, values as unknown[] | undefined);
      } catch (error) {
        throw wrap(error, target);
      }
    },
    write: (work) =>
      inTransaction(target, 'BEGIN', async (sql) => {
        await lockTenantWrites(sql, writeKey);
        return work(sql);
      }),
    arrays: async (text, values) => (await sql.query({ text, values, rowMode: 'array' } as unknown as string)).rows as never,
    read: (work) => inTransaction(target, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work),
  };
  return sql;
}

/** Take the tenant's write lock for the rest of the transaction. */
export async function lockTenantWrites(sql: Sql, writeKey: string): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1::bigint)', [writeKey]);
}
