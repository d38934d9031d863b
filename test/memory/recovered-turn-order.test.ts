import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { createMemory } from '../../src/memory/create-memory.js';
import type { ProcessTurnOptions } from '../../src/managers/memory-manager.js';
import { createScriptedMemoryManager, type ScriptedTurn } from '../../src/testing/index.js';

const AMOUNTS = ['$1000', '$2000', '$3000', '$4000'];

/**
 * A manager that keeps the budget as one fact, set to the turn's amount, falling back (retryably) for the
 * turns in `failing` until `healthy()`.
 */
function budgetManager(amounts: readonly string[], failing: ReadonlySet<number>, healthy: () => boolean) {
  return createScriptedMemoryManager((turn: ProcessTurnOptions): ScriptedTurn => {
    if (failing.has(turn.turn) && !healthy()) {
      return { fallback: { reason: 'timeout', retry: true, code: 'MODEL_TIMEOUT', message: 'The memory model timed out.' } };
    }
    const amount = amounts[turn.turn - 1] ?? '';
    const existing = turn.facts.find((fact) => fact.key === 'budget');
    const entry = { text: `budget: ${amount}`, kind: 'constraint' as const, key: 'budget', sourceMessageIds: [] };
    return { diff: existing === undefined ? { add: [entry] } : { update: [entry] } };
  });
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function run(failing: ReadonlySet<number>, amounts: readonly string[] = AMOUNTS): Promise<{ final: string[]; atTurn: string[][] }> {
  let healthy = false;
  const memory = createMemory({ path: ':memory:', env: { STRATA_RETRY_BASE_MS: '5', STRATA_LOG_LEVEL: 'silent' }, manager: budgetManager(amounts, failing, () => healthy) });
  try {
    const session = await memory.sessions.create();
    for (const amount of amounts) await session.record({ user: `Actually the budget changed to ${amount}.`, assistant: `Noted: ${amount}.` });
    healthy = true;
    await until(async () => (await session.turns()).every((turn) => turn.status === 'summarised'), 'every turn is summarised');
    const final = (await session.facts()).map((fact) => fact.text);
    const atTurn: string[][] = [];
    for (let turn = 1; turn <= amounts.length; turn += 1) atTurn.push((await session.facts({ atTurn: turn })).map((fact) => fact.text));
    return { final, atTurn };
  } finally {
    await memory.close();
  }
}

describe('turns whose memory is recovered after later turns', () => {
  it('leave the document as if every turn had succeeded on time: the newest value stands, and each turn\'s document is right', async () => {
    const faultFree = await run(new Set());
    expect(faultFree.final).toEqual(['budget: $4000']);
    expect(faultFree.atTurn).toEqual([['budget: $1000'], ['budget: $2000'], ['budget: $3000'], ['budget: $4000']]);
    for (const failing of [new Set([1, 2, 3]), new Set([1]), new Set([2]), new Set([1, 3])]) {
      expect(await run(failing)).toEqual(faultFree);
    }
  });
});

describe('random faults over random corrections', () => {
  it('give the same final facts and the same document after every turn as a fault-free run', async () => {
    const amounts = fc.uniqueArray(fc.integer({ min: 1, max: 99 }).map((hundreds) => `$${hundreds}00`), { minLength: 2, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(amounts, fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), async (sequence, faults) => {
        const failing = new Set(faults.flatMap((fails, index) => (fails && index < sequence.length ? [index + 1] : [])));
        expect(await run(failing, sequence)).toEqual(await run(new Set(), sequence));
      }),
      { numRuns: 12, seed: 2026 },
    );
  });
});
