import { describe, expect, it } from 'vitest';

import { processOnce, wordCount } from './conversation.js';

const PLANNING =
  "Hi! I'm planning the launch of our new billing app. Our budget is $45,000 and the deadline is March 3. " +
  'We must never store card numbers in the logs. I prefer PostgreSQL 16 over MySQL for the database.';

/** A 400-word user message: context, a constraint early on, details, a question at the end. */
function longMessage(): string {
  const filler = [
    'The team has been discussing the roadmap for a while and there are many opinions about what should come first.',
    'Some people want to polish the onboarding flow, others think the reporting screens need attention before anything else.',
    'We also had a long conversation about documentation, which is currently scattered across several wikis and old slide decks.',
    'Honestly, I think most of it is fine, but it would be nice to have a single place where new engineers can start.',
    'There was some debate about whether to hire a contractor for the design work or to keep it in house for now.',
  ];
  const parts = [
    'Let me give you the full picture before we plan the next quarter.',
    'Our checkout service must respond within 300 ms for 95% of requests, that is non-negotiable for the sales team.',
    ...filler,
    ...filler,
    'Maria Lopez from finance confirmed that the quarterly budget is $120,000 and that it will not grow this year.',
    ...filler,
    ...filler.slice(0, 2),
    'Given all of this, what would you prioritise for the first six weeks?',
  ];
  return parts.join(' ');
}

describe('tier 1', () => {
  it('writes key = value pairs that keep amounts, dates and names verbatim', async () => {
    const { memory } = await processOnce({ user: PLANNING });
    const tier1 = memory.messages[0]?.tier1 ?? '';
    expect(tier1).toMatch(/^[^=;]+ = [^;]+(?:; [^=;]+ = [^;]+)*$/u);
    expect(tier1).toContain('budget = $45,000');
    expect(tier1).toContain('deadline = March 3');
    expect(tier1).toMatch(/card numbers = must never store in logs/u);
  });

  it('names the event and resolves a relative date against the turn time', async () => {
    const { memory } = await processOnce({
      user: 'I went to a LGBTQ support group yesterday and it was so powerful.',
      userSpeaker: 'Caroline',
      assistant: "Wow, that's amazing, Caroline! What happened there?",
      assistantSpeaker: 'Melanie',
    });
    const tier1 = memory.messages[0]?.tier1 ?? '';
    expect(tier1).toContain('LGBTQ support group');
    expect(tier1).toContain('yesterday (7 May 2024)');
  });

  it('is readable pairs or empty: no bag of words for a message with nothing specific, no addressed names', async () => {
    const { memory } = await processOnce({ user: 'Hey there!', assistant: 'Hello! How can I help today?' });
    expect(memory.messages[0]?.tier1).toMatch(/^small talk = /u);
    const chat = await processOnce({
      user: 'Thanks, Melanie! Totally agree, finding self-acceptance is such a long process.',
      userSpeaker: 'Caroline',
      assistant: 'Wow, Caroline, the park trip with Oscar sounds lovely.',
      assistantSpeaker: 'Melanie',
    });
    // Nothing in the first message is a specific: no "topic = totally, agree, …", no "person = Melanie".
    expect(chat.memory.messages[0]?.tier1).toBe('');
    expect(chat.memory.messages[0]?.tier2).not.toBe('');
    // The name spoken to is left out; the one the message is about stays.
    expect(chat.memory.messages[1]?.tier1).toContain('Oscar');
    expect(chat.memory.messages[1]?.tier1).not.toContain('Caroline');
    // Names in a list are subjects, not people spoken to.
    const list = await processOnce({ user: 'Melanie, Jon and I are flying to Lisbon. The two finalists are Priya, Jonas.', assistant: 'Safe travels!' });
    expect(list.memory.messages[0]?.tier1).toContain('Melanie');
    expect(list.memory.messages[0]?.tier1).toContain('Jonas');
    for (const message of [...memory.messages, ...chat.memory.messages]) {
      for (const pair of message.tier1.split('; ').filter((part) => part !== '')) expect(pair).toMatch(/^[^=]+ = [^=]+$/u);
    }
    const quiet = await processOnce({ user: 'ok so yeah, whatever works I guess', assistant: '' });
    expect(quiet.memory.messages[1]?.tier1).toBe('');
    expect(quiet.memory.messages[1]?.tier2).toBe('');
  });

  it('stays around a fifth of a long message', async () => {
    const text = longMessage();
    const { memory } = await processOnce({ user: text });
    const tier1 = memory.messages[0]?.tier1 ?? '';
    expect(wordCount(tier1)).toBeLessThanOrEqual(Math.ceil(wordCount(text) * 0.25));
    expect(tier1).toContain('$120,000');
    expect(tier1).toContain('300 ms');
  });
});

describe('tier 2', () => {
  it('is shorter than the raw text and keeps the constraint sentence', async () => {
    const text =
      'So, quick update on the migration, sorry it took a while to get back to you. ' +
      'We talked to the vendor on Monday and they were really friendly, which was nice. ' +
      'The important part: the new database must be in the EU region because of our contracts. ' +
      'Other than that, the team is in good spirits and the coffee machine finally works again. ' +
      'Anyway, I hope your week is going well!';
    const { memory } = await processOnce({ user: text });
    const tier2 = memory.messages[0]?.tier2 ?? '';
    expect(wordCount(tier2)).toBeLessThan(wordCount(text));
    expect(wordCount(tier2)).toBeLessThanOrEqual(Math.ceil(wordCount(text) * 0.6));
    expect(tier2).toContain('must be in the EU region');
    expect(tier2).not.toMatch(/coffee machine/u);
  });

  it('drops greetings and fillers but keeps the words of what it keeps', async () => {
    const { memory } = await processOnce({ user: PLANNING });
    const tier2 = memory.messages[0]?.tier2 ?? '';
    expect(tier2).not.toMatch(/^Hi!/u);
    expect(tier2).toContain('Our budget is $45,000 and the deadline is March 3.');
    expect(tier2).toContain('We must never store card numbers in the logs.');
    // Extractive: every sentence of tier 2 is a sentence of the message.
    for (const sentence of tier2.split(/(?<=[.!?])\s+/u)) expect(PLANNING).toContain(sentence.replace(/…$/u, ''));
  });

  it('keeps the constraint from the first quarter of a long message', async () => {
    const text = longMessage();
    const { memory } = await processOnce({ user: text });
    const tier2 = memory.messages[0]?.tier2 ?? '';
    expect(tier2).toContain('must respond within 300 ms for 95% of requests');
    expect(wordCount(tier2)).toBeLessThanOrEqual(Math.ceil(wordCount(text) * 0.45));
  });
});

describe('turn summary', () => {
  it('keeps within 25 and 30 words for a 400-word exchange and keeps the specifics', async () => {
    const text = longMessage();
    expect(wordCount(text)).toBeGreaterThan(380);
    const { memory } = await processOnce({ user: text, assistant: text });
    expect(wordCount(memory.userSummary)).toBeLessThanOrEqual(25);
    expect(wordCount(memory.assistantSummary)).toBeLessThanOrEqual(30);
    expect(memory.userSummary).toMatch(/300 ms|\$120,000/u);
  });

  it('is empty for a side that did not speak, and may use the speaker name', async () => {
    const { memory } = await processOnce({ user: 'I adopted a puppy named Max last week!', userSpeaker: 'Caroline' });
    expect(memory.assistantSummary).toBe('');
    expect(memory.userSummary).toBe('Caroline: I adopted a puppy named Max last week!');
  });

  it('keeps decisions and numbers of short turns whole', async () => {
    const { memory } = await processOnce({ user: PLANNING, assistant: 'Then PostgreSQL 16 it is. I will budget $5,000 for hosting.' });
    expect(memory.userSummary).toContain('$45,000');
    expect(memory.assistantSummary).toContain('$5,000');
  });
});

describe('required tier', () => {
  it('is 1 for small talk, 3 for a short hard rule, 2 for ordinary and code messages', async () => {
    const small = await processOnce({ user: 'Thanks so much, have a great day!', assistant: 'You too!' });
    expect(small.memory.messages.map((message) => message.requiredTier)).toEqual([1, 1]);
    const rule = await processOnce({ user: 'Under no circumstances should you email customers directly.', assistant: 'Understood.' });
    expect(rule.memory.messages[0]?.requiredTier).toBe(3);
    const ordinary = await processOnce({ user: 'I went hiking near Lisbon with my sister last weekend.' });
    expect(ordinary.memory.messages[0]?.requiredTier).toBe(2);
    const code = await processOnce({ user: 'Never use var. Fix this:\n```js\nvar x = 1;\n```' });
    expect(code.memory.messages[0]?.requiredTier).toBe(2);
    const longRule = await processOnce({ user: longMessage() });
    expect(longRule.memory.messages[0]?.requiredTier).toBe(2);
  });
});
