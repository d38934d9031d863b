import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import type { MemoryManager } from '../../src/managers/memory-manager.js';
import { createMemory } from '../../src/memory/create-memory.js';
import { createScriptedMemoryManager } from '../../src/testing/index.js';
import { PLANNING_TURNS, testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function setup(options: Parameters<typeof testMemory>[0] = {}) {
  const fixture = testMemory(options);
  cleanups.push(fixture.cleanup);
  return fixture;
}

describe('record() and context()', () => {
  it('stores each turn, derives its memory and assembles a package within the budget', async () => {
    const { memory } = setup();
    const session = await memory.sessions.create({ title: 'Migration' });
    for (const turn of PLANNING_TURNS) {
      const result = await session.record(turn);
      expect(result.status).toBe('summarised');
      expect(result.messageIds).toHaveLength(2);
    }
    const info = await session.info();
    expect(info).toMatchObject({ title: 'Migration', turnCount: 5, messageCount: 10 });
    const facts = await session.facts();
    const budgetFacts = facts.filter((fact) => /45,000|40,000/u.test(fact.text));
    expect(budgetFacts.map((fact) => fact.text).join(' ')).toContain('45,000');
    expect(budgetFacts.map((fact) => fact.text).join(' ')).not.toContain('40,000');
    expect(facts.some((fact) => fact.pinned && /card numbers/iu.test(fact.text))).toBe(true);

    const messageIds = new Set((await session.messages()).map((message) => message.id));
    for (const budget of [60, 200, 2000]) {
      const pkg = await session.context({ budget, query: 'card numbers budget' });
      expect(pkg.tokens).toBeLessThanOrEqual(budget);
      expect(pkg.tokens).toBe(memory.tokenizer.countMessages(pkg.render()));
      for (const section of pkg.sections) {
        for (const item of section.items) for (const id of item.sourceMessageIds) expect(messageIds.has(id)).toBe(true);
      }
    }
    const roomy = await session.context({ budget: 2000 });
    const rendered = roomy.render();
    expect(rendered[0]?.role).toBe('system');
    expect(rendered.at(-1)).toEqual({ role: 'assistant', content: PLANNING_TURNS[4]?.assistant });
    expect(roomy.omitted).toEqual([]);
  });

  it('lets other work in between the steps of a read once it has run `readSliceMs`, and builds a short read straight through', async () => {
    const stepwise = setup({ readSliceMs: 0 }).memory;
    const straight = setup({ readSliceMs: 10_000 }).memory;
    const packages: string[][] = [];
    for (const memory of [stepwise, straight]) {
      const session = await memory.sessions.create({ title: 'Migration' });
      for (const turn of PLANNING_TURNS) await session.record(turn);
      const steps: string[] = [];
      setImmediate(() => steps.push('other work'));
      const pkg = await session.context({ budget: 2000, query: 'What is the budget?' });
      steps.push('package');
      packages.push(pkg.render().map((message) => message.content));
      expect(steps).toEqual(memory === stepwise ? ['other work', 'package'] : ['package']);
    }
    expect(packages[0]).toEqual(packages[1]);
  });

  it('answers SESSION_NOT_FOUND, not half a package, when the session is deleted while its context is assembled', async () => {
    const { memory } = setup({ readSliceMs: 0 });
    const session = await memory.sessions.create({ title: 'Migration' });
    for (const turn of PLANNING_TURNS) await session.record(turn);
    const reading = session.context({ budget: 2000, query: 'What is the budget?' });
    setImmediate(() => void session.delete());
    const error: unknown = await reading.then(() => null, (caught: unknown) => caught);
    expect(isStrataError(error, 'SESSION_NOT_FOUND')).toBe(true);
  });

  it('degrades older turns to lower tiers before dropping them, and says what it left out', async () => {
    const { memory } = setup({ rawWindowTurns: 2 });
    const session = await memory.sessions.create({ title: 'Long' });
    for (let turn = 1; turn <= 30; turn += 1) {
      await session.record({
        user: `Step ${turn}: please review the deployment checklist item number ${turn} for the staging cluster and tell me what is missing from it.`,
        assistant: `For item ${turn}, the checklist lacks a rollback note and an owner. Add both, then mark the item as reviewed in the tracker before Friday.`,
      });
    }
    const pkg = await session.context({ budget: 700 });
    expect(pkg.tokens).toBeLessThanOrEqual(700);
    const history = pkg.sections.find((section) => section.name === 'history');
    expect(history?.items.length).toBeGreaterThan(0);
    const window = pkg.sections.find((section) => section.name === 'window');
    expect(window?.items.map((item) => item.turn)).toEqual([29, 29, 30, 30]);
    // The older turns are left out as one range, counted, not listed: with the rest, every message is accounted for.
    const messages = await session.messages();
    const range = pkg.omitted.find((omission) => omission.turns !== null);
    const older = messages.filter((message) => message.turn <= (range?.turns?.to ?? 0));
    expect(range?.turns?.from).toBe(1);
    expect(range?.sourceMessageIds).toEqual([]);
    expect(range?.messageCount).toBe(older.length);
    expect(range?.reason).toBe(`budget: turns 1–${range?.turns?.to} did not fit`);
    const omittedIds = [...pkg.omitted.flatMap((omission) => omission.sourceMessageIds), ...older.map((message) => message.id)];
    const includedIds = pkg.sections.flatMap((section) => section.items.flatMap((item) => item.sourceMessageIds));
    expect(new Set([...omittedIds, ...includedIds])).toEqual(new Set(messages.map((message) => message.id)));
    expect(pkg.omitted.every((omission) => omission.reason.startsWith('budget'))).toBe(true);
    expect(pkg.omitted.every((omission) => omission.turns !== null || omission.messageCount === omission.sourceMessageIds.length)).toBe(true);
  });

  it('does not count a recalled message among the older turns left out, and counts them all when the recalled ones are newer', async () => {
    const { memory } = setup();
    const session = await memory.sessions.create({ title: 'Recall and range' });
    for (let turn = 1; turn <= 60; turn += 1) {
      const topic = turn === 3 || turn === 50 ? 'the harbour crane inspection by Okonkwo' : `deployment checklist item number ${turn}`;
      await session.record({
        user: `Step ${turn}: please review ${topic} for the staging cluster and tell me what is missing from it.`,
        assistant: `For step ${turn}, the checklist lacks a rollback note and an owner. Add both, then mark it as reviewed in the tracker.`,
      });
    }
    const pkg = await session.context({ budget: 700, query: 'harbour crane inspection Okonkwo' });
    const recalled = pkg.sections.find((section) => section.name === 'recalled')?.items ?? [];
    const range = pkg.omitted.find((omission) => omission.turns !== null);
    const to = range?.turns?.to ?? 0;
    const recalledOlder = recalled.filter((item) => (item.turn ?? Infinity) <= to);
    expect(recalledOlder.length).toBeGreaterThan(0);
    // (Turn 50 is recalled too, after the range: it takes nothing off the range's count.)
    expect(recalled.some((item) => (item.turn ?? 0) > to)).toBe(true);
    const older = (await session.messages()).filter((message) => message.turn <= to);
    expect(range?.messageCount).toBe(older.length - recalledOlder.length);
  });

  it('keeps the newest turn verbatim at the end of the chat, even after a long reply', async () => {
    const { memory } = setup();
    const session = await memory.sessions.create({ title: 'Long reply' });
    await session.record({ user: 'Hi, we plan a kitchen.', assistant: 'Great, tell me more.' });
    await session.record({ user: 'The budget is €18,000.', assistant: 'Noted: €18,000.' });
    const long = Array.from({ length: 60 }, (_, index) => `Step ${index + 1}: measure the wall and order the cabinet parts.`).join(' ');
    await session.record({ user: 'Give me the full installation plan.', assistant: long });
    const pkg = await session.context({ budget: 2000 });
    const rendered = pkg.render();
    expect(rendered.at(-1)).toEqual({ role: 'assistant', content: long });
    expect(rendered.slice(1).map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });

  it('uses most of the budget before dropping older turns', async () => {
    const { memory } = setup();
    const session = await memory.sessions.create({ title: 'Fill' });
    for (let turn = 1; turn <= 120; turn += 1) {
      await session.record({
        user: `Ticket ${turn}: the export job for customer ${turn} failed again with a timeout after 30 seconds.`,
        assistant: `For ticket ${turn}, raise the export timeout to 90 seconds and retry the job for customer ${turn} tonight.`,
      });
    }
    for (const budget of [1000, 4000]) {
      const pkg = await session.context({ budget });
      expect(pkg.omitted.length).toBeGreaterThan(0);
      expect(pkg.tokens).toBeLessThanOrEqual(budget);
      expect(pkg.tokens).toBeGreaterThan(budget * 0.9);
    }
  });

  it('gives the caller a package it may change without changing the next one', async () => {
    const { memory } = setup();
    const session = await memory.sessions.create({ title: 'Owned packages' });
    // Twelve turns: the older six are shown as history and recall lines, which the memory keeps between packages.
    for (const turn of [...PLANNING_TURNS, ...PLANNING_TURNS]) await session.record(turn);
    const options = { budget: 1500, query: 'budget deadline' };
    const first = await session.context(options);
    expect(first.sections.find((section) => section.name === 'history')?.items.length).toBeGreaterThan(0);
    const before = JSON.stringify(first.toJSON());
    const rendered = first.render();
    for (const section of first.sections) {
      for (const item of section.items) {
        item.text = 'changed';
        item.sourceMessageIds.push('not-a-message');
      }
      section.items.reverse();
    }
    const second = await session.context(options);
    expect(JSON.stringify(second.toJSON())).toBe(before);
    // The changes stay the caller's: read again they are still there; the rendering was fixed when the package was built.
    expect(first.sections.flatMap((section) => section.items).every((item) => item.text === 'changed')).toBe(true);
    expect(first.render()).toEqual(rendered);
  });

  it('rebuilds the base-truth document as it stood at a past turn', async () => {
    const { memory } = setup();
    const session = await memory.sessions.create({ title: 'Timeline' });
    for (const turn of PLANNING_TURNS) await session.record(turn);
    const before = (await session.facts({ atTurn: 4 })).map((fact) => fact.text).join('\n');
    const after = (await session.facts()).map((fact) => fact.text).join('\n');
    expect(before).toContain('40,000');
    expect(after).toContain('45,000');
    expect(await session.facts({ atTurn: 0 })).toEqual([]);
    await expect(session.facts({ atTurn: -1 })).rejects.toThrow(/atTurn/u);
    // A turn past the last is an error naming the range, not the document as it is now.
    const last = PLANNING_TURNS.length;
    expect(await session.facts({ atTurn: last })).toEqual(await session.facts());
    await expect(session.facts({ atTurn: last + 1 })).rejects.toThrow(`from 0 to ${last} (got ${last + 1})`);
    await expect(session.facts({ atTurn: 1000 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('keeps the raw turn and flags it when the memory manager fails', async () => {
    const failing: MemoryManager = {
      name: 'broken',
      processTurn: async () => {
        throw new Error('model unavailable');
      },
    };
    const { memory } = setup({ manager: failing });
    const session = await memory.sessions.create({ title: 'Fallback' });
    const result = await session.record({ user: 'Remember: the budget is $40,000.', assistant: 'Got it.' });
    expect(result.status).toBe('fallback-raw');
    expect(result.problem).toContain('model unavailable');
    expect(result.summary.userSummary).toBe('Remember: the budget is $40,000.');
    expect(await session.facts()).toEqual([]);
    expect((await session.messages()).map((message) => message.content)).toEqual(['Remember: the budget is $40,000.', 'Got it.']);
    const pkg = await session.context({ budget: 500 });
    expect(pkg.render().map((message) => message.content)).toContain('Got it.');
  });

  it('never applies an invalid manager result', async () => {
    const garbage = { name: 'garbage', processTurn: async () => ({ messages: 'nope' }) } as unknown as MemoryManager;
    const { memory } = setup({ manager: garbage });
    const session = await memory.sessions.create({ title: 'Garbage' });
    const result = await session.record({ user: 'The budget is $40,000.', assistant: 'Noted.' });
    expect(result.status).toBe('fallback-raw');
    expect(result.problem).toMatch(/invalid result/u);
    expect(await session.facts()).toEqual([]);
  });

  it('serialises concurrent turns of one session in order', async () => {
    const { memory } = setup();
    const session = await memory.sessions.create({ title: 'Concurrent' });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) => session.record({ user: `Question ${index}`, assistant: `Answer ${index}` })),
    );
    expect(results.map((result) => result.turn)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const messages = await session.messages();
    expect(messages.map((message) => message.content).slice(0, 4)).toEqual(['Question 0', 'Answer 0', 'Question 1', 'Answer 1']);
  });

  it('lists recent sessions, renames and deletes with everything derived', async () => {
    const { memory } = setup();
    const first = await memory.sessions.create({ title: 'First' });
    const second = await memory.sessions.create({ title: 'Second' });
    for (const turn of PLANNING_TURNS) await first.record(turn);
    expect((await memory.sessions.list()).map((session) => session.title)).toEqual(['First', 'Second']);
    await second.rename('Second, renamed');
    expect((await memory.sessions.list()).map((session) => session.title)).toEqual(['Second, renamed', 'First']);
    await first.delete();
    expect((await memory.sessions.list()).map((session) => session.id)).toEqual([second.id]);
    const error = await first.facts().catch((caught: unknown) => caught);
    expect(isStrataError(error, 'SESSION_NOT_FOUND')).toBe(true);
    await expect(memory.sessions.open(first.id)).rejects.toThrow(/No session/u);
  });
});

describe('the session lock', () => {
  it('a memory stores every turn of a session under the lock it is given', async () => {
    const held: string[] = [];
    const sessionLock = {
      async run<T>(locked: { tenant: string; sessionId: string }, work: () => Promise<T>): Promise<T> {
        held.push(`${locked.tenant}/${locked.sessionId}`);
        return work();
      },
    };
    const memory = createMemory({ path: ':memory:', env: {}, sessionLock, manager: createScriptedMemoryManager([]) });
    try {
      const session = await memory.sessions.create();
      await Promise.all([session.record({ user: 'one' }), session.record({ user: 'two' })]);
      await session.delete();
      const other = await memory.tenant('acme').sessions.create();
      await other.record({ user: 'three' });
      expect(held).toEqual([`default/${session.id}`, `default/${session.id}`, `default/${session.id}`, `acme/${other.id}`]);
    } finally {
      await memory.close();
    }
  });
});
