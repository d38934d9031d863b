/**
 * The background schedule of a tenant's maintenance: a minute after the tenant is first used in this
 * process, and every interval after, a run is made unless one was made within the interval (by this
 * process or another sharing the store: the kept runs say when) or the tenant has no memories. Its timer
 * never keeps a finished program alive; closing waits for a run under way.
 */

/** How long after the tenant's first use the schedule first looks. */
export const FIRST_LOOK_MS = 60_000;

/** The longest wait a timer takes (Node fires a longer one at once); a longer wait is looked at again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface TimerControl {
  cancel(): void;
}

export interface TendScheduleOptions {
  everyMs: number;
  /** Make a run. */
  tend(): Promise<unknown>;
  /** When the tenant's newest run started, or null. */
  lastRunAt(): Promise<string | null>;
  hasMemories(): Promise<boolean>;
  now(): Date;
  onError(error: unknown): void;
  /** Call `work` after `ms` (default: an unreferenced `setTimeout`). */
  setTimer?: (work: () => void, ms: number) => TimerControl;
}

function unreferencedTimer(work: () => void, ms: number): TimerControl {
  const timer = setTimeout(work, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
}

export class TendSchedule {
  private timer: TimerControl | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly setTimer: (work: () => void, ms: number) => TimerControl;

  constructor(private readonly options: TendScheduleOptions) {
    this.setTimer = options.setTimer ?? unreferencedTimer;
  }

  /** Look first after `FIRST_LOOK_MS`. */
  start(): void {
    this.arm(FIRST_LOOK_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    await this.running;
  }

  private arm(ms: number): void {
    if (this.closed) return;
    this.timer?.cancel();
    this.timer = this.setTimer(() => {
      this.running = this.look()
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => {
          this.running = undefined;
        });
    }, Math.min(LONGEST_TIMER_MS, Math.max(1, ms)));
  }

  /** Run when due; whatever fails, the next look is armed (after the interval, or when the last run's interval ends). */
  private async look(): Promise<void> {
    const { everyMs } = this.options;
    let next = everyMs;
    try {
      const last = await this.options.lastRunAt();
      const since = last === null ? Number.POSITIVE_INFINITY : this.options.now().getTime() - Date.parse(last);
      if (since < everyMs) next = everyMs - since;
      else if (await this.options.hasMemories()) await this.options.tend();
    } finally {
      this.arm(next);
    }
  }
}
