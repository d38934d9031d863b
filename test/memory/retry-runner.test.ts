/** The retry runner's order within a session: oldest turn first, and the turns behind a failing one held back as long. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MemoryGate } from '../../src/memory/memory-gate.js';
import { createRetryRunner, type RetryOutcome } from '../../src/memory/retry-runner.js';
import type { MemoryRetry, RetryRepository } from '../../src/store/store.js';
import { makeTurnSummary, seedSession } from '../contract/store-contract.js';
import { createInMemoryStore } from '../support/in-memory-store.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number): string => new Date(T0 + ms).toISOString();

/** A retry queue of plain entries, ordered like the store's. */
function queueOf(entries: MemoryRetry[]): RetryRepository & { entries: MemoryRetry[] } {
  const byTurn = (): MemoryRetry[] => [...entries].sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.turn - b.turn);
  return {
    entries,
    put: async ({ retry }) => {
      const at = entries.findIndex((entry) => entry.sessionId === retry.sessionId && entry.turn === retry.turn);
      if (at >= 0) entries[at] = { ...retry };
      else entries.push({ ...retry });
    },
    listDue: async ({ now, limit }) => byTurn().filter((entry) => entry.nextAttemptAt <= now).slice(0, limit),
    list: async ({ sessionId }) => byTurn().filter((entry) => entry.sessionId === sessionId),
    nextDue: async () => byTurn().map((entry) => entry.nextAttemptAt).sort()[0] ?? null,
    remove: async ({ sessionId, turn }) => {
      const at = entries.findIndex((entry) => entry.sessionId === sessionId && entry.turn === turn);
      if (at >= 0) entries.splice(at, 1);
    },
    count: async () => entries.length,
    // One runner at a time in these tests: every due session is free.
    claimDue: async ({ now, limit }) => [...new Set(byTurn().filter((entry) => entry.nextAttemptAt <= now).map((entry) => entry.sessionId))].slice(0, limit),
    release: async () => undefined,
  };
}

function entry(turn: number, nextAttemptAt: string, reason = 'timeout'): MemoryRetry {
  return { sessionId: 's', turn, attempts: 1, nextAttemptAt, reason, lastError: 'timed out', createdAt: iso(0), updatedAt: iso(0) };
}

/** Run one pass of a runner over `retries` at time `now`, trying turns with `outcomes`; gives the turns tried in order. */
async function pass(retries: ReturnType<typeof queueOf>, now: number, outcomes: Record<number, RetryOutcome>): Promise<number[]> {
  const tried: number[] = [];
  const runner = createRetryRunner({
    repositories: { retries },
    gate: new MemoryGate(),
    now: () => new Date(T0 + now),
    baseDelayMs: 1000,
    retryTurn: async (queued) => {
      tried.push(queued.turn);
      const outcome = outcomes[queued.turn] ?? 'summarised';
      if (outcome !== 'again') await retries.remove({ sessionId: queued.sessionId, turn: queued.turn });
      return { outcome, message: 'timed out', reason: 'timeout' };
    },
    onError: (error) => {
      throw error;
    },
    claimant: 'test-runner',
  });
  runner.schedule();
  // The first pass comes 20 ms after a due entry is found (fake timers: no time really passes).
  await vi.advanceTimersByTimeAsync(25);
  await runner.close();
  return tried;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the retry runner, within one session', () => {

  it('stops at a turn that fails again and holds every turn behind it back until that turn is next due', async () => {
    const retries = queueOf([entry(2, iso(0)), entry(3, iso(0), 'waiting'), entry(4, iso(0), 'waiting')]);
    expect(await pass(retries, 0, { 2: 'again' })).toEqual([2]);
    const [blocker, ...behind] = retries.entries.sort((a, b) => a.turn - b.turn);
    expect(blocker?.attempts).toBe(2);
    expect(blocker?.nextAttemptAt).toBe(iso(2000));
    expect(behind.map((queued) => queued.nextAttemptAt)).toEqual([iso(2000), iso(2000)]);
  });

  it('goes on to the turns behind one that succeeds, oldest first, in the same pass', async () => {
    const retries = queueOf([entry(4, iso(5000), 'waiting'), entry(2, iso(0)), entry(3, iso(5000), 'waiting')]);
    expect(await pass(retries, 0, {})).toEqual([2, 3, 4]);
    expect(retries.entries).toEqual([]);
  });

  it('tries nothing while the oldest turn is not due, even when a later one is, and holds the later one back to it', async () => {
    const retries = queueOf([entry(2, iso(60_000)), entry(3, iso(0), 'waiting')]);
    expect(await pass(retries, 0, {})).toEqual([]);
    expect(retries.entries.find((queued) => queued.turn === 3)?.nextAttemptAt).toBe(iso(60_000));
  });
});

describe('the retry runner, over time', () => {

  it('looks again when a turn is due after a pass that came too early, not after the wait for sessions held elsewhere', async () => {
    const retries = queueOf([entry(1, iso(100))]);
    let clock = 0;
    const tried: number[] = [];
    const runner = createRetryRunner({
      repositories: { retries },
      gate: new MemoryGate(),
      now: () => new Date(T0 + clock),
      baseDelayMs: 1000,
      claimant: 'test-runner',
      retryTurn: async (queued) => {
        tried.push(queued.turn);
        await retries.remove({ sessionId: queued.sessionId, turn: queued.turn });
        return { outcome: 'summarised' };
      },
      onError: (error) => {
        throw error;
      },
    });
    runner.schedule();
    // The pass planned for 100 ms sees a clock 50 ms behind (a timer fired early, the clock stepped back): nothing is due.
    await vi.advanceTimersByTimeAsync(1);
    clock = 50;
    await vi.advanceTimersByTimeAsync(100);
    expect(tried).toEqual([]);
    clock = 100;
    await vi.advanceTimersByTimeAsync(60);
    await runner.close();
    expect(tried).toEqual([1]);
  });
});

describe('retry runners sharing one store', () => {

  it('retry each session once between them: a runner skips the sessions another has claimed', async () => {
    const tenant = createInMemoryStore().tenant('shared');
    for (const sessionId of ['s1', 's2', 's3']) {
      await seedSession(tenant, sessionId, [['The budget is $1,000.', 'Noted.'], ['Make it $2,000.', 'Done.']]);
      for (const turn of [1, 2]) {
        await tenant.turns.upsert({ summary: makeTurnSummary(sessionId, turn, { status: 'pending-retry' }) });
        await tenant.retries.put({ retry: { ...entry(turn, iso(0)), sessionId } });
      }
    }
    const tried: string[] = [];
    const runner = (claimant: string): ReturnType<typeof createRetryRunner> =>
      createRetryRunner({
        repositories: { retries: tenant.retries },
        gate: new MemoryGate(),
        now: () => new Date(T0),
        baseDelayMs: 1000,
        claimant,
        retryTurn: async (queued) => {
          tried.push(`${queued.sessionId}/${String(queued.turn)}`);
          // The model takes a while: the other runner looks at the queue meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 10));
          await tenant.retries.remove({ sessionId: queued.sessionId, turn: queued.turn });
          return { outcome: 'summarised' };
        },
        onError: (error) => {
          throw error;
        },
      });
    const runners = [runner('server-a'), runner('server-b')];
    for (const each of runners) each.schedule();
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all(runners.map((each) => each.close()));
    expect(tried.sort()).toEqual(['s1/1', 's1/2', 's2/1', 's2/2', 's3/1', 's3/2']);
    expect(await tenant.retries.count()).toBe(0);
  });
});
