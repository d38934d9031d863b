/**
 * The two phases of a live chat meet here. Phase 2 (memory work after a reply) of one session runs in
 * order behind that session's earlier phase-2 work; the next phase 1 of the session waits for it, but
 * only up to a bound, after which it proceeds on stale memory and says so. Sessions never wait on each other.
 */
export interface GateWait {
  /** True when the bound passed before the session's memory work finished. */
  stale: boolean;
  /** Milliseconds spent waiting (0 when nothing was running). */
  waitedMs: number;
}

export class MemoryGate {
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly monotonic: () => number = () => performance.now()) {}

  /** Run `work` after the session's earlier memory work; its failure is the caller's to handle. */
  enqueue<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(sessionId) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(sessionId, tail);
    void tail.then(() => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    });
    return result;
  }

  /** Wait for the session's queued memory work, at most `boundMs` milliseconds. */
  async settle(sessionId: string, options: { boundMs: number }): Promise<GateWait> {
    const tail = this.tails.get(sessionId);
    if (tail === undefined) return { stale: false, waitedMs: 0 };
    const start = this.monotonic();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'bound'>((resolve) => {
      timer = setTimeout(() => resolve('bound'), Math.max(0, options.boundMs));
    });
    try {
      const outcome = await Promise.race([tail.then(() => 'done' as const), bound]);
      return { stale: outcome === 'bound', waitedMs: Math.max(0, this.monotonic() - start) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Wait for every session's memory work (before closing the store). */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
