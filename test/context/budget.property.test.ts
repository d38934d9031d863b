import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSections } from '../../src/context/render.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { sequentialIds, steppingClock } from '../support/memory-fixtures.js';

const WORDS = ['budget', 'deadline', 'server', 'migration', 'invoice', 'Berlin', 'Maya', 'PostgreSQL', 'weekend', 'coffee', 'team', 'review', 'plan', 'ticket', 'release', 'customer'];
const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 14 })
  .map((words) => `${words.join(' ')}.`);
const exception = fc.constantFrom(
  'We must never store card numbers.',
  'Never deploy to production on Fridays.',
  'Under no circumstances share the admin password with vendors.',
  'I am allergic to peanuts, so never suggest them.',
);
const constraint = fc
  .tuple(fc.integer({ min: 1, max: 90 }), fc.constantFrom('budget', 'deadline', 'team size'))
  .map(([number, key]) => `The ${key} must stay under ${number * 1000}.`);
const code = fc.constantFrom('```ts\nexport function plan(): number {\n  return 42;\n}\n```', '```sql\nSELECT id FROM tickets WHERE open;\n```');
const message = fc
  .array(fc.oneof({ weight: 6, arbitrary: sentence }, { weight: 1, arbitrary: exception }, { weight: 2, arbitrary: constraint }, { weight: 1, arbitrary: code }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join(' '));
const conversation = fc.array(fc.record({ user: message, assistant: message, named: fc.boolean() }), { minLength: 1, maxLength: 18 });
const query = fc.option(fc.array(fc.constantFrom(...WORDS, 'card', 'Fridays'), { minLength: 1, maxLength: 5 }).map((words) => words.join(' ')), { nil: undefined });

async function replay(turns: ReadonlyArray<{ user: string; assistant: string; named: boolean }>, rawWindowTurns: number): Promise<{ memory: Memory; sessionId: string }> {
  const memory = createMemory({ path: ':memory:', env: {}, clock: steppingClock(), newId: sequentialIds(), rawWindowTurns });
  const session = await memory.sessions.create({ title: 'Property', instructions: 'You are a careful assistant.' });
  for (const turn of turns) {
    await session.record(
      turn.named ? { user: { content: turn.user, speaker: 'Maya' }, assistant: { content: turn.assistant, speaker: 'Lee' } } : { user: turn.user, assistant: turn.assistant },
    );
  }
  return { memory, sessionId: session.id };
}

describe('context packages under any budget', () => {
  it('never exceed the budget, keep pinned exceptions whenever they fit, and are deterministic', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversation,
        fc.array(fc.integer({ min: 50, max: 50_000 }), { minLength: 1, maxLength: 4 }),
        query,
        fc.integer({ min: 0, max: 8 }),
        async (turns, budgets, text, rawWindowTurns) => {
          const { memory, sessionId } = await replay(turns, rawWindowTurns);
          const twin = await replay(turns, rawWindowTurns);
          try {
            const session = await memory.sessions.open(sessionId);
            const pinned = (await session.facts()).filter((fact) => fact.pinned);
            // Each pinned line shows the turn and day it was established: the day of its turn's first message.
            const exported = JSON.parse(await session.export({ format: 'json' })) as { messages: Array<{ turn: number; sentAt: string | null }> };
            const sentAt = (turn: number): string | null => exported.messages.find((entry) => entry.turn === turn)?.sentAt ?? null;
            const pinnedOnly = memory.tokenizer.countMessages(
              renderSections([
                {
                  name: 'pinned',
                  tokens: 0,
                  items: pinned.map((fact) => ({
                    text: `- ${fact.text}`,
                    tokens: 0,
                    sourceMessageIds: [],
                    kind: 'fact',
                    turn: fact.updatedTurn,
                    date: sentAt(fact.updatedTurn),
                    tier: null,
                    factKind: fact.kind,
                    role: null,
                  })),
                },
              ]),
            );
            for (const budget of budgets) {
              const options = text === undefined ? { budget } : { budget, query: text };
              const pkg = await session.context(options);
              expect(pkg.tokens).toBeLessThanOrEqual(budget);
              expect(memory.tokenizer.countMessages(pkg.render())).toBe(pkg.tokens);
              if (pinned.length > 0 && pinnedOnly <= budget) {
                const shown = pkg.sections.find((section) => section.name === 'pinned')?.items.map((item) => item.text) ?? [];
                expect(shown).toEqual(pinned.map((fact) => `- ${fact.text}`));
              }
              const again = await session.context(options);
              expect(again.toJSON()).toEqual(pkg.toJSON());
              const twinPackage = await (await twin.memory.sessions.open(twin.sessionId)).context(options);
              expect(twinPackage.toJSON()).toEqual(pkg.toJSON());
            }
          } finally {
            await memory.close();
            await twin.memory.close();
          }
        },
      ),
      { numRuns: 60, seed: 20261122 },
    );
  }, 240_000);
});
