import { afterEach, describe, expect, it } from 'vitest';
import { assembleContext } from '../../src/context/assembler.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { PLANNING_TURNS, testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('assembling with pauses', () => {
  it('pauses between its steps, and the package is the one assembled straight through', async () => {
    const fixture = testMemory();
    cleanups.push(fixture.cleanup);
    const handle = await fixture.memory.sessions.create({ title: 'Migration' });
    for (const turn of [...PLANNING_TURNS, ...PLANNING_TURNS]) await handle.record(turn);
    const store = createSqliteStore({ path: fixture.path });
    cleanups.push(() => store.close());
    const repositories = store.tenant('default');
    const session = await repositories.sessions.get({ sessionId: handle.id });
    if (session === null) throw new Error('the session was not stored');
    const tokenizer = createGptTokenizer();
    const options = { repositories, session, budget: 700, query: 'What did we decide about the budget and card numbers?', tokenizer, settings: { rawWindowTurns: 2 } };
    const straight = await assembleContext(options);
    let pauses = 0;
    const paused = await assembleContext({
      ...options,
      pause: async () => {
        pauses += 1;
      },
    });
    // The document (after its facts, after their turns' times), then before the facts, before recall, before the rest.
    expect(pauses).toBeGreaterThanOrEqual(6);
    expect(paused.render()).toEqual(straight.render());
    expect(paused.tokens).toBe(straight.tokens);
    expect(paused.sections.find((section) => section.name === 'recalled')?.items.length).toBeGreaterThan(0);
  });
});
