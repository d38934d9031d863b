/**
 * The session-lock port: what serialises the storing of one session's turns (and its deletion), so turn
 * numbers never collide. `createMemory` uses an in-process lock by default, which holds within one
 * process; an adapter for a store shared by several servers gives one that holds across them (a
 * PostgreSQL advisory lock, for instance).
 */
export interface SessionLock {
  /**
   * Run `work` once no other work holds the lock of the tenant's session; different sessions (and the
   * same session id in another tenant) never wait on each other.
   */
  run<T>(session: LockedSession, work: () => Promise<T>): Promise<T>;
}

/** What a session lock is taken on. */
export interface LockedSession {
  tenant: string;
  sessionId: string;
}
