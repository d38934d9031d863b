import { KeyedMutex } from '../core/keyed-mutex.js';
import type { SessionLock } from '../store/session-lock.js';

/** The in-process `SessionLock` (the default): it holds within one process only. */
export function inProcessSessionLock(): SessionLock {
  const mutex = new KeyedMutex();
  return { run: ({ tenant, sessionId }, work) => mutex.run(`${tenant}\u0000${sessionId}`, work) };
}
