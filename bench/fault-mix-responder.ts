/**
 * The memory model of the fault-mix bench, as a scripted-server step chooser. Each turn gets a seeded
 * fault for its own calls: 30 % time-outs, 30 % malformed JSON (half malformed again on the one retry,
 * so the turn is queued for a background retry; half answered well on the retry), 10 % HTTP 500,
 * 30 % well-formed.
 * Background retries of earlier turns meet the transient faults at the same rates (30 % time-out,
 * 10 % HTTP 500) while the faults last. A third of well-formed answers carry an ungrounded entry.
 */
import type { RecordedRequest, ScriptedStep } from '../test/support/scripted-openai-server.js';
import { NO_CONSOLIDATION, exchangeKey, exchangeOf, memoryAnswer } from './memory-answer.js';
import { seededRandom } from './seeded-random.js';

export type TurnFault = 'timeout' | 'malformed-twice' | 'malformed-once' | 'server-error' | 'none';

/** The seeded fault of each of `turns` turns. */
export function planFaults(turns: number, seed: number): TurnFault[] {
  const next = seededRandom(seed);
  return Array.from({ length: turns }, () => {
    const roll = next();
    if (roll < 0.3) return 'timeout';
    if (roll < 0.45) return 'malformed-twice';
    if (roll < 0.6) return 'malformed-once';
    if (roll < 0.7) return 'server-error';
    return 'none';
  });
}

export interface FaultMixResponder {
  /** The step for one request. */
  answer(request: RecordedRequest): ScriptedStep;
  /** The turn being recorded now and its fault. */
  expect(contents: readonly string[], fault: TurnFault): void;
  /** From now on every request gets a well-formed answer. */
  stopFaults(): void;
  /** Ungrounded entries sent in well-formed answers so far. */
  ungroundedSent(): number;
}

export function createFaultMixResponder(seed: number): FaultMixResponder {
  const next = seededRandom(seed);
  let faulting = true;
  let current: { key: string; fault: TurnFault; attempts: number } | null = null;
  let ungrounded = 0;

  const wellFormed = (request: RecordedRequest): ScriptedStep => {
    const withUngrounded = next() < 1 / 3;
    if (withUngrounded) ungrounded += 1;
    return memoryAnswer(exchangeOf(request), { ungrounded: withUngrounded });
  };

  const currentTurn = (request: RecordedRequest, fault: TurnFault, attempt: number): ScriptedStep => {
    switch (fault) {
      case 'timeout':
        return { hang: true };
      case 'server-error':
        return { status: 500 };
      case 'malformed-twice':
        return { malformed: attempt === 1 ? 'not-json' : 'truncated' };
      case 'malformed-once':
        return attempt === 1 ? { malformed: 'wrong-shape' } : wellFormed(request);
      case 'none':
        return wellFormed(request);
    }
  };

  const backgroundRetry = (request: RecordedRequest): ScriptedStep => {
    const roll = next();
    if (roll < 0.3) return { hang: true };
    if (roll < 0.4) return { status: 500 };
    return wellFormed(request);
  };

  return {
    answer: (request) => {
      const exchange = exchangeOf(request);
      // Consolidations (every 15 turns) are answered at once: the faults are per turn.
      if (exchange.length === 0) return NO_CONSOLIDATION;
      if (!faulting) return wellFormed(request);
      const key = exchangeKey(exchange.map((message) => message.content));
      if (current !== null && key === current.key) {
        current.attempts += 1;
        return currentTurn(request, current.fault, current.attempts);
      }
      return backgroundRetry(request);
    },
    expect: (contents, fault) => {
      current = { key: exchangeKey(contents), fault, attempts: 0 };
    },
    stopFaults: () => {
      faulting = false;
    },
    ungroundedSent: () => ungrounded,
  };
}
