import type { Pause } from './slices.js';

/** Let the event loop turn once (timers, I/O, other requests) before long synchronous work goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A pause for the steps of one long operation that lets the event loop turn only once `sliceMs` have
 * passed since the operation began or last let it turn: short work runs straight through (a turn of the
 * event loop lets other work in, which the operation then waits for), long work gives way in slices.
 * `now` is a monotonic clock in milliseconds.
 */
export function pacedPause(sliceMs: number, now: () => number = () => performance.now()): Pause {
  let since = now();
  return async () => {
    if (now() - since < sliceMs) return;
    await yieldToEventLoop();
    since = now();
  };
}
