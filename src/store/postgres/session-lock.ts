/**
 * The session lock held across servers: a PostgreSQL advisory lock per tenant and session, taken on a
 * connection of the lock's own pool and released when the work ends — or when the server holding it
 * dies, since the database ends a lost connection's session and its locks with it. Within one process
 * the same session's work queues in memory first, so a process never ties up two connections waiting
 * for one lock. `pg` is an optional dependency, loaded on the first lock taken.
 */
import type { Pool } from 'pg';
import { KeyedMutex } from '../../core/keyed-mutex.js';
import type { LockedSession, SessionLock } from '../session-lock.js';
import { advisoryKey, checkOut, openPool, postgresFailure, type CheckedOut } from './pool.js';

export interface PostgresSessionLockSettings {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /** Connections the lock may hold at once: sessions locked together by this process (default 10). */
  maxConnections?: number;
  /**
   * How long a lock (and a connection to take it on) is waited for before the work fails with
   * STORE_FAILURE, in ms (default 30,000). Work under the lock must not take another session's lock.
   */
  waitMs?: number;
}

export interface PostgresSessionLock extends SessionLock {
  /** Close the lock's connections (after the work holding them has ended). */
  close(): Promise<void>;
}

/** The lock's key: 64 bits of SHA-256 over tenant and session (a collision makes two sessions wait on each other now and then). */
export function sessionLockKey(session: LockedSession): string {
  return advisoryKey(`${session.tenant}\u0000${session.sessionId}`);
}

/**
 * A `SessionLock` for several Strata servers sharing one database.
 *
 * @example
 * const sessionLock = createPostgresSessionLock({ connectionString: process.env.DATABASE_URL! });
 * const memory = createMemory({ store, sessionLock });
 */

export function createPostgresSessionLock(settings: PostgresSessionLockSettings): PostgresSessionLock {
  const local = new KeyedMutex();
  let pool: Promise<Pool> | null = null;
  const failure = (error: unknown, doing: string): Error => postgresFailure(error, `${doing} the session lock`, settings.connectionString);
  const waitMs = Math.max(1, Math.floor(settings.waitMs ?? 30_000));

  const take = async (key: string): Promise<CheckedOut> => {
    pool ??= openPool({ connectionString: settings.connectionString, max: settings.maxConnections ?? 10, connectMs: waitMs });
    let connection: CheckedOut;
    try {
      // A connection lost while it holds the lock fails nothing but its work (its lock ends with it).
      connection = await checkOut(await pool);
    } catch (error) {
      throw failure(error, 'connect for');
    }
    try {
      await connection.client.query(`SET lock_timeout = ${String(waitMs)}`);
      await connection.client.query('SELECT pg_advisory_lock($1::bigint)', [key]);
      return connection;
    } catch (error) {
      connection.release(true);
      throw failure(error, 'take');
    }
  };

  const give = async (connection: CheckedOut, key: string): Promise<void> => {
    try {
      await connection.client.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
      connection.release();
    } catch {
      // A connection that cannot unlock is closed: its session ends, and the lock with it.
      connection.release(true);
    }
  };

  return {
    run: (session, work) => {
      const key = sessionLockKey(session);
      return local.run(key, async () => {
        const connection = await take(key);
        try {
          return await work();
        } finally {
          await give(connection, key);
        }
      });
    },
    close: async () => {
      const opened = pool;
      pool = null;
      if (opened !== null) await (await opened).end();
    },
  };
}
