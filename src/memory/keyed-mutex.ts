import type { SessionLock } from '../store/session-lock.js';

/**
 * Serialises async work per key (one session's turns run in order); different keys never wait on each
 * other. The in-process `SessionLock`: it holds within one process only.
 */
export class KeyedMutex implements SessionLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
