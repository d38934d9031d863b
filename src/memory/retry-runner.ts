/**
 * The background side of the persisted retry queue: turns whose memory manager fell back but may succeed
 * later (a timeout, an endpoint down) are tried again with exponential backoff until they are summarised.
 * Each session's turns are retried oldest first, behind its other memory work: a pass starts at its oldest
 * queued turn once that is due and stops at the first turn that fails again, holding the turns behind it
 * back as long, so their diffs are applied in turn order (see `turn-order.ts`). The queue lives in the store, so
 * it survives a restart: a new memory picks it up on open. Processes or servers sharing the store claim the
 * sessions they retry, so two never retry one session at once; a claim left by one that died lapses.
 */
import type { MemoryRetry, TenantRepositories } from '../store/store.js';
import type { MemoryGate } from './memory-gate.js';

/** How one retried turn ended. */
export type RetryOutcome = 'summarised' | 'again' | 'ended';

export interface RetryRunnerOptions {
  repositories: Pick<TenantRepositories, 'retries'>;
  gate: MemoryGate;
  /**
   * Try the turn again and persist the result; says whether it is done, should be tried again, or gave up
   * for good, and for `again` why this attempt failed.
   */
  retryTurn: (entry: MemoryRetry) => Promise<{ outcome: RetryOutcome; message?: string; reason?: string }>;
  now: () => Date;
  /** First wait in milliseconds; doubles per attempt up to `maxDelayMs`. */
  baseDelayMs: number;
  /** Longest wait between attempts (default `RETRY_MAX_DELAY_MS`, 5 minutes). */
  maxDelayMs?: number;
  /** Called when a pass fails for a reason outside the turns (the store is gone …); the runner tries again later. */
  onError?: (error: unknown) => void;
  /**
   * Who this runner is to other processes or servers sharing the store: a session's retries are run
   * by the one runner that claimed it (`RetryRepository.claimDue`), for `CLAIM_MS` at most.
   */
  claimant: string;
}

export interface RetryRunner {
  /** Look at the queue and plan the next pass (call after queueing a turn, and on open). */
  schedule(): void;
  /** Stop planning passes and wait for a running one. */
  close(): Promise<void>;
}

const DUE_BATCH = 100;
const SOONEST_MS = 20;
/** How long a claim on a session lasts: past it, another runner may retry the session (its runner died, or hangs). */
export const CLAIM_MS = 5 * 60_000;
/** How long to wait before looking again when every due session is claimed by another runner. */
const CLAIMED_ELSEWHERE_MS = 5_000;

/** Longest wait between attempts. */
export const RETRY_MAX_DELAY_MS = 5 * 60_000;

/** The wait before attempt `attempts + 1`. */
export function retryDelay(attempts: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, Math.min(30, attempts - 1)));
}

/** The queue entry of a turn whose first attempt failed for `reason`: due after the base delay. */
export function firstRetry(
  failure: { sessionId: string; turn: number; reason: string; message: string },
  options: { now: Date; baseDelayMs: number },
): MemoryRetry {
  const time = options.now.toISOString();
  return {
    sessionId: failure.sessionId,
    turn: failure.turn,
    attempts: 1,
    nextAttemptAt: new Date(options.now.getTime() + retryDelay(1, options.baseDelayMs, RETRY_MAX_DELAY_MS)).toISOString(),
    reason: failure.reason,
    lastError: failure.message,
    createdAt: time,
    updatedAt: time,
  };
}

export function createRetryRunner(options: RetryRunnerOptions): RetryRunner {
  const maxDelayMs = options.maxDelayMs ?? RETRY_MAX_DELAY_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  /**
   * When the last pass claimed no session, the time it looked: turns due by then were held by other runners.
   * (A pass can also come before anything is due: a timer fires a little early, the clock steps back.)
   */
  let claimedNothingAt: string | undefined;
  const { retries } = options.repositories;

  /** Hold the session's queued turns after `turn` back until `time` at least (they wait for it). */
  const holdLater = async (entries: readonly MemoryRetry[], turn: number, time: string): Promise<void> => {
    for (const later of entries) {
      if (later.turn <= turn || later.nextAttemptAt >= time) continue;
      await options.repositories.retries.put({ retry: { ...later, nextAttemptAt: time } });
    }
  };

  /** Try the session's queued turns oldest first, until one fails again or is not due yet. */
  const retrySession = async (entries: readonly MemoryRetry[]): Promise<void> => {
    const now = options.now().toISOString();
    for (const entry of entries) {
      if (closed) return;
      // The oldest turn is not due yet: the turns behind it wait until it is.
      if (entry.nextAttemptAt > now && entry === entries[0]) return holdLater(entries, entry.turn, entry.nextAttemptAt);
      const { outcome, message, reason } = await options.retryTurn(entry);
      if (outcome !== 'again') continue;
      // A new kind of failure starts a new run of attempts (and of backoff): `attempts` counts the
      // attempts in a row that failed for `reason`.
      const attempts = reason === undefined || reason === entry.reason ? entry.attempts + 1 : 1;
      const time = options.now();
      const nextAttemptAt = new Date(time.getTime() + retryDelay(attempts, options.baseDelayMs, maxDelayMs)).toISOString();
      await options.repositories.retries.put({
        retry: { ...entry, reason: reason ?? entry.reason, attempts, nextAttemptAt, lastError: message ?? entry.lastError, updatedAt: time.toISOString() },
      });
      // Later turns wait for this one, so diffs land in turn order.
      return holdLater(entries, entry.turn, nextAttemptAt);
    }
  };

  const pass = async (): Promise<void> => {
    const now = options.now();
    const claimant = options.claimant;
    const sessions = await retries.claimDue({ now: now.toISOString(), until: new Date(now.getTime() + CLAIM_MS).toISOString(), claimant, limit: DUE_BATCH });
    claimedNothingAt = sessions.length === 0 ? now.toISOString() : undefined;
    // A due turn brings its whole session: every queued turn of it, oldest first; the claim ends with the pass.
    await Promise.all(
      sessions.map((sessionId) =>
        options.gate.enqueue(sessionId, async () => {
          try {
            await retrySession(await retries.list({ sessionId }));
          } finally {
            await retries.release({ sessionId, claimant });
          }
        }),
      ),
    );
  };

  const runDue = (): Promise<void> => {
    running ??= pass()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = undefined;
        schedule();
      });
    return running;
  };

  const plan = async (): Promise<void> => {
    const next = await retries.nextDue();
    if (next === null || closed) return;
    const heldElsewhere = claimedNothingAt !== undefined && next <= claimedNothingAt;
    const wait = Math.max(heldElsewhere ? CLAIMED_ELSEWHERE_MS : SOONEST_MS, Date.parse(next) - options.now().getTime());
    clearTimeout(timer);
    timer = setTimeout(() => void runDue(), wait);
    // A queued retry must not keep a finished program alive; the queue is persisted for the next start.
    timer.unref();
  };

  function schedule(): void {
    if (closed || running !== undefined) return;
    plan().catch((error: unknown) => options.onError?.(error));
  }

  return {
    schedule,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
