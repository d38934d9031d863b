import { afterEach, describe, expect, it, vi } from 'vitest';
import { isStrataError } from '../../../src/core/errors.js';
import { createLocalMemoryManager } from '../../../src/managers/local/index.js';
import { turnRequest } from '../../support/turn-request.js';
import { turnsDuring } from '../../support/event-loop-turns.js';
import { watchTakes } from '../../support/prepared-takes.js';

/** A long pasted report: hundreds of sentences with names, amounts, dates and times (about 60 KB). */
const REPORT = Array.from(
  { length: 600 },
  (_, index) =>
    `On ${1 + (index % 28)} March 2026 at ${8 + (index % 10)}:30, ${['Anna', 'Jonas', 'Priya', 'Mateo'][index % 4]} paid $${1_000 + index * 7} for batch ${index} in Lisbon, two weeks after the review.`,
).join(' ');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the local manager works on a long message in slices', () => {
  it('lets other work run between the slices of a long turn and derives exactly what it derives in one go', async () => {
    const turn = turnRequest(`Here is the payment report. ${REPORT} We must never pay a supplier in cash.`, 'Noted.');
    const whole = await createLocalMemoryManager({ sliceMs: 10_000 }).processTurn(turn);
    const sliced = await turnsDuring(() => createLocalMemoryManager({ sliceMs: 0 }).processTurn(turn));
    expect(sliced.result).toEqual(whole);
    expect(sliced.turns).toBeGreaterThan(50);
    expect(whole.diff.add.some((entry) => /cash/u.test(entry.text))).toBe(true);
  });

  it('builds a short turn straight through: with the default slice, no other work runs in between', async () => {
    const manager = createLocalMemoryManager();
    const turn = turnRequest('We must never deploy on Fridays; the launch is tomorrow.', 'Noted.');
    await manager.processTurn(turn);
    const again = await turnsDuring(() => manager.processTurn(turn));
    expect(again.turns).toBeLessThanOrEqual(1);
  });

  it('waits for the preparation of its opening message still in flight and takes it, rather than doing it again', async () => {
    const turn = turnRequest(`Here is the payment report. ${REPORT}`, 'Noted.');
    const fresh = await createLocalMemoryManager().processTurn(turn);
    const manager = createLocalMemoryManager({ sliceMs: 0 });
    const taken = watchTakes();
    const [opening] = turn.messages;
    if (opening === undefined) throw new Error('The turn has no message.');
    const preparing = manager.prepare?.({ sessionId: turn.sessionId, message: opening, timestamp: turn.timestamp });
    expect(preparing).toBeInstanceOf(Promise);
    expect(await manager.processTurn(turn)).toEqual(fresh);
    expect(taken).toEqual([true]);
  });

  it('leaves no rejection unhandled when a preparation whose promise the caller drops fails', async () => {
    const manager = createLocalMemoryManager({ sliceMs: 0 });
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      // (Content that is no text stands for any failure of the analysis.)
      const message = { id: 'broken', role: 'user' as const, speaker: null, content: null as unknown as string, sentAt: null };
      const preparing = manager.prepare?.({ sessionId: 's', message, timestamp: '2026-05-04T10:00:00Z' });
      expect(preparing).toBeInstanceOf(Promise);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(unhandled).toEqual([]);
      await expect(preparing).rejects.toThrow();
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it('refuses a slice time that is not a number of milliseconds from 0 to 10,000', () => {
    for (const sliceMs of [-1, Number.NaN, 10_001]) {
      let caught: unknown;
      try {
        createLocalMemoryManager({ sliceMs });
      } catch (error) {
        caught = error;
      }
      expect(isStrataError(caught) && caught.code === 'INVALID_CONFIG' && /sliceMs/u.test(caught.message)).toBe(true);
    }
  });
});
