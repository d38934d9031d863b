/**
 * Work the server does after an answer has gone (the proxy records a turn once its reply has been
 * sent): tracked per session, so the session's next request can wait for it and a stop can drain it.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<unknown>>();
  /** The last work started for each session, while it runs. */
  private readonly latest = new Map<string, Promise<unknown>>();

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  /** Run `work` for `key` now, after the work already started for it; a failure goes to `onError`. */
  run(key: string, work: () => Promise<unknown>): void {
    const before = this.latest.get(key) ?? Promise.resolve();
    const promise = before.then(work).catch(this.onError);
    this.running.add(promise);
    this.latest.set(key, promise);
    void promise.finally(() => {
      this.running.delete(promise);
      if (this.latest.get(key) === promise) this.latest.delete(key);
    });
  }

  /** Run `work` now and hand back its result, counting it as running until it ends (a request's handler). */
  hold<T>(work: () => Promise<T>): Promise<T> {
    const promise = work();
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.finally(() => this.running.delete(settled));
    return promise;
  }

  /** Resolves once the work started for `key` so far has ended, or after `boundMs`, whichever is first. */
  async idle(key: string, boundMs: number): Promise<void> {
    const current = this.latest.get(key);
    if (current === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([current, new Promise((resolve) => (timer = setTimeout(resolve, boundMs)))]);
    clearTimeout(timer);
  }

  /** Resolves once everything started so far (and anything it starts meanwhile) has ended. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

/** The background work of a server whose options may give one; failures go to `onUnexpected`. */
export function backgroundOf(options: { background?: BackgroundWork; onUnexpected?: (error: unknown, requestId: string) => void }): BackgroundWork {
  return options.background ?? new BackgroundWork((error) => options.onUnexpected?.(error, 'background'));
}
