import { describe, expect, it } from 'vitest';

import type { DiffEntry } from '../../../src/core/diff.js';
import { checkGrounding } from '../../../src/core/grounding.js';
import { factKey } from '../../../src/core/text.js';
import { Conversation, processOnce } from './conversation.js';
import type { Said } from './conversation.js';

function entries(diff: { add: DiffEntry[]; update: DiffEntry[] }): DiffEntry[] {
  return [...diff.add, ...diff.update];
}

async function factsOf(said: Said): Promise<DiffEntry[]> {
  const { memory } = await processOnce(said);
  return entries(memory.diff);
}

describe('fact kinds', () => {
  it.each([
    ['exception', 'We must never store card numbers in the logs.', 'card numbers', /must never store card numbers/u],
    ['exception', "I'm allergic to peanuts, so keep them out of every recipe.", 'peanuts allergy', /allergic to peanuts/u],
    ['exception', 'Under no circumstances should you email customers directly.', 'customers', /Under no circumstances/u],
    ['constraint', 'The API has to respond within 200 ms for 95% of requests.', 'api', /has to respond within 200 ms for 95%/u],
    ['constraint', 'Our budget is $45,000 for the whole project.', 'budget', /\$45,000/u],
    ['goal', 'I want to run a marathon in October.', 'marathon', /want to run a marathon in October/u],
    ['preference', 'I prefer PostgreSQL 16 over MySQL for this project.', 'database', /prefer PostgreSQL 16 over MySQL/u],
    ['preference', 'I really hate cilantro.', 'cilantro', /hate cilantro/u],
    ['fact', 'We have about 2,500 daily active users right now.', 'daily active users', /2,500 daily active users/u],
  ] as const)('detects a %s: %s', async (kind, text, key, value) => {
    const found = await factsOf({ user: text, assistant: 'Noted.' });
    const entry = found.find((item) => item.kind === kind);
    expect(entry, JSON.stringify(found)).toBeDefined();
    expect(factKey(entry?.text ?? '')).toBe(key);
    expect(entry?.text).toMatch(value);
  });

  it('writes lines as `key: value` with a short key and a compact value', async () => {
    const found = await factsOf({
      user: 'We are building a billing dashboard. Our budget is $45,000 and the deadline is March 3. We must never store card numbers in the logs.',
      assistant: 'Got it.',
    });
    expect(found.map((entry) => entry.text)).toEqual(
      expect.arrayContaining(['budget: $45,000', 'deadline: March 3', 'card numbers: must never store card numbers in the logs']),
    );
    for (const entry of found) {
      const [key = '', value = ''] = entry.text.split(': ');
      expect(key.split(' ').length).toBeLessThanOrEqual(4);
      expect(value.split(/\s+/u).length).toBeLessThanOrEqual(30);
      expect(entry.sourceMessageIds).toEqual(['t1-user']);
    }
  });

  it('tells people apart in keys about them', async () => {
    const found = await factsOf({
      user: 'I went to a LGBTQ support group yesterday and it was so powerful.',
      userSpeaker: 'Caroline',
      assistant: 'My daughter Emma just turned 7.',
      assistantSpeaker: 'Melanie',
    });
    expect(found.map((entry) => entry.text)).toEqual(
      // ("yesterday" is followed by the day it was, from the message's time.)
      expect.arrayContaining(['caroline support group: went to a LGBTQ support group yesterday (7 May 2024)', 'melanie daughter emma: turned 7']),
    );
    expect(found.find((entry) => entry.text.startsWith('melanie'))?.sourceMessageIds).toEqual(['t1-assistant']);
  });

  it('takes no facts from an unnamed assistant by default, and all with assistantFacts: always', async () => {
    const said = { user: 'Which database should we use?', assistant: 'We should use PostgreSQL 16 with 30 days of backups.' };
    expect(await factsOf(said)).toEqual([]);
    const { memory } = await processOnce(said, { assistantFacts: 'always' });
    expect(entries(memory.diff).length).toBeGreaterThan(0);
  });
});

describe('figures of speech', () => {
  it.each([
    "I never thought I'd say this, but the new release is great.",
    'I have to say, that demo was hilarious.',
    'It must be nice to work from the beach.',
    "Honestly I can't believe how fast this week went.",
    'She never calls me back, typical.',
    'Keep going and never give up, buddy!',
    "You never know when those special moments might occur.",
    "It's my favorite and it never gets old.",
    "Don't ever be afraid to ask for help.",
    "Don't miss a beat.",
    'They brighten up our day and always make us smile.',
    'Hiking in the hills always made me feel better.',
    "Nature and quality time, can't beat it.",
    'Must be awesome to see your work on display.',
    'It made me think how much work we still have to do.',
    "Art's allowed me to explore who I am.",
    'I used to hold cats without an allergic reaction.',
    'Without this I would never be able to beat my competition.',
    'You should never give up on your dreams.',
    'You must never lose hope.',
    "I've written plenty of grants, but never for a foundation this size.",
  ])('are not rules: %s', async (text) => {
    const found = await factsOf({ user: text, assistant: 'Ha, I know.' });
    expect(found.filter((entry) => entry.kind === 'exception' || entry.kind === 'constraint')).toEqual([]);
  });

  it.each([
    ['He must never get ibuprofen or aspirin.', /ibuprofen or aspirin/u],
    ['Never stop the payroll server during business hours.', /stop the payroll server/u],
    ['Never give out the gate code to delivery drivers.', /give out the gate code/u],
    ["Don't ever forget to lock the side door.", /forget to lock the side door/u],
    ["I'm allergic to penicillin.", /allergic to penicillin/u],
  ])('saying-like rules stay rules: %s', async (text, value) => {
    const found = await factsOf({ user: text, assistant: 'Understood.' });
    expect(found.some((entry) => entry.kind === 'exception' && value.test(entry.text))).toBe(true);
  });

  it('reads "he" and "she" as the person just named', async () => {
    const found = await factsOf({ user: 'Melanie loves pottery and she has 3 kids.', assistant: 'That is a busy house!' });
    expect(found.map((entry) => entry.text)).toEqual(['melanie pottery: loves pottery', 'melanie kids: has 3 kids']);
  });
});

describe('short turns', () => {
  it('still record strong cues: rules, corrections, personal facts with specifics', async () => {
    const rule = await factsOf({ user: 'We must never deploy on Fridays.', assistant: 'Understood.' });
    expect(rule).toEqual([expect.objectContaining({ kind: 'exception', text: 'deploy: must never deploy on Fridays' })]);
    const personal = await factsOf({ user: 'I adopted a puppy named Max last week!', assistant: 'Aww, congrats!' });
    expect(personal.map((entry) => entry.text)).toEqual(['puppy: adopted a puppy named Max last week']);
  });

  it('give no facts for small talk and an empty diff for pure greetings', async () => {
    for (const said of [
      { user: 'Hey! How are you doing today?', assistant: "I'm doing well, thanks! How can I help?" },
      { user: 'Thanks so much, have a great weekend!', assistant: 'You too, take care!' },
      { user: 'lol that is so true', assistant: 'Haha, right?' },
      { user: 'Good morning!', assistant: 'Good morning! Nice to hear from you.' },
    ]) {
      const { memory } = await processOnce(said);
      expect(memory.diff).toEqual({ add: [], update: [], remove: [] });
      expect(memory.depth).toBe('short');
    }
  });

  it('do not turn plain chat without specifics into facts', async () => {
    const found = await factsOf({ user: 'That sounds like a really nice idea, maybe we can talk about it later.', assistant: 'Sure, whenever you like.' });
    expect(found).toEqual([]);
  });
});

describe('long messages', () => {
  it('capture a constraint stated in the first quarter', async () => {
    const opening =
      'Before anything else: the export job must finish within 15 minutes, otherwise the nightly reports break for every customer. ';
    const chatter = Array.from(
      { length: 12 },
      (_, index) =>
        `Point ${index + 1} of the retrospective was about how the team felt during the sprint, and people mostly said it went fine overall.`,
    ).join(' ');
    const text = `${opening}${chatter}`;
    expect(text.indexOf('must finish')).toBeLessThan(text.length / 4);
    const { memory } = await processOnce({ user: text, assistant: 'Thanks for the detailed notes.' });
    expect(memory.depth).toBe('long');
    expect(entries(memory.diff)).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'constraint', text: expect.stringMatching(/must finish within 15 minutes/u) })]),
    );
  });

  it('analyse only the first words of a huge message but keep its rules found lexically', async () => {
    const rule = 'We must never email customers on weekends.';
    const body = Array.from({ length: 400 }, (_, index) => `Line ${index} talks about item ${index} at Acme.`).join(' ');
    const { memory } = await processOnce({ user: `${body} ${rule}` }, { maxAnalysedWords: 50 });
    expect(entries(memory.diff)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'exception' })]));
  });
});

describe('grounding', () => {
  const conversations: Said[][] = [
    [
      { user: "Hi! I'm planning a trip to Lisbon with my sister Ana in June. Our budget is €3,200 for flights and hotels.", assistant: 'Lovely! Lisbon in June is warm.' },
      { user: 'Actually the budget is now €3,800 because flights went up. We must never book hostels.', assistant: 'Understood, €3,800 and no hostels.' },
      { user: 'I prefer window seats and I hate early flights before 8am.', assistant: 'Noted: window seats, no early flights.' },
      { user: 'Scratch that, Ana wants to go in July instead.', assistant: 'July it is.' },
    ],
    [
      { user: 'Our service runs on Node 20 with PostgreSQL 16 and Redis 7. The p95 latency must stay under 250 ms.', assistant: 'Good baseline.' },
      { user: "Let's drop Redis, we no longer need the cache. Deploys happen on Tuesdays at 10:30.", assistant: 'Dropping Redis.' },
      { user: 'The deadline moved to 2025-02-14 and Priya Natarajan owns the rollout.', assistant: 'Priya owns it, deadline 2025-02-14.' },
    ],
    [
      { user: 'I went to a pottery class with Melanie last Saturday and made 3 bowls!', userSpeaker: 'Caroline', assistant: "That's awesome, Caroline! I've been painting landscapes for 5 years now.", assistantSpeaker: 'Melanie' },
      { user: 'My kids are 4 and 9, and we live in Portland, Oregon.', userSpeaker: 'Caroline', assistant: 'We moved to Denver in 2019 and I love hiking there.', assistantSpeaker: 'Melanie' },
    ],
  ];

  it('every proposed add and update is grounded in its exchange', async () => {
    let checked = 0;
    for (const turns of conversations) {
      const conversation = new Conversation();
      for (const said of turns) {
        const { memory, exchange, messages, events } = await conversation.say(said);
        const ids = new Set(messages.map((message) => message.id));
        for (const entry of entries(memory.diff)) {
          // (A relative date resolved against the messages' time is grounded by that time.)
          const times = messages.flatMap((message) => (message.sentAt === null ? [] : [message.sentAt]));
          expect(checkGrounding(entry.text, exchange, times), entry.text).toEqual({ grounded: true, missing: [] });
          for (const id of entry.sourceMessageIds) expect(ids.has(id)).toBe(true);
          checked += 1;
        }
        expect(events.filter((event) => event.op === 'reject')).toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('what a sentence forbids or refuses keeps its negation and its object', () => {
  it.each([
    ['First, how I like to work: never include my personal mobile number in anything you draft.', 'exception', 'never include my personal mobile number'],
    ["I don't take meetings before 10:00, and my rate is €65 an hour.", 'fact', "don't take meetings before 10:00"],
    ["We won't pay in cash, whatever the discount.", 'constraint', "won't pay in cash"],
  ])('"%s" → a %s line with "%s"', async (said, kind, words) => {
    const conversation = new Conversation();
    await conversation.say({ user: said, assistant: 'Understood.' });
    const line = conversation.facts.find((fact) => fact.text.includes(words));
    expect(line, conversation.facts.map((fact) => fact.text).join('\n')).toBeDefined();
    expect(line?.kind).toBe(kind);
  });

  it('"the payouts never match — never the same difference twice" is a complaint, not a rule', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The Square payouts never match the sales — never the same difference twice.', assistant: 'Let us look at fees.' });
    expect(conversation.facts.filter((fact) => fact.kind === 'exception')).toEqual([]);
  });

  it('"since we\'re up to 150 kids now" changes the headcount of 120', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The program will serve about 120 kids across the two schools.', assistant: 'Noted.' });
    await conversation.say({ user: "And since we're up to 150 kids now that Fernwood opened a third classroom, the cost line needs redoing.", assistant: 'OK.' });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain('150 kids');
    expect(texts).not.toContain('120 kids');
  });
});

describe('house rules said the way people say them', () => {
  it.each([
    ['One: we do not use glyphosate. Not Roundup, not on driveways, not for a client who begs.', 'glyphosate'],
    ['Two: no landscape fabric. Ever.', 'landscape fabric'],
    ["Grace asked if she could just Venmo the deposit. No. We don't take Venmo, Zelle, Cash App, any of it.", 'Venmo, Zelle, Cash App'],
    ['Dev has celiac disease, and Algernon eats constantly in this play.', 'celiac'],
  ])('"%s" pins a rule naming %s', async (said, words) => {
    const conversation = new Conversation();
    await conversation.say({ user: said, assistant: 'Understood.' });
    const rule = conversation.facts.find((fact) => fact.text.includes(words));
    expect(rule, conversation.facts.map((fact) => fact.text).join('\n')).toBeDefined();
    expect(rule?.kind).toBe('exception');
    expect(rule?.pinned).toBe(true);
  });

  it("\"Chidi read on some forum that you 'must' put fabric under a path\" is no requirement: the word is quoted, not meant", async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "Second snag: Chidi read on some forum that you 'must' put landscape fabric under a gravel path.", assistant: 'Hmm.' });
    expect(conversation.facts.filter((fact) => fact.kind === 'constraint' || fact.kind === 'exception')).toEqual([]);
  });
});

describe('a clause after ", so"', () => {
  it('"Luis sent the change order yesterday, so the contract\'s $49,300 all-in now" keeps the contract figure', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "Luis sent the change order yesterday, so the contract's $49,300 all-in now.", assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text)).toContain('contract: $49,300 all-in now');
  });
});

describe('many lines of one subject', () => {
  it('gives each of 40 quotes of the same thing a key of its own, and the turns stay fast (no search for a free key without end)', async () => {
    const conversation = new Conversation();
    for (let index = 0; index < 40; index += 1) {
      await conversation.say({ user: `Turn ${index + 1}: the tiler quoted £${1000 + index} for the floor.`, assistant: 'Noted.' });
    }
    const keys = conversation.facts.map((fact) => fact.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(conversation.facts.filter((fact) => /quoted £10\d\d for the floor/u.test(fact.text))).toHaveLength(40);
  });

  it('reads "Turn 2:" or "Day 3:" as a counter heading the clause, not as what it is about', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Day 3: we fly to Lisbon at 9am.', assistant: 'Noted.' });
    await conversation.say({ user: 'Turn 2: the tiler quoted £1,000 for the floor.', assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.key)).toEqual(['lisbon', 'tiler']);
  });
});
