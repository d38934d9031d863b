/** A time limit and the caller's signal, folded into one signal that the HTTP client obeys. */
export interface Deadline {
  /** Aborted when the caller aborts or the time runs out. */
  readonly signal: AbortSignal;
  /** True once the time ran out (and the caller had not aborted first). */
  readonly timedOut: boolean;
  /** True once the caller's own signal aborted. */
  readonly cancelled: boolean;
  /** Start the clock again: for streams, the limit applies to each wait for the next piece. */
  restart(): void;
  /** Stop the clock until the next `restart` (while the caller holds a streamed piece). */
  pause(): void;
  /**
   * Settle with `promise`, or reject as soon as the signal aborts, even while the client sleeps
   * between retries (its back-off and retry-after waits do not watch the signal).
   */
  race<T>(promise: Promise<T>): Promise<T>;
  /** Stop the clock and stop listening to the caller's signal. */
  dispose(): void;
}

export function startDeadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expire = (): void => {
    if (controller.signal.aborted) return;
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  };
  const cancel = (): void => {
    if (!controller.signal.aborted) controller.abort(callerSignal?.reason);
  };
  const pause = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const restart = (): void => {
    pause();
    if (!controller.signal.aborted) timer = setTimeout(expire, timeoutMs);
  };
  if (callerSignal?.aborted === true) cancel();
  else callerSignal?.addEventListener('abort', cancel, { once: true });
  restart();
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    get cancelled() {
      return !timedOut && callerSignal?.aborted === true;
    },
    restart,
    pause,
    race<T>(promise: Promise<T>): Promise<T> {
      const { signal } = controller;
      if (signal.aborted) {
        promise.catch(() => undefined);
        return Promise.reject(signal.reason as Error);
      }
      return new Promise<T>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        promise.then(
          (value) => {
            signal.removeEventListener('abort', onAbort);
            resolve(value);
          },
          (error: unknown) => {
            signal.removeEventListener('abort', onAbort);
            reject(error as Error);
          },
        );
      });
    },
    dispose(): void {
      pause();
      callerSignal?.removeEventListener('abort', cancel);
    },
  };
}
