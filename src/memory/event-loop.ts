/** Let the event loop turn once (timers, I/O, other requests) before long synchronous work goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
