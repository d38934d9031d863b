import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError, type StrataError } from '../../src/core/errors.js';
import type { SessionHandle } from '../../src/memory/create-memory.js';
import { testMemory } from '../support/memory-fixtures.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function budgetSession(): Promise<SessionHandle> {
  const fixture = testMemory();
  cleanup = fixture.cleanup;
  const session = await fixture.memory.sessions.create({ title: 'Kitchen' });
  await session.record({ user: 'The kitchen budget is $60,000 all in, appliances included.', assistant: 'Noted: $60,000 all in.' });
  await session.record({ user: 'We must never pay anyone in cash.', assistant: 'Understood: checks or card only.' });
  return session;
}

async function refusal(work: () => Promise<unknown>): Promise<StrataError> {
  try {
    await work();
  } catch (error) {
    if (isStrataError(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe('a person correcting memory', () => {
  it('adds, edits and removes facts as events by the user, with their reasons', async () => {
    const session = await budgetSession();
    const budget = (await session.facts()).find((fact) => fact.text.includes('$60,000'));
    expect(budget).toBeDefined();

    const added = await session.facts.add({ text: 'inspection: Thursday 16 April, rough-in', kind: 'constraint', reason: 'the city emailed the date' });
    expect(added).toMatchObject({ op: 'add', actor: 'user', reason: 'the city emailed the date', kind: 'constraint', turn: 2, newText: 'inspection: Thursday 16 April, rough-in' });
    const edited = await session.facts.edit({ fact: budget?.id ?? '', text: 'kitchen budget: $54,000 all in', reason: 'the roof repair took $6,000' });
    expect(edited).toMatchObject({ op: 'update', actor: 'user', oldText: budget?.text, newText: 'kitchen budget: $54,000 all in' });
    // A fact may be named by an event that changed it, too.
    const removed = await session.facts.remove({ fact: added.id, reason: 'the inspection was rescheduled' });
    expect(removed).toMatchObject({ op: 'remove', actor: 'user', oldText: 'inspection: Thursday 16 April, rough-in' });

    const texts = (await session.facts()).map((fact) => fact.text);
    expect(texts).toContain('kitchen budget: $54,000 all in');
    expect(texts.some((text) => text.includes('inspection'))).toBe(false);
    // The edited fact keeps its sources and is still the same fact.
    expect((await session.facts()).find((fact) => fact.id === budget?.id)?.sourceMessageIds).toEqual(budget?.sourceMessageIds);
    // The history replays: before the corrections the document read as the manager left it.
    expect((await session.facts({ atTurn: 1 })).map((fact) => fact.text)).toContain(budget?.text);
    const userEvents = (await session.factEvents()).filter((event) => event.actor === 'user');
    expect(userEvents.map((event) => event.op)).toEqual(['add', 'update', 'remove']);
    // A correction can be undone like any other change.
    await session.undoFactEvent(edited.id);
    expect((await session.facts()).map((fact) => fact.text)).toContain(budget?.text);
  });

  it('pins a fact a person adds as an exception, and can change a kind alone', async () => {
    const session = await budgetSession();
    await session.facts.add({ text: 'walnut: never any walnut, Mateo is allergic', kind: 'exception', reason: 'doctor confirmed' });
    const walnut = (await session.facts()).find((fact) => fact.key === 'walnut');
    expect(walnut?.pinned).toBe(true);
    await session.facts.edit({ fact: walnut?.id ?? '', kind: 'constraint', reason: 'downgraded by mistake, testing' });
    expect((await session.facts()).find((fact) => fact.key === 'walnut')).toMatchObject({ kind: 'constraint', pinned: false });
  });

  it('refuses a correction without a reason, of an unknown fact, with an empty text or a taken key, and changes nothing', async () => {
    const session = await budgetSession();
    const before = { facts: await session.facts(), events: await session.factEvents() };
    const [first] = before.facts;
    const cases: Array<[() => Promise<unknown>, RegExp]> = [
      [() => session.facts.add({ text: 'deadline: May 8', reason: '  ' }), /needs a reason/u],
      [() => session.facts.edit({ fact: 'no-such-fact', text: 'x: y', reason: 'r' }), /No fact or fact event no-such-fact/u],
      [() => session.facts.remove({ fact: '', reason: 'r' }), /Name the fact to change/u],
      [() => session.facts.add({ text: '', reason: 'r' }), /non-empty string/u],
      [() => session.facts.add({ text: `${first?.key ?? 'x'}: again`, reason: 'r' }), /already holds a fact under/u],
      [() => session.facts.edit({ fact: first?.id ?? '', text: first?.text ?? '', reason: 'r' }), /changes nothing/u],
      [() => session.facts.add({ text: 'a: b', kind: 'rule' as never, reason: 'r' }), /kind must be one of/u],
      [() => session.facts.add(null as never), /A correction is/u],
    ];
    for (const [work, message] of cases) {
      const error = await refusal(work);
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toMatch(message);
      expect(error.message).toContain('nothing was changed');
    }
    expect(await session.facts()).toEqual(before.facts);
    expect(await session.factEvents()).toEqual(before.events);
  });
});
