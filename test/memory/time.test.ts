import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../support/memory-fixtures.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function fixture(): ReturnType<typeof testMemory> {
  const made = testMemory();
  cleanup = made.cleanup;
  return made;
}

describe('the time of each message', () => {
  it('keeps the times an imported file gives, and resolves relative dates against each message’s own time', async () => {
    const { memory } = fixture();
    const imported = await memory.sessions.import({
      source: 'march.json',
      data: {
        messages: [
          { role: 'user', content: 'The plumber comes tomorrow to fix the leak.', timestamp: '2025-03-11T18:00:00Z' },
          { role: 'assistant', content: 'Good, tomorrow it is.', timestamp: '2025-03-11T18:01:00Z' },
        ],
      },
    });
    const session = await memory.sessions.open(imported.sessionId);
    expect((await session.messages()).map((message) => message.sentAt)).toEqual(['2025-03-11T18:00:00.000Z', '2025-03-11T18:01:00.000Z']);
    const tiers = (await session.messages()).map((message) => message.tier1).join('\n');
    // "tomorrow" said on 11 March 2025 is 12 March 2025, never a day near the import.
    expect(tiers).toContain('12 March 2025');
    expect(tiers).not.toMatch(/2026/u);
  });

  it('counts "two weeks from today" from the message’s day, never reading it as today', async () => {
    const { memory } = fixture();
    const session = await memory.sessions.create();
    const { factEvents } = await session.record({ user: 'We are starting the Okafor job two weeks from today, eight working days.', assistant: 'Great.', timestamp: '2026-04-27T12:40:00Z' });
    const lines = factEvents.map((event) => event.newText ?? '').join('\n');
    expect(lines).toContain('two weeks from today (11 May 2026)');
    expect(lines).not.toContain('27 April 2026');
  });

  it('counts "in three weeks" from the message’s day, with the count written as a word or in digits', async () => {
    const { memory } = fixture();
    const session = await memory.sessions.create();
    const words = await session.record({ user: 'The venue says the second instalment, £2,000, is due in three weeks.', assistant: 'Noted.', timestamp: '2026-03-26T21:06:00Z' });
    expect(words.factEvents.map((event) => event.newText ?? '').join('\n')).toContain('in three weeks (16 April 2026)');
    const digits = await session.record({ user: 'The printer proofs are ready in 10 days.', assistant: 'Good.', timestamp: '2026-03-26T21:10:00Z' });
    expect(digits.factEvents.map((event) => event.newText ?? '').join('\n')).toContain('in 10 days (5 April 2026)');
  });

  it('leaves a message the file gives no time without one: its relative dates stay as written', async () => {
    const { memory } = fixture();
    const imported = await memory.sessions.import({
      source: 'undated.json',
      data: [
        { role: 'user', content: 'The plumber comes tomorrow to fix the leak, and the invoice is €180.' },
        { role: 'assistant', content: 'Noted: tomorrow, €180.' },
        { role: 'user', content: 'Our budget for the bathroom is €4,000.' },
        { role: 'assistant', content: 'Noted: €4,000 for the bathroom.' },
      ],
    });
    const session = await memory.sessions.open(imported.sessionId);
    const messages = await session.messages();
    expect(messages.map((message) => message.sentAt)).toEqual([null, null, null, null]);
    const derived = [...messages.flatMap((message) => [message.tier1, message.tier2]), ...(await session.facts()).map((fact) => fact.text)].join('\n');
    expect(derived).toContain('tomorrow');
    // The test clock stands for the import time (March 2026): no date may come from it.
    expect(derived).not.toMatch(/\b(?:2 March|March 2026)\b/u);
    // The package shows the turn alone for undated lines.
    const pkg = await session.context({ budget: 2000 });
    expect(pkg.render()[0]?.content ?? '').toMatch(/€4,000.* \(turn 2\)$/mu);
  });

  it('marks every fact with the turn it was last established under a heading of its day, and every older message with its turn and day', async () => {
    const { memory } = fixture();
    const session = await memory.sessions.create({ title: 'Kitchen' });
    await session.record({ user: 'The budget for the kitchen is $54,000, all in.', assistant: 'Noted: $54,000 all in.', timestamp: '2026-03-14T10:00:00Z' });
    for (let turn = 0; turn < 8; turn += 1) {
      await session.record({ user: `Another quick question about tiles, number ${turn + 1}.`, assistant: 'Matte tiles hide water spots better.', timestamp: '2026-03-17T09:00:00Z' });
    }
    const pkg = await session.context({ budget: 3000 });
    const system = pkg.render()[0]?.content ?? '';
    // Fact lines sit under a heading of their day inside their kind's block; the line gives its turn.
    expect(system).toMatch(/^#### 14 Mar 2026\n- kitchen budget: .*\$54,000.* \(turn 1\)$/mu);
    // Older turns start with their turn and sit under a heading of their day, one heading per day.
    expect(system).toMatch(/^### 14 Mar 2026\n\[turn 1\] user: The budget/mu);
    expect(system).toMatch(/^### 17 Mar 2026\n\[turn 2\] user: /mu);
    expect(system.match(/^### 17 Mar 2026$/gmu)).toHaveLength(1);
    // The items carry the same provenance as fields; a fact's text is its line without the mark.
    const fact = pkg.sections.find((section) => section.name === 'facts')?.items.find((item) => item.text.includes('54,000'));
    expect(fact).toMatchObject({ turn: 1, date: '2026-03-14T10:00:00.000Z' });
    expect(fact?.text).not.toContain('turn 1');
    expect(memory.tokenizer.countMessages(pkg.render())).toBe(pkg.tokens);
  });

  it.each([
    ['in time order', ['2026-03-02T09:00:00Z', '2026-03-05T09:00:00Z', '2026-03-05T10:00:00Z', '2026-03-09T09:00:00Z', '2026-03-12T09:00:00Z', '2026-03-15T09:00:00Z']],
    // (Backfilled records: one heading per day all the same, since fact lines are ordered by the day first.)
    ['out of time order', ['2026-03-05T09:00:00Z', '2026-03-03T09:00:00Z', '2026-03-05T10:00:00Z', '2026-03-03T10:00:00Z', '2026-03-05T11:00:00Z', '2026-03-03T11:00:00Z']],
  ])('pays for the day headings of fact lines while choosing them, so the exact count never has to drop a fact (turns %s)', async (_, times) => {
    const { memory } = fixture();
    const session = await memory.sessions.create({ title: 'Move' });
    const said = [
      'Our flights to Lisbon are on Friday 17 April.',
      'My passport expires in June 2031.',
      'The movers are Atlas Removals from Leeds.',
      'The new flat is on Rua das Flores in Porto.',
      'Our dentist is Dr Okafor at Moortown.',
      'The piano goes to my sister Ana in Bristol.',
    ];
    for (const [index, user] of said.entries()) await session.record({ user, assistant: 'Noted.', timestamp: times[index] ?? '' });
    const full = await session.context({ budget: 20_000 });
    const factItems = full.sections.find((section) => section.name === 'facts')?.items.length ?? 0;
    expect(factItems).toBeGreaterThan(3);
    for (let budget = 120; budget <= full.tokens; budget += 7) {
      const pkg = await session.context({ budget });
      expect(pkg.tokens).toBeLessThanOrEqual(budget);
      expect(memory.tokenizer.countMessages(pkg.render())).toBe(pkg.tokens);
      expect(pkg.omitted.map((omission) => omission.reason)).not.toContain('budget: trimmed to fit the exact token count');
    }
    // Each day heads its lines once within a kind.
    const system = full.render()[0]?.content ?? '';
    const facts = system.slice(system.indexOf('### Facts')).split('\n');
    expect(facts.filter((line) => line.startsWith('- ')).length).toBeGreaterThan(3);
    for (const day of new Set(facts.filter((line) => line.startsWith('#### ')))) expect(facts.filter((line) => line === day)).toHaveLength(1);
  });
});
