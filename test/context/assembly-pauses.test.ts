import { afterEach, describe, expect, it } from 'vitest';
import { assembleContext } from '../../src/context/assembler.js';
import { CachedFactReader } from '../../src/context/fact-view.js';
import type { Fact } from '../../src/core/types.js';
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

  it("reads a large document's words for a query of many words in slices, each followed by a pause", async () => {
    const fixture = testMemory();
    cleanups.push(fixture.cleanup);
    const handle = await fixture.memory.sessions.create({ title: 'Suppliers' });
    for (const turn of PLANNING_TURNS) await handle.record(turn);
    const store = createSqliteStore({ path: fixture.path });
    cleanups.push(() => store.close());
    const repositories = store.tenant('default');
    const session = await repositories.sessions.get({ sessionId: handle.id });
    if (session === null) throw new Error('the session was not stored');
    const at = '2026-03-01T09:00:00.000Z';
    // A document of 4,500 facts, as the memory holding them would give it (no store read).
    const facts: Fact[] = Array.from({ length: 4500 }, (_, index) => ({ id: `f${index}`, sessionId: handle.id, key: `supplier ${index}`, text: `supplier ${index}: quote for the ${['kitchen', 'garage', 'boiler'][index % 3] ?? ''}`, kind: 'fact', pinned: false, sourceMessageIds: [], createdTurn: 1, updatedTurn: 1, createdAt: at, updatedAt: at }));
    const tokenizer = createGptTokenizer();
    const pausesFor = async (query: string): Promise<number> => {
      let pauses = 0;
      const factReader = new CachedFactReader(repositories, tokenizer, () => facts);
      await assembleContext({ repositories, session, budget: 1500, query, tokenizer, factReader, pause: async () => void (pauses += 1) });
      return pauses;
    };
    // A few words are looked up fact by fact; many are read ahead: three slices of at most 2,000 facts, then the scores.
    const few = await pausesFor('kitchen supplier');
    const many = await pausesFor('Which supplier quoted for the kitchen, the garage and the boiler, and what did each quote cover?');
    expect(many - few).toBe(4);
  });
});
