import type Database from 'better-sqlite3';
/** Runs a synchronous database step as an async port call (waiting for an open transaction when needed). */
export type Run = <T>(work: () => T) => Promise<T>;

/**
 * `work` as a transaction that takes the write lock when it starts (BEGIN IMMEDIATE), so a write that reads
 * first waits for another process's write instead of failing at once (SQLITE_BUSY_SNAPSHOT); inside an open
 * transaction, a savepoint of it.
 */
export function immediately<A extends unknown[], R>(db: Database.Database, work: (...args: A) => R): (...args: A) => R {
  const transaction = db.transaction(work);
  return (...args: A): R => (db.inTransaction ? transaction(...args) : transaction.immediate(...args));
}
