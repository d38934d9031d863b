import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isStrataError } from '../../src/core/errors.js';
import { createMemory } from '../../src/memory/create-memory.js';
import { createScriptedMemoryManager } from '../../src/testing/index.js';

/** Any JavaScript value, bigints, symbols-free objects, null prototypes and arrays included. */
const anyValue = fc.oneof(
  fc.anything({ withBigInt: true, withNullPrototype: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }),
  fc.record({ budget: fc.anything({ withBigInt: true }), query: fc.anything({ withBigInt: true }) }),
  fc.record({ user: fc.anything({ withBigInt: true }), assistant: fc.anything(), timestamp: fc.anything({ withBigInt: true }) }),
  fc.record({ format: fc.anything({ withBigInt: true, withNullPrototype: true }) }),
  fc.record({ sessionId: fc.anything({ withBigInt: true }) }),
  fc.record({ kind: fc.oneof(fc.constantFrom('tier', 'search'), fc.anything()), tier: fc.oneof(fc.constantFrom(1, 2, 3), fc.anything()), ref: fc.oneof(fc.constantFrom('1u', '1a', '9u'), fc.anything()), query: fc.anything() }),
  fc.record({ user: fc.constant('Hello'), detailRequests: fc.oneof(fc.anything({ withBigInt: true }), fc.array(fc.record({ round: fc.anything(), kind: fc.anything(), target: fc.anything(), outcome: fc.anything() }))) }),
);

describe('the public API, fuzzed with values of every type', () => {
  it('answers every call with a result or a StrataError with a code, and a refused call changes nothing stored', async () => {
    const memory = createMemory({ path: ':memory:', env: { STRATA_LOG_LEVEL: 'silent' }, manager: createScriptedMemoryManager([]) });
    try {
      const session = await memory.sessions.create({ title: 'Fuzzed' });
      await session.record({ user: 'The budget is $40,000.', assistant: 'Noted.' });
      const calls: Array<[string, (value: unknown) => unknown]> = [
        ['context', (value) => session.context(value as never)],
        ['record', (value) => session.record(value as never)],
        ['facts', (value) => session.facts(value as never)],
        ['facts.add', (value) => session.facts.add(value as never)],
        ['facts.edit', (value) => session.facts.edit(value as never)],
        ['facts.remove', (value) => session.facts.remove(value as never)],
        ['export', (value) => session.export(value as never)],
        ['search', (value) => session.search(value as never)],
        ['requestDetail', (value) => session.requestDetail(value as never)],
        ['requestDetail with options', (value) => session.requestDetail({ kind: 'tier', tier: 3, ref: '1u' }, value as never)],
        ['rename', (value) => session.rename(value as never)],
        ['setInstructions', (value) => session.setInstructions(value as never)],
        ['stats', (value) => memory.stats(value as never)],
        ['sessions.list', (value) => memory.sessions.list(value as never)],
        ['sessions.open', (value) => memory.sessions.open(value as never)],
        ['sessions.create', (value) => memory.sessions.create(value as never)],
        ['sessions.import', (value) => memory.sessions.import(value as never)],
        ['sessions.cleanup', (value) => memory.sessions.cleanup(value as never)],
        ['tenant', (value) => memory.tenant(value as never)],
        ['keys.create', (value) => memory.keys.create(value as never)],
        ['keys.list', (value) => memory.keys.list(value as never)],
        ['keys.revoke', (value) => memory.keys.revoke(value as never)],
        ['keys.verify', (value) => memory.keys.verify(value)],
      ];
      const stored = async (): Promise<string> =>
        JSON.stringify([await session.messages(), await session.facts(), (await memory.sessions.list()).length, (await memory.keys.list()).filter((key) => key.revokedAt === null).length]);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...calls), anyValue, async ([name, call], value) => {
          const before = await stored();
          let failure: unknown = null;
          try {
            await call(value);
          } catch (error) {
            failure = error;
          }
          if (failure === null) return;
          expect(isStrataError(failure), `${name}(${String(typeof value)}) threw ${String(failure)}`).toBe(true);
          // Sessions.create and import may store before failing later, never on a refused input.
          expect(await stored(), `${name} changed stored data although it refused its input`).toBe(before);
        }),
        { numRuns: 1500, seed: 17 },
      );
    } finally {
      await memory.close();
    }
  }, 60_000);
});
