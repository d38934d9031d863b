import { afterEach, describe, expect, it } from 'vitest';
import { indexingSlices, knownInStoreOrder, withChanges } from '../../src/core/fact-index.js';
import { advanceState } from '../../src/memory/memory-state.js';
import { MemoryStateCache } from '../../src/memory/memory-state-cache.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { TurnMemory } from '../../src/managers/memory-manager.js';
import { FactScript, makeMessage, makeSession } from '../contract/store-contract.js';
import { PLANNING_TURNS, sequentialIds, testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function openStore(): Promise<Store> {
  const store = createSqliteStore({ path: ':memory:' });
  cleanups.push(() => store.close());
  await store.tenant('t').sessions.create({ session: makeSession('s1') });
  return store;
}

describe('the memory state kept between turns', () => {
  it('keeps the facts a turn left, with their index, so the next turn does not index the document again', async () => {
    const repositories = (await openStore()).tenant('t');
    const cache = new MemoryStateCache();
    const state = await cache.take(repositories, 's1');
    const memory: TurnMemory = {
      messages: [],
      userSummary: '',
      assistantSummary: '',
      depth: 'short',
      windowExtension: 0,
      diff: { add: [{ text: 'budget: $40,000', kind: 'constraint', sourceMessageIds: ['m1'] }], update: [], remove: [] },
      artifacts: [],
    };
    const raw = { turn: 1, messages: [makeMessage('s1', { id: 'm1', turn: 1, position: 0, role: 'user', content: 'Our budget is $40,000.' })] };
    advanceState(raw, state, memory, { actor: 'local', now: '2026-01-01T00:00:00.000Z', newId: sequentialIds('x') });
    const facts = state.facts;
    expect(knownInStoreOrder(facts)).toBe(true);
    cache.keep('s1', state);
    expect(state.facts).toBe(facts);
    // A consolidation's changes keep it too.
    const after = withChanges(facts, [{ ...facts[0]!, text: 'budget: $40,000 in total' }], []);
    expect(knownInStoreOrder(after)).toBe(true);
    expect(after.map((fact) => fact.text)).toEqual(['budget: $40,000 in total']);
  });

  it('hands a kept state back while no fact event was written, and reads afresh once one was', async () => {
    const repositories = (await openStore()).tenant('t');
    const cache = new MemoryStateCache();
    const first = await cache.take(repositories, 's1');
    cache.keep('s1', first);
    const second = await cache.take(repositories, 's1');
    expect(second).toBe(first);

    // The taker owns the state: taken twice without `keep`, the second taker gets its own copy.
    expect(await cache.take(repositories, 's1')).not.toBe(second);

    cache.keep('s1', second);
    // Written past the cache, straight into the store.
    await repositories.facts.apply(new FactScript('s1').add(1, 'f1', 'budget', 'budget: $40,000', 'constraint', []).flush());
    const fresh = await cache.take(repositories, 's1');
    expect(fresh).not.toBe(second);
    expect(fresh.nextSequence).toBe(2);
    expect(fresh.facts.map((fact) => fact.text)).toEqual(['budget: $40,000']);
  });

  it('keeps facts in the order the store lists them, so a kept state and a fresh read agree', async () => {
    const repositories = (await openStore()).tenant('t');
    // Added in this order within one turn (events 1 and 2); the store lists them by id.
    const batch = new FactScript('s1').add(1, 'f-b', 'budget', 'budget: set', 'fact', []).add(1, 'f-a', 'deadline', 'deadline: set', 'fact', []).flush();
    await repositories.facts.apply(batch);
    const cache = new MemoryStateCache();
    cache.keep('s1', { facts: batch.upserts, nextSequence: 3, artifacts: new Map() });
    const kept = await cache.take(repositories, 's1');
    const fresh = await new MemoryStateCache().take(repositories, 's1');
    expect(kept.facts.map((entry) => entry.id)).toEqual(['f-a', 'f-b']);
    expect(kept.facts).toEqual(fresh.facts);
  });

  it('derives the same document whether the turns are imported at once or recorded one by one', async () => {
    const turns = [...PLANNING_TURNS, ...PLANNING_TURNS];
    const imported = testMemory();
    const recorded = testMemory();
    cleanups.push(imported.cleanup, recorded.cleanup);
    const data = turns.flatMap((turn) => [{ role: 'user', content: turn.user }, { role: 'assistant', content: turn.assistant }]);
    const fromImport = await imported.memory.sessions.open((await imported.memory.sessions.import({ data })).sessionId);
    const fromRecord = await recorded.memory.sessions.create();
    for (const turn of turns) await fromRecord.record(turn);
    const shape = async (session: typeof fromRecord) => ({
      facts: (await session.facts()).map((fact) => [fact.key, fact.kind, fact.text, fact.createdTurn]),
      events: (await session.factEvents()).map((event) => [event.op, event.key, event.turn, event.newText]),
    });
    expect(await shape(fromImport)).toEqual(await shape(fromRecord));
  });

  it('lets a turn after an undo build on the document as it now stands', async () => {
    const { memory, cleanup } = testMemory();
    cleanups.push(cleanup);
    const session = await memory.sessions.create({ title: 'Undo then go on' });
    await session.record({ user: 'We must never store full card numbers in the logs.', assistant: 'Understood.' });
    const added = (await session.factEvents()).find((event) => event.op === 'add');
    expect(added).toBeDefined();
    await session.undoFactEvent(added?.id ?? '');
    expect(await session.facts()).toEqual([]);

    const next = await session.record({ user: 'The budget for the move is $40,000 and it must not grow.', assistant: 'Noted, $40,000.' });
    expect(next.status).toBe('summarised');
    expect(next.problem).toBeNull();
    const facts = await session.facts();
    expect(facts.some((fact) => fact.text.includes('$40,000'))).toBe(true);
    expect(facts.some((fact) => fact.text.includes('card numbers'))).toBe(false);
    const sequences = (await session.factEvents()).map((event) => event.sequence);
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
  });

  it('indexes a large document read afresh a slice at a time, pausing after the read and between slices', async () => {
    const repositories = (await openStore()).tenant('t');
    const at = '2026-01-01T00:00:00.000Z';
    const facts = Array.from({ length: 5000 }, (_, index) => ({ id: `f${String(index).padStart(4, '0')}`, sessionId: 's1', key: `supplier ${index}`, text: `supplier ${index}: quote ${index}`, kind: 'fact' as const, pinned: false, sourceMessageIds: [], createdTurn: 1, updatedTurn: 1, createdAt: at, updatedAt: at }));
    const events = facts.map((fact, index) => ({ id: `e${index}`, sessionId: 's1', sequence: index + 1, factId: fact.id, op: 'add' as const, key: fact.key, kind: fact.kind, oldText: null, newText: fact.text, turn: 1, actor: 'local', reason: 'said', sourceMessageIds: [], createdAt: at }));
    await repositories.facts.apply({ sessionId: 's1', events, upserts: facts, removedIds: [] });
    let pauses = 0;
    const cache = new MemoryStateCache(16, () => async () => {
      pauses += 1;
    });
    const state = await cache.take(repositories, 's1');
    expect(state.facts).toHaveLength(5000);
    // After the read, then after each of three slices of at most 2,000 facts.
    expect(pauses).toBe(4);
    // The facts have their index: a turn on them indexes nothing.
    expect([...indexingSlices(state.facts)]).toHaveLength(0);
    // A kept state is handed back as it is.
    cache.keep('s1', state);
    await cache.take(repositories, 's1');
    expect(pauses).toBe(4);
  });
});
