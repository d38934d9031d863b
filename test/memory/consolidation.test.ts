import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import type { FactEvent } from '../../src/core/types.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import type { RecordedRequest, ScriptedServer } from '../support/scripted-openai-server.js';
import { sequentialIds, steppingClock } from '../support/memory-fixtures.js';
import { dataBlockOf } from '../support/request-data.js';
import { dataOf, goodAnswer, MEDIUM_ASSISTANT, MEDIUM_USER, serve } from '../managers/model/model-fixtures.js';

const memories: Memory[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
});

function open(server: ScriptedServer | null, extra: Record<string, string> = {}): Memory {
  const env = server === null ? { ...extra } : { STRATA_MEMORY_MODEL: 'scripted-memory', STRATA_MEMORY_BASE_URL: server.baseUrl, STRATA_CONSOLIDATE_EVERY_TURNS: '2', ...extra };
  const memory = createMemory({ path: ':memory:', env, clock: steppingClock(), newId: sequentialIds(), durability: 'normal' });
  memories.push(memory);
  return memory;
}

/** The turn-1 answer: two redundant budget lines and a pinned exception, citing the user message of the request. */
const TURN_ONE = (request: RecordedRequest) => {
  const user = dataOf(request).exchange.find((message) => message.role === 'user');
  const cite = user === undefined ? [] : [user.id];
  return {
    json: goodAnswer({
      messages: dataOf(request).exchange.map((message) => ({ id: message.id, tier1: 'budget = $40,000', tier2: 'The move plan.' })),
      diff: {
        add: [
          { key: 'budget', text: 'budget: $40,000', kind: 'constraint', sourceMessageIds: cite },
          { key: 'project budget', text: 'project budget: $40,000 for the whole project', kind: 'constraint', sourceMessageIds: cite },
          { key: 'card numbers', text: 'card numbers: never store full card numbers', kind: 'exception', sourceMessageIds: cite },
        ],
        update: [],
        remove: [],
      },
    }),
  };
};

/** The fact ids by key, as the consolidation request shows them to the model. */
function idsIn(request: RecordedRequest): Record<string, string> {
  const data = dataBlockOf(request) as { facts: Array<{ id: string; key: string }> };
  return Object.fromEntries(data.facts.map((fact) => [fact.key, fact.id]));
}

const mergeBudgets = (request: RecordedRequest) => {
  const ids = idsIn(request);
  return {
    json: {
      merge: [{ ids: [ids.budget, ids['project budget']], text: 'budget: $40,000 for the whole project', kind: 'constraint', reason: 'both lines state the same budget' }],
      remove: [],
      update: [],
    },
  };
};

async function twoTurns(memory: Memory) {
  const session = await memory.sessions.create({ title: 'Move' });
  const first = await session.record({ user: { content: MEDIUM_USER }, assistant: { content: MEDIUM_ASSISTANT } });
  const second = await session.record({ user: { content: 'Thanks.' }, assistant: { content: 'You are welcome.' } });
  return { session, first, second };
}

const texts = (facts: ReadonlyArray<{ text: string }>): string[] => facts.map((fact) => fact.text).sort();

describe('consolidation every N turns', () => {
  it('hands the next turn the consolidated document, not the lines it merged away', async () => {
    const nothingNew = (request: RecordedRequest) => ({
      json: goodAnswer({ messages: dataOf(request).exchange.map((message) => ({ id: message.id, tier1: 'move = planned', tier2: 'The move plan.' })), diff: { add: [], update: [], remove: [] } }),
    });
    const server = await serve([TURN_ONE, mergeBudgets, nothingNew]);
    const memory = open(server);
    const { session } = await twoTurns(memory);
    await session.record({ user: { content: MEDIUM_USER }, assistant: { content: MEDIUM_ASSISTANT } });
    expect(server.requests).toHaveLength(3);
    const shown = (dataOf(server.requests[2]).currentFacts as Array<{ text: string }>).map((fact) => fact.text).sort();
    expect(shown).toEqual(['budget: $40,000 for the whole project', 'card numbers: never store full card numbers']);
    expect(texts(await session.facts())).toEqual(shown);
  });

  it('applies a merge as consolidate events at the due turn, replayable and undoable', async () => {
    const server = await serve([TURN_ONE, mergeBudgets]);
    const memory = open(server);
    const { session, first, second } = await twoTurns(memory);
    // Turn 1 is not due: one call for its memory; turn 2 is short (no call) and due: one consolidation call.
    expect(first.factEvents.map((event) => event.op)).toEqual(['add', 'add', 'add']);
    expect(server.requests).toHaveLength(2);

    const consolidated = second.factEvents.filter((event) => event.op === 'consolidate');
    expect(consolidated).toHaveLength(2);
    for (const event of consolidated) expect(event).toMatchObject({ turn: 2, actor: 'model:scripted-memory' });
    expect(consolidated[0]).toMatchObject({ key: 'budget', oldText: 'budget: $40,000', newText: 'budget: $40,000 for the whole project' });
    expect(consolidated[0]?.reason).toContain('both lines state the same budget');
    expect(consolidated[1]).toMatchObject({ key: 'project budget', newText: null });
    const all = await session.factEvents();
    expect(all.map((event) => event.sequence)).toEqual(all.map((_, index) => index + 1));

    const merged = ['budget: $40,000 for the whole project', 'card numbers: never store full card numbers'];
    const original = ['budget: $40,000', 'card numbers: never store full card numbers', 'project budget: $40,000 for the whole project'];
    expect(texts(await session.facts())).toEqual(merged);
    expect(texts(await session.facts({ atTurn: 1 }))).toEqual(original);
    expect(texts(await session.facts({ atTurn: 2 }))).toEqual(merged);

    // Undo the consolidation, one event at a time: the facts are as they were before it.
    const undone: FactEvent[] = [];
    for (const event of [...consolidated].reverse()) undone.push(await session.undoFactEvent(event.id));
    expect(undone.map((event) => [event.op, event.actor, event.reason])).toEqual([
      ['add', 'user', `undo of event ${consolidated[1]?.id}`],
      ['update', 'user', `undo of event ${consolidated[0]?.id}`],
    ]);
    expect(texts(await session.facts())).toEqual(original);
    expect(texts(await session.facts({ atTurn: 2 }))).toEqual(original);
    expect(await session.facts()).toEqual(await session.facts({ atTurn: 2 }));
    expect(texts(await session.facts({ atTurn: 1 }))).toEqual(original);
  });

  it('rejects a proposal that drops a pinned exception: the document stays and the reasons are recorded', async () => {
    const dropCards = (request: RecordedRequest) => ({
      json: { merge: [], remove: [{ id: idsIn(request)['card numbers'], reason: 'no longer relevant' }], update: [] },
    });
    const server = await serve([TURN_ONE, dropCards]);
    const memory = open(server);
    const { session, second } = await twoTurns(memory);
    expect(server.requests).toHaveLength(2);
    expect(second.factEvents).toHaveLength(1);
    expect(second.factEvents[0]).toMatchObject({ op: 'reject', factId: null, key: 'consolidation', turn: 2, actor: 'model:scripted-memory' });
    expect(second.factEvents[0]?.reason).toMatch(/^consolidation rejected, document kept as it was: remove 1 removes pinned exception "card numbers"/u);
    expect(texts(await session.facts())).toEqual(texts(await session.facts({ atTurn: 1 })));
    expect(await session.facts()).toHaveLength(3);

    // The rejection changed nothing, so it cannot be undone; neither can an unknown event.
    const refused = async (eventId: string): Promise<string> => {
      const error: unknown = await session.undoFactEvent(eventId).then(() => null, (caught: unknown) => caught);
      expect(isStrataError(error) && error.code === 'INVALID_INPUT').toBe(true);
      return (error as Error).message;
    };
    expect(await refused(second.factEvents[0]?.id ?? '')).toMatch(/reject event: it changed no fact/u);
    expect(await refused('no-such-event')).toMatch(/No fact event "no-such-event"/u);
  });

  it('records a warning when the model gives no usable consolidation, and leaves the document alone', async () => {
    const server = await serve([TURN_ONE, { malformed: 'not-json' }, { malformed: 'not-json' }]);
    const memory = open(server);
    const { session, second } = await twoTurns(memory);
    expect(server.requests).toHaveLength(3);
    expect(second.factEvents.map((event) => [event.op, event.key])).toEqual([['warning', 'consolidation']]);
    expect(second.factEvents[0]?.reason).toMatch(/^consolidation failed, document kept as it was: /u);
    expect(await session.facts()).toHaveLength(3);
  });

  it('refuses to undo an event whose fact changed since', async () => {
    const server = await serve([TURN_ONE, mergeBudgets]);
    const { session, first, second } = await twoTurns(open(server));
    const added = first.factEvents.find((event) => event.key === 'budget');
    const consolidate = second.factEvents.find((event) => event.key === 'budget');
    const error: unknown = await session.undoFactEvent(added?.id ?? '').then(() => null, (caught: unknown) => caught);
    expect(isStrataError(error) && error.code === 'INVALID_INPUT').toBe(true);
    expect((error as Error).message).toContain(`Undo "${consolidate?.id}" first`);
  });

  it('never consolidates with the local manager, nor when the setting is 0', async () => {
    const local = open(null, { STRATA_CONSOLIDATE_EVERY_TURNS: '1' });
    expect(local.settings.consolidateEveryTurns).toBe(1);
    const session = await local.sessions.create({});
    for (let turn = 0; turn < 2; turn += 1) {
      const result = await session.record({ user: { content: 'The deadline is March 15 and the budget is $40,000.' }, assistant: { content: 'Noted.' } });
      expect(result.factEvents.some((event) => event.op === 'consolidate' || event.key === 'consolidation')).toBe(false);
    }

    const server = await serve([TURN_ONE]);
    const off = open(server, { STRATA_CONSOLIDATE_EVERY_TURNS: '0' });
    const { second } = await twoTurns(off);
    expect(server.requests).toHaveLength(1);
    expect(second.factEvents).toEqual([]);
  });

  it('defaults to every 15 turns and rejects a negative setting, naming the variable', () => {
    expect(open(null).settings.consolidateEveryTurns).toBe(15);
    expect(() => open(null, { STRATA_CONSOLIDATE_EVERY_TURNS: '-1' })).toThrow(/STRATA_CONSOLIDATE_EVERY_TURNS/u);
  });
});
