import { describe, expect, it } from 'vitest';
import { applyDiff, matchFact, replayFactEvents, type FactDiff } from '../../src/core/diff.js';
import type { Fact } from '../../src/core/types.js';

function counter(prefix: string): () => string {
  let next = 0;
  return () => `${prefix}${String(++next).padStart(3, '0')}`;
}

function run(facts: readonly Fact[], diff: Partial<FactDiff>, exchange: string, turn: number, newId = counter(`t${turn}-`)) {
  return applyDiff({
    sessionId: 's1',
    facts,
    diff: { add: [], update: [], remove: [], ...diff },
    exchange,
    exchangeMessageIds: [`m${turn}u`, `m${turn}a`],
    turn,
    actor: 'local',
    now: `2026-01-0${Math.min(turn, 9)}T00:00:00.000Z`,
    newId,
    firstSequence: 1,
  });
}

describe('applyDiff', () => {
  it('adds grounded facts with provenance and pins exceptions', () => {
    const result = run([], {
      add: [
        { text: 'budget: $40,000 total', kind: 'constraint', sourceMessageIds: ['m1u'] },
        { text: 'card numbers: must never be stored', kind: 'exception', sourceMessageIds: ['m1u'] },
      ],
    }, 'Our budget is $40,000 total. We must never store card numbers.', 1);
    expect(result.facts.map((fact) => [fact.key, fact.kind, fact.pinned, fact.sourceMessageIds])).toEqual([
      ['budget', 'constraint', false, ['m1u']],
      ['card numbers', 'exception', true, ['m1u']],
    ]);
    expect(result.events.map((event) => event.op)).toEqual(['add', 'add']);
  });

  it('applies remove, then update, then add, whatever order the entries came in', () => {
    const first = run([], {
      add: [
        { text: 'budget: $40,000', kind: 'constraint', sourceMessageIds: [] },
        { text: 'sso: required for agents', kind: 'constraint', sourceMessageIds: [] },
      ],
    }, 'budget $40,000; sso required for agents', 1);
    const second = run(first.facts, {
      add: [{ text: 'budget: $45,000', kind: 'constraint', sourceMessageIds: [] }],
      update: [{ text: 'budget: $45,000', kind: 'constraint', sourceMessageIds: [] }],
      remove: [{ key: 'sso', reason: 'we no longer need SSO', sourceMessageIds: [] }],
    }, 'Actually the budget changed to $45,000 and we no longer need SSO.', 2);
    expect(second.events.map((event) => event.op)).toEqual(['remove', 'update']);
    expect(second.facts.map((fact) => fact.text)).toEqual(['budget: $45,000']);
  });

  it('never holds two values for one key: an add with an existing key updates it, with a warning', () => {
    const first = run([], { add: [{ text: 'deadline: March 15', kind: 'constraint', sourceMessageIds: [] }] }, 'deadline March 15', 1);
    const second = run(first.facts, { add: [{ text: 'deadline: April 12', kind: 'constraint', sourceMessageIds: [] }] }, 'the deadline moved to April 12', 2);
    expect(second.facts.map((fact) => fact.text)).toEqual(['deadline: April 12']);
    expect(second.events.map((event) => event.op)).toEqual(['warning', 'update']);
  });

  it('turns an update of an unknown key into an add plus a warning event', () => {
    const result = run([], { update: [{ text: 'region: eu-central-1', kind: 'constraint', sourceMessageIds: [] }] }, 'use region eu-central-1', 1);
    expect(result.events.map((event) => [event.op, event.reason])).toEqual([
      ['warning', 'update matched no existing fact; applied as an add'],
      ['add', 'update with no matching fact'],
    ]);
    expect(result.facts).toHaveLength(1);
  });

  it('matches by similarity when the key is worded differently', () => {
    const first = run([], { add: [{ text: 'hosting budget: $900 per month', kind: 'constraint', sourceMessageIds: [] }] }, 'hosting budget $900 per month', 1);
    const fact = first.facts[0];
    expect(fact).toBeDefined();
    expect(matchFact(first.facts, 'monthly hosting budget')?.id).toBe(fact?.id);
    expect(matchFact(first.facts, 'coffee machine')).toBeUndefined();
  });

  it('rejects ungrounded entries with the reason, and they never become facts', () => {
    const result = run([], {
      add: [
        { text: 'budget: $90,000', kind: 'constraint', sourceMessageIds: [] },
        { text: 'vendor: Salesforce chosen', kind: 'fact', sourceMessageIds: [] },
        { text: '   ', kind: 'fact', sourceMessageIds: [] },
        { text: 'team: five people', kind: 'fact', sourceMessageIds: ['m99u'] },
      ],
      remove: [{ key: 'nonexistent thing', reason: 'gone', sourceMessageIds: [] }],
    }, 'The budget is $40,000 and we are comparing vendors.', 1);
    expect(result.facts).toEqual([]);
    expect(result.events.map((event) => [event.op, event.reason])).toEqual([
      ['reject', 'remove matched no fact'],
      ['reject', 'not grounded in the exchange: 90000 not found there'],
      ['reject', 'not grounded in the exchange: Salesforce not found there'],
      ['reject', 'empty fact text'],
      ['reject', 'cites messages outside this exchange: m99u'],
    ]);
  });

  it('rebuilds the document at any past turn from its events', () => {
    const newId = counter('id');
    const turn1 = run([], { add: [{ text: 'budget: $40,000', kind: 'constraint', sourceMessageIds: [] }, { text: 'sso: required', kind: 'constraint', sourceMessageIds: [] }] }, 'budget $40,000, sso required', 1, newId);
    const turn2 = applyDiff({
      sessionId: 's1', facts: turn1.facts, diff: { add: [], update: [{ text: 'budget: $45,000', kind: 'constraint', sourceMessageIds: [] }], remove: [] },
      exchange: 'budget now $45,000', exchangeMessageIds: ['m2u'], turn: 2, actor: 'local', now: '2026-01-02T00:00:00.000Z', newId, firstSequence: turn1.events.length + 1,
    });
    const turn3 = applyDiff({
      sessionId: 's1', facts: turn2.facts, diff: { add: [], update: [], remove: [{ key: 'sso', reason: 'dropped', sourceMessageIds: [] }] },
      exchange: 'no sso', exchangeMessageIds: ['m3u'], turn: 3, actor: 'local', now: '2026-01-03T00:00:00.000Z', newId, firstSequence: turn1.events.length + turn2.events.length + 1,
    });
    const events = [...turn1.events, ...turn2.events, ...turn3.events];
    expect(replayFactEvents(events, { atTurn: 1 }).map((fact) => fact.text)).toEqual(['budget: $40,000', 'sso: required']);
    expect(replayFactEvents(events, { atTurn: 2 }).map((fact) => fact.text)).toEqual(['budget: $45,000', 'sso: required']);
    expect(replayFactEvents(events)).toEqual(turn3.facts);
  });
});

describe('applyDiff safeguards', () => {
  it('rejects a removal the exchange never mentions', () => {
    const first = run([], { add: [{ text: 'meeting: with Alice in Paris', kind: 'fact', sourceMessageIds: [] }] }, 'meeting with Alice in Paris', 1);
    const second = run(first.facts, { remove: [{ key: 'meeting with Alice in Paris', reason: 'cancelled', sourceMessageIds: [] }] }, 'Thanks, sounds good.', 2);
    expect(second.facts).toHaveLength(1);
    expect(second.events.map((event) => [event.op, event.reason])).toEqual([['reject', 'not grounded in the exchange: it never mentions "meeting"']]);
  });

  it('pins a fact restated as an exception, and never unpins one restated weakly', () => {
    const first = run([], { add: [{ text: 'card numbers: never stored', kind: 'fact', sourceMessageIds: [] }] }, 'card numbers never stored', 1);
    const second = run(first.facts, { add: [{ text: 'card numbers: never stored', kind: 'exception', sourceMessageIds: [] }] }, 'card numbers never stored', 2);
    expect(second.facts.map((fact) => [fact.kind, fact.pinned])).toEqual([['exception', true]]);
    const third = run(second.facts, { add: [{ text: 'card numbers: never stored', kind: 'fact', sourceMessageIds: [] }] }, 'card numbers never stored', 3);
    expect(third.facts.map((fact) => [fact.kind, fact.pinned])).toEqual([['exception', true]]);
    expect(third.events).toEqual([]);
  });
});
