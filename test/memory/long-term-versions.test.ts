/**
 * Versions and undo of long-term memories, as properties: whatever sequence of changes, deprecations,
 * restores, renames, undos and agent maintenance a memory goes through, every version is kept in order
 * (the history only grows, each version one more than the last), the memory is its last version, and an
 * undo brings back exactly the version before the last.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LongTermMemory, MemoryVersion } from '../../src/index.js';
import { testMemory } from '../support/memory-fixtures.js';

type Step = { kind: 'change'; value: string } | { kind: 'deprecate'; deprecated: boolean } | { kind: 'undo' } | { kind: 'rename'; name: string | null } | { kind: 'tend' };

const VALUES = ['Lives in Leeds.', 'Lives in York now.', 'Basically, to be honest, lives in York, you know, near the station, by the way, and walks to work on Mondays, if that makes sense, every week of the year, at the end of the day.', 'Never book flights before 7 am.', 'Prefers aisle seats.'];

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('change' as const), value: fc.constantFrom(...VALUES) }),
  fc.record({ kind: fc.constant('deprecate' as const), deprecated: fc.boolean() }),
  fc.record({ kind: fc.constant('undo' as const) }),
  fc.record({ kind: fc.constant('rename' as const), name: fc.constantFrom('home', 'home-city', null) }),
  fc.record({ kind: fc.constant('tend' as const) }),
);

const stateOf = (version: MemoryVersion | LongTermMemory): [string, boolean] => [version.value, version.deprecated];

describe('versions and undo of a long-term memory', () => {
  it('keeps every version in order, the memory as its last version, and undo as the version before the last', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 12 }), async (steps) => {
        const { memory, cleanup } = testMemory({ tendEveryHours: 0 });
        try {
          const api = memory.memories;
          const made = await api.add({ value: VALUES[0]! });
          let history = await api.history(made.id);
          for (const step of steps) {
            const before = history;
            if (step.kind === 'change') await api.change(made.id, { value: step.value });
            else if (step.kind === 'deprecate') await api.deprecate(made.id, { deprecated: step.deprecated });
            else if (step.kind === 'rename') await api.rename(made.id, step.name);
            else if (step.kind === 'tend') await api.tend({ agents: ['condenser', 'reviewer', 'tagger'] });
            else if (before.length === 1) {
              await expect(api.undo(made.id)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
            } else await api.undo(made.id);
            history = await api.history(made.id);
            // The history only grows, by one version per change of value or state, numbered in order.
            expect(history.slice(0, before.length)).toEqual(before);
            expect(history.map((version) => version.version)).toEqual(history.map((_, index) => index + 1));
            const renamedOrUntouched = step.kind === 'rename' || step.kind === 'tend' || (step.kind === 'undo' && before.length === 1);
            if (!renamedOrUntouched) expect(history.length).toBe(before.length + 1);
            if (step.kind === 'undo' && before.length > 1) expect(stateOf(history.at(-1)!)).toEqual(stateOf(before.at(-2)!));
            // The memory is its last version.
            const current = await api.get(made.id);
            expect(stateOf(current)).toEqual(stateOf(history.at(-1)!));
            expect(current.version).toBe(history.length);
          }
        } finally {
          await cleanup();
        }
      }),
      { numRuns: 60, seed: 7 },
    );
  });
});
