/**
 * The session-lock port: what serialises the storing of one session's turns (and its deletion), so turn
 * numbers never collide. `createMemory` uses an in-process lock by default, which holds within one
 * process; an adapter for a store shared by several servers gives one that holds across them (a
 * PostgreSQL advisory lock, for instance).
 */
export interface SessionLock {
  /** Run `work` once no other work holds the session's lock; different sessions never wait on each other. */
  run<T>(sessionId: string, work: () => Promise<T>): Promise<T>;
}
