import { describe, expect, it } from 'vitest';
import { FIRST_LOOK_MS, TendSchedule, type TendScheduleOptions } from '../../src/memory/maintenance/tend-schedule.js';

const HOUR = 3_600_000;

/** Timers fired by hand, and a clock they move. */
function manualTimers(start: string): { options: Pick<TendScheduleOptions, 'setTimer' | 'now'>; waits: number[]; fire: () => Promise<void> } {
  let time = Date.parse(start);
  const pending: Array<{ work: () => void; ms: number; cancelled: boolean }> = [];
  const waits: number[] = [];
  return {
    options: {
      now: () => new Date(time),
      setTimer: (work, ms) => {
        const timer = { work, ms, cancelled: false };
        pending.push(timer);
        waits.push(ms);
        return { cancel: () => (timer.cancelled = true) };
      },
    },
    waits,
    fire: async () => {
      const timer = pending.filter((entry) => !entry.cancelled).at(-1);
      if (timer === undefined) throw new Error('no timer armed');
      timer.cancelled = true;
      time += timer.ms;
      timer.work();
      // Let the look it started finish.
      for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('the maintenance schedule', () => {
  it('runs a minute after start when no run is recent, then every interval', async () => {
    const timers = manualTimers('2026-05-01T09:00:00.000Z');
    const runs: string[] = [];
    const schedule = new TendSchedule({
      everyMs: 24 * HOUR,
      tend: () => Promise.resolve(runs.push(timers.options.now().toISOString())),
      lastRunAt: () => Promise.resolve(runs.at(-1) ?? null),
      hasMemories: () => Promise.resolve(true),
      onError: (error) => {
        throw error;
      },
      ...timers.options,
    });
    schedule.start();
    expect(timers.waits).toEqual([FIRST_LOOK_MS]);
    await timers.fire();
    expect(runs).toEqual(['2026-05-01T09:01:00.000Z']);
    expect(timers.waits.at(-1)).toBe(24 * HOUR);
    await timers.fire();
    expect(runs).toEqual(['2026-05-01T09:01:00.000Z', '2026-05-02T09:01:00.000Z']);
    await schedule.close();
  });

  it('waits out a run made elsewhere within the interval, skips a tenant without memories, and reports a failed run without stopping', async () => {
    const timers = manualTimers('2026-05-01T09:00:00.000Z');
    const errors: unknown[] = [];
    let memories = false;
    let calls = 0;
    const schedule = new TendSchedule({
      everyMs: 10 * HOUR,
      tend: () => {
        calls += 1;
        return Promise.reject(new Error('disk full'));
      },
      // Another process ran two hours before this one started.
      lastRunAt: () => Promise.resolve('2026-05-01T07:00:00.000Z'),
      hasMemories: () => Promise.resolve(memories),
      onError: (error) => errors.push(error),
      ...timers.options,
    });
    schedule.start();
    await timers.fire();
    // 09:01 is 2 h 1 min after that run: wait the rest of the interval.
    expect(timers.waits.at(-1)).toBe(10 * HOUR - (2 * HOUR + FIRST_LOOK_MS));
    await timers.fire();
    expect(calls).toBe(0);
    expect(timers.waits.at(-1)).toBe(10 * HOUR);
    memories = true;
    await timers.fire();
    expect(calls).toBe(1);
    expect(errors.map((error) => (error as Error).message)).toEqual(['disk full']);
    expect(timers.waits.at(-1)).toBe(10 * HOUR);
    await schedule.close();
  });
});

describe('the maintenance schedule, when things go wrong', () => {
  it('looks again after a failed read, and waits out an interval longer than a timer can in steps', async () => {
    const timers = manualTimers('2026-05-01T09:00:00.000Z');
    const errors: unknown[] = [];
    let reads = 0;
    const schedule = new TendSchedule({
      everyMs: 1000 * HOUR,
      tend: () => Promise.resolve(),
      lastRunAt: () => {
        reads += 1;
        return reads === 1 ? Promise.reject(new Error('database is locked')) : Promise.resolve('2026-05-01T09:00:00.000Z');
      },
      hasMemories: () => Promise.resolve(true),
      onError: (error) => errors.push(error),
      ...timers.options,
    });
    schedule.start();
    await timers.fire();
    expect(errors.map((error) => (error as Error).message)).toEqual(['database is locked']);
    // Armed again, and never for longer than a timer can wait (Node fires a longer one at once).
    expect(timers.waits.at(-1)).toBe(2 ** 31 - 1);
    await timers.fire();
    expect(timers.waits.at(-1)).toBe(1000 * HOUR - (2 ** 31 - 1) - FIRST_LOOK_MS);
    await schedule.close();
  });
});
