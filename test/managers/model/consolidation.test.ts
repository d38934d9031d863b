import { describe, expect, it } from 'vitest';
import { replayFactEvents } from '../../../src/core/diff.js';
import type { FactEvent } from '../../../src/core/types.js';
import { createModelMemoryManager } from '../../../src/memory/model-memory-manager.js';
import { CONSOLIDATION_SCHEMA } from '../../../src/managers/model/consolidation-schema.js';
import { DATA_CLOSE, DATA_OPEN } from '../../../src/managers/model/prompt-data.js';
import { FACTS } from './consolidation-fixtures.js';
import { bodyOf, scriptedModel, serve } from './model-fixtures.js';

const GOOD_PROPOSAL = {
  merge: [{ ids: ['f-db', 'f-db-version'], text: 'database: PostgreSQL 16 with nightly backups', kind: 'fact', reason: 'same database' }],
  remove: [{ id: 'f-budget-old', reason: 'superseded by budget: $45,000' }],
  update: [],
};

function addEvents(): FactEvent[] {
  return FACTS.map((fact, index) => ({
    id: `e-${index}`,
    sessionId: fact.sessionId,
    sequence: index + 1,
    factId: fact.id,
    op: 'add',
    key: fact.key,
    kind: fact.kind,
    oldText: null,
    newText: fact.text,
    turn: 1,
    actor: 'local',
    reason: 'added',
    sourceMessageIds: fact.sourceMessageIds,
    createdAt: fact.createdAt,
  }));
}

describe('model memory manager: consolidation', () => {
  it('sends the facts with the consolidation schema and returns validated consolidate changes the events can replay', async () => {
    const server = await serve([{ json: GOOD_PROPOSAL, usage: { promptTokens: 300, completionTokens: 50 } }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const result = await manager.consolidate({ facts: FACTS, turn: 15 });
    if (result.outcome !== 'accepted') throw new Error(`expected accepted, got ${result.outcome}`);
    expect(result.changes.map((change) => [change.factId, change.newText])).toEqual([
      ['f-budget-old', null],
      ['f-db', 'database: PostgreSQL 16 with nightly backups'],
      ['f-db-version', null],
    ]);

    const body = bodyOf(server.requests[0]);
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'fact_consolidation', schema: CONSOLIDATION_SCHEMA.jsonSchema } });
    expect(body.messages[0]?.content).toContain('Never remove a pinned fact');
    expect(body.messages[0]?.content).toContain('Nothing is removed without a reason');
    const user = body.messages[1]?.content ?? '';
    const data = JSON.parse(user.slice(user.indexOf(DATA_OPEN) + DATA_OPEN.length, user.lastIndexOf(DATA_CLOSE))) as { turn: number; facts: unknown[] };
    expect(data.turn).toBe(15);
    expect(data.facts[4]).toEqual({ id: 'f-cards', key: 'card numbers', kind: 'exception', pinned: true, text: 'card numbers: never store full card numbers' });
    expect(manager.stats()).toMatchObject({ calls: 1, promptTokens: 300, completionTokens: 50, fallbacks: 0 });

    // Applied as consolidate events, the document loses the superseded and merged lines and keeps the exception.
    const events: FactEvent[] = [
      ...addEvents(),
      ...result.changes.map((change, index) => ({ ...change, id: `c-${index}`, sessionId: 'session-1', sequence: FACTS.length + index + 1, turn: 15, actor: manager.name, createdAt: '2024-05-09T10:00:00Z' })),
    ];
    expect(replayFactEvents(events).map((fact) => [fact.id, fact.text, fact.pinned])).toEqual([
      ['f-budget', 'budget: $45,000 after the finance review', false],
      ['f-cards', 'card numbers: never store full card numbers', true],
      ['f-db', 'database: PostgreSQL 16 with nightly backups', false],
    ]);
  });

  it('rejects a proposal that drops a pinned exception or removes without a reason, keeping every problem', async () => {
    const server = await serve([{ json: { merge: [], remove: [{ id: 'f-cards', reason: 'old' }, { id: 'f-budget-old', reason: '' }], update: [] } }]);
    const result = await createModelMemoryManager({ model: scriptedModel(server) }).consolidate({ facts: FACTS, turn: 15 });
    expect(result).toMatchObject({
      outcome: 'rejected',
      problems: ['remove 1 removes pinned exception "card numbers"; exceptions are never removed', 'remove 2 removes "initial budget" without a reason'],
    });
  });

  it('asks again once after a malformed answer, then reports the failure', async () => {
    const server = await serve([{ malformed: 'truncated' }, { json: { merge: 'everything' } }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const result = await manager.consolidate({ facts: FACTS, turn: 15 });
    expect(result.outcome).toBe('failed');
    expect(result.outcome === 'failed' && result.error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(manager.stats()).toMatchObject({ calls: 2, retries: 1, fallbacks: 0 });
  });

  it('reports a time-out as a failure', async () => {
    const server = await serve([{ hang: true }]);
    const result = await createModelMemoryManager({ model: scriptedModel(server), timeoutMs: 200 }).consolidate({ facts: FACTS, turn: 15 });
    expect(result.outcome === 'failed' && result.error.code).toBe('MODEL_TIMEOUT');
  });

  it('makes no call for fewer than two facts', async () => {
    const server = await serve([]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    expect(await manager.consolidate({ facts: FACTS.slice(0, 1), turn: 15 })).toEqual({ outcome: 'accepted', changes: [] });
    expect(manager.stats().calls).toBe(0);
  });
});
