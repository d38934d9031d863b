import { describe, expect, it } from 'vitest';

import { Conversation } from './conversation.js';

describe('corrections', () => {
  it('"actually the budget changed to …" updates the budget fact: one budget fact, the new value', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our budget is $40,000 for the whole project.', assistant: 'Got it: $40,000.' });
    expect(conversation.factsWithKey('budget').map((fact) => fact.text)).toEqual(['budget: $40,000 for the whole project']);

    const { memory, events } = await conversation.say({ user: 'Actually the budget changed to $45,000.', assistant: 'Understood, $45,000 it is.' });
    expect(memory.diff.update).toEqual([
      { text: 'budget: $45,000', kind: 'constraint', key: 'budget', sourceMessageIds: ['t2-user'], reason: '"Actually the budget changed to $45,000."' },
    ]);
    expect(memory.diff.add).toEqual([]);
    const budget = conversation.factsWithKey('budget');
    expect(budget).toHaveLength(1);
    expect(budget[0]?.text).toContain('45,000');
    expect(conversation.facts.filter((fact) => fact.text.includes('40,000'))).toEqual([]);
    expect(events.filter((event) => event.op === 'update').map((event) => event.reason)).toEqual(['turn 2: "Actually the budget changed to $45,000."']);
  });

  it.each([
    ['The deadline is March 3.', 'The deadline moved to March 10 because of the holidays.', 'deadline', 'March 10', 'March 3'],
    ['The deadline is March 3.', 'No, the deadline is March 10.', 'deadline', 'March 10', 'March 3'],
    ['Our budget is $45,000.', 'The budget is now $50k after the review.', 'budget', '$50k', '45,000'],
    ['I prefer PostgreSQL 16 for the database.', "Hmm, let's use MySQL instead.", 'database', 'MySQL', 'PostgreSQL'],
    ['We deploy on Fridays.', 'Scratch that, we deploy on Mondays instead.', 'deploy', 'Mondays', 'Fridays'],
    ['Our budget is $40,000.', 'Actually, make that $45k.', 'budget', '$45k', '40,000'],
    ['We meet in Munich on Tuesday.', 'Wait, I meant Berlin, not Munich.', 'munich', 'Berlin', 'meet in Munich'],
  ])('"%s" then "%s" leaves one %s fact with the new value', async (first, second, key, fresh, old) => {
    const conversation = new Conversation();
    await conversation.say({ user: first, assistant: 'Noted.' });
    const before = conversation.facts.length;
    expect(before).toBeGreaterThan(0);
    const { memory } = await conversation.say({ user: second, assistant: 'OK.' });
    expect(memory.diff.update.length, JSON.stringify(memory.diff)).toBe(1);
    expect(conversation.facts).toHaveLength(before);
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain(fresh);
    expect(texts).not.toContain(old);
    expect(conversation.facts.some((fact) => fact.key.includes(key) || fact.text.toLowerCase().includes(key))).toBe(true);
  });

  it('a correction inside one message keeps only the corrected line', async () => {
    const conversation = new Conversation();
    const { memory } = await conversation.say({ user: 'The budget is $40,000. Actually, make that $45,000.', assistant: 'OK.' });
    expect(memory.diff.add).toEqual([expect.objectContaining({ text: 'budget: $45,000' })]);
    expect(conversation.factsWithKey('budget')).toHaveLength(1);
  });

  it('a later plain statement with the same key replaces the value instead of adding a second one', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The deadline is March 3.', assistant: 'Noted.' });
    await conversation.say({ user: 'The deadline is March 17 for the beta.', assistant: 'Noted.' });
    expect(conversation.factsWithKey('deadline').map((fact) => fact.text)).toEqual(['deadline: March 17 for the beta']);
  });
});

describe('removals', () => {
  it.each([
    ['We need SSO for login.', 'We no longer need SSO.', /SSO/u],
    ['We also need a Redis cache for sessions.', 'Forget the Redis cache, we will not need it.', /Redis/u],
    ['We need a Redis cache for sessions.', "Let's drop the Redis cache.", /Redis/u],
    ['We need SSO for login.', "We don't need SSO anymore.", /SSO/u],
  ])('"%s" then "%s" removes the requirement, with the cue as reason', async (first, second, gone) => {
    const conversation = new Conversation();
    await conversation.say({ user: first, assistant: 'Noted.' });
    expect(conversation.facts.some((fact) => gone.test(fact.text))).toBe(true);
    const { memory, events } = await conversation.say({ user: second, assistant: 'OK, dropped.' });
    expect(memory.diff.remove).toHaveLength(1);
    expect(memory.diff.remove[0]?.reason).toContain(second.split(' ').slice(-2).join(' ').replace(/[.,]/gu, ''));
    expect(memory.diff.remove[0]?.sourceMessageIds).toEqual(['t2-user']);
    expect(conversation.facts.some((fact) => gone.test(fact.text))).toBe(false);
    expect(events.filter((event) => event.op === 'remove')).toHaveLength(1);
  });

  it('a removal that matches nothing proposes nothing', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our budget is $40,000.', assistant: 'Noted.' });
    const { memory } = await conversation.say({ user: 'We no longer need SSO.', assistant: 'OK.' });
    expect(memory.diff).toEqual({ add: [], update: [], remove: [] });
    expect(conversation.facts).toHaveLength(1);
  });

  it('keeps a pinned exception when a later plain line shares its words', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'We must never store card numbers in the logs.', assistant: 'Noted.' });
    await conversation.say({ user: 'The card numbers table has 3 columns.', assistant: 'OK.' });
    const pinned = conversation.facts.filter((fact) => fact.pinned);
    expect(pinned.map((fact) => fact.text)).toEqual(['card numbers: must never store card numbers in the logs']);
  });

  it('a removal that describes the fact rather than naming its key drops it', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Also, the live chat widget on help.example.io has to be migrated in phase 1 as well.', assistant: 'Added to phase 1.' });
    await conversation.say({ user: 'The budget is $900 a month for hosting.', assistant: 'Noted.' });
    expect(conversation.facts.some((fact) => fact.text.includes('chat widget'))).toBe(true);
    const { memory } = await conversation.say({
      user: "Change of plans on chat: we're moving live chat to Crisp next month, so we don't need to migrate the socket.io chat widget at all anymore.",
      assistant: 'Dropped from the plan.',
    });
    expect(memory.diff.remove.map((entry) => entry.reason)).toEqual([expect.stringContaining("don't need to migrate the socket.io chat widget")]);
    expect(conversation.facts.some((fact) => fact.text.includes('chat widget'))).toBe(false);
    expect(conversation.facts.some((fact) => fact.text.includes('$900'))).toBe(true);
  });

  it('a headcount said again as a change updates the headcount, never the payday that shares its number', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I've got 11 staff, mostly part-timers, and everyone gets paid on the 13th.", assistant: 'Noted.' });
    await conversation.say({ user: "Other news: I've taken on Jonah for weekends. So that's thirteen of us on the books now.", assistant: 'Welcome, Jonah.' });
    const texts = conversation.facts.map((fact) => fact.text);
    expect(texts.filter((text) => /\b11 staff\b/u.test(text))).toEqual([]);
    expect(texts.some((text) => text.includes('thirteen of us on the books'))).toBe(true);
    expect(texts.some((text) => text.includes('paid on the 13th'))).toBe(true);
  });

  it('a new value said after the old one in the same message replaces it in the stored fact, and the impression makes no fact', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I'm training for the Salford Quays Half Marathon on 12 October and I'd like to finish in 1:55.", assistant: 'Noted.' });
    await conversation.say({ user: 'About the target time. Honestly, 1:55 feels ambitious with the knee. Let\'s aim for 2:00 instead.', assistant: 'Fair, 2:00 it is.' });
    const texts = conversation.facts.map((fact) => fact.text);
    expect(texts.some((text) => text.includes('finish in 2:00'))).toBe(true);
    expect(texts.filter((text) => text.includes('1:55'))).toEqual([]);
    expect(texts.filter((text) => text.includes('ambitious'))).toEqual([]);
  });

  it.each([
    ['The kitchen budget is $40,000.', 'The kitchen light is off again, can you believe it.', '$40,000'],
    ['The report deadline is June 3.', 'The quarterly report is out this week.', 'June 3'],
    ['The hotel budget is $3,000.', 'Forget the hotel shuttle, we will walk.', '$3,000'],
  ])('a state or a remark is no removal of a fact that shares a word: "%s" then "%s"', async (first, second, kept) => {
    const conversation = new Conversation();
    await conversation.say({ user: first, assistant: 'Noted.' });
    const { memory } = await conversation.say({ user: second, assistant: 'Ha, OK.' });
    expect(memory.diff.remove).toEqual([]);
    expect(conversation.facts.some((fact) => fact.text.includes(kept))).toBe(true);
  });

  it('"Jonas is out" drops the one fact about Jonas', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'My colleague Jonas Meier is joining for 13–15 May and needs his own room.', assistant: 'Two rooms, then.' });
    await conversation.say({ user: 'The hotel cap is CHF 220 per night.', assistant: 'Noted.' });
    await conversation.say({ user: 'Jonas is out, by the way. His project slipped.', assistant: 'One room, then.' });
    expect(conversation.facts.some((fact) => fact.text.includes('Jonas'))).toBe(false);
    expect(conversation.facts.some((fact) => fact.text.includes('CHF 220'))).toBe(true);
  });

  it('a headcount change leaves lines that hold a number but no count of people, and keeps the other parts of a line', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Office parking is on level 3 of the garage.', assistant: 'Noted.' });
    await conversation.say({ user: 'The offsite is for 12 people, 3 nights in Lisbon, budget $9,000.', assistant: 'Noted.' });
    await conversation.say({ user: "Quick one: so that's thirteen of us now.", assistant: 'Thirteen, noted.' });
    const texts = conversation.facts.map((fact) => fact.text);
    expect(texts.some((text) => text.includes('level 3'))).toBe(true);
    expect(texts.some((text) => text.includes('Lisbon') && text.includes('$9,000'))).toBe(true);
    expect(texts.some((text) => text.includes('thirteen of us'))).toBe(true);
  });
});

describe('a change the manager cannot place', () => {
  it('"the client workshop moved, it is now on 10 March" beside a kickoff on 3 March: added, naming the kickoff as the fact it may replace', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The kickoff meeting with the client is on 3 March.', assistant: 'Noted.' });
    const { memory } = await conversation.say({ user: 'Actually the client workshop moved, it is now on 10 March.', assistant: 'OK.' });
    expect(memory.diff.update).toEqual([]);
    expect(memory.diff.add).toEqual([expect.objectContaining({ key: 'client workshop', mayReplace: 'kickoff' })]);
    expect(conversation.facts.map((fact) => fact.text)).toContain('kickoff: meeting with the client is on 3 March');
  });

  it.each([
    // Two measures in other units are two attributes.
    ['The worker container has 512 MB of memory.', 'The worker SLA says 1 million lines in under 10 seconds.'],
    // Two deadlines of two things.
    ['The final artwork deadline is 4 December.', 'The flat fee deadline is 30 January.'],
    // Nothing changed, nothing shared.
    ['The kickoff meeting with the client is on 3 March.', 'The dentist appointment is on 12 March.'],
  ])('"%s" then "%s": a line of its own, naming nothing it may replace', async (first, second) => {
    const conversation = new Conversation();
    await conversation.say({ user: first, assistant: 'Noted.' });
    const { memory } = await conversation.say({ user: second, assistant: 'Noted.' });
    expect(memory.diff.add.length).toBeGreaterThan(0);
    expect(memory.diff.add.filter((entry) => entry.mayReplace !== undefined)).toEqual([]);
    expect(memory.diff.update).toEqual([]);
  });
});

describe('a line of several attributes', () => {
  it('changes the one attribute a message changes and keeps the others', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our budget is €18,000 per year all-in, for 35 agent seats.', assistant: 'Noted.' });
    await conversation.say({ user: "Headcount update: we're absorbing the customs team from Antwerp, so it's 42 agents, not 35.", assistant: 'OK, 42.' });
    expect(conversation.factsWithKey('budget').map((fact) => fact.text)).toEqual(['budget: €18,000 per year all-in, for 42 agent seats']);
    // A new amount replaces the amount; the seats it covers still hold.
    await conversation.say({ user: 'Martin approved raising the budget to €22,000 a year.', assistant: 'Great.' });
    const [budget] = conversation.factsWithKey('budget');
    expect(budget?.text).toContain('€22,000');
    expect(budget?.text).toContain('42 agent seats');
    expect(budget?.text).not.toContain('18,000');
  });
});

describe('removals and changes said in passing', () => {
  it('"forget the Skoda" drops the one fact naming the Skoda, whatever its key', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "Rohan's found a used Skoda Octavia estate, 2021, for €14,000 at a dealer in Riem.", assistant: 'Nice find.' });
    await conversation.say({ user: 'Our budget for the first month is €6,000.', assistant: 'Noted.' });
    expect(conversation.facts.some((fact) => fact.text.includes('Skoda'))).toBe(true);
    const { memory } = await conversation.say({ user: "Oh, and forget the Skoda. It's madness to buy a car in the first month.", assistant: 'Agreed.' });
    expect(memory.diff.remove).toEqual([expect.objectContaining({ reason: '"Oh, and forget the Skoda."' })]);
    expect(conversation.facts.some((fact) => fact.text.includes('Skoda'))).toBe(false);
    expect(conversation.facts.some((fact) => fact.text.includes('€6,000'))).toBe(true);
  });

  it('"can you stop with the bullet points?" drops the liking for bullet points, and the new preference is kept', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'I like bullet points when you summarise things for me.', assistant: 'Will do.' });
    await conversation.say({ user: "Also, can you stop with the bullet points? I've realised I prefer short paragraphs.", assistant: 'Of course.' });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).not.toContain('like bullet points');
    expect(texts).toContain('short paragraphs');
  });

  it('a change of a date the fact under its key never held names the fact holding one as possibly superseded', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Brightwater is my biggest client.', assistant: 'Noted.' });
    await conversation.say({ user: 'Brightwater Kids wants 12 spot illustrations. Flat fee $4,800, due 30 January.', assistant: 'Noted.' });
    const { memory } = await conversation.say({ user: 'Update on that: Rachel moved the Brightwater due date to 23 January.', assistant: 'Noted: 23 January.' });
    const changed = [...memory.diff.update, ...memory.diff.add].find((entry) => entry.text.includes('23 January'));
    const dated = conversation.facts.find((fact) => fact.text.includes('30 January'));
    expect(dated).toBeDefined();
    expect(changed?.mayReplace).toBe(dated?.key);
  });
});

describe('a change never lands on a value said elsewhere in the message', () => {
  it('"the storm on Tuesday … his mid-April start slid to June" leaves the Tuesday of another fact alone', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'For quotes, I have two contractors coming out Monday and Tuesday.', assistant: 'Good.' });
    const before = conversation.facts.find((fact) => fact.text.includes('Monday and Tuesday'))?.text;
    expect(before).toBeDefined();
    await conversation.say({
      user:
        'Okay, big week. That storm on Tuesday found a soft spot in our roof over the garage, about $6,000 to fix. ' +
        'Aaron and I sat down with the spreadsheet Thursday night. Also, Tom emailed that his mid-April start slid to June because a commercial job ran long.',
      assistant: 'Sorry about the roof.',
    });
    expect(conversation.facts.map((fact) => fact.text)).toContain(before);
    expect(conversation.facts.some((fact) => fact.text.includes('Monday and June'))).toBe(false);
  });

  it('a name said earlier in the message is never swapped for another ("Kaveri want to pack us" stays Kaveri)', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Rohan has a job at Voss Medizintechnik in Munich. He starts on 20 July.', assistant: 'Congratulations.' });
    await conversation.say({
      user: 'Air freight first: Kaveri want to pack us on the 21st. Rohan’s start got pushed — Voss moved the whole onboarding group to 3 August.',
      assistant: 'Noted.',
    });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).not.toMatch(/Voss want/u);
  });
});

describe('a requirement is not overwritten by talk about the same thing', () => {
  it('the HOA hours stay when the same message tells of a fine, and "induction, that\'s the plan" stays beside the reviews read', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user:
        'The HOA is strict: they allow construction 8 to 6, Monday through Saturday, and nothing on Sundays. ' +
        'They fined the Parks next door $250 because their tile guy ran a wet saw on a Sunday morning.',
      assistant: 'Noted.',
    });
    const texts = (): string => conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts()).toContain('nothing on Sundays');
    expect(texts()).toContain('$250');
    await conversation.say({ user: "Induction, 30-inch, that's the plan. Aaron has been reading induction reviews at 1 a.m. like they're thrillers.", assistant: 'Good.' });
    expect(texts()).toContain("Induction, 30-inch, that's the plan");
  });
});

describe('a change said with "anymore"', () => {
  it('"Not Aurora anymore: plain RDS for PostgreSQL 16" reads as the new choice, without the leftover "anymore:"', async () => {
    const conversation = new Conversation();
    const { memory } = await conversation.say({ user: 'Do option 1. Not Aurora anymore: plain RDS for PostgreSQL 16, Multi-AZ.', assistant: 'RDS it is.' });
    const line = [...memory.diff.add, ...memory.diff.update].find((entry) => entry.text.includes('plain RDS'));
    expect(line?.text).toMatch(/: plain RDS for PostgreSQL 16, Multi-AZ$/u);
  });
});

describe('what is reported, and what only shares a unit', () => {
  it('"I told every client the standard weekly rate is $62 starting May 1" is about the standard weekly rate', async () => {
    const conversation = new Conversation();
    const { memory } = await conversation.say({ user: 'Diesel is up again, so I told every client the standard weekly rate is $62 starting May 1.', assistant: 'Noted.' });
    expect(memory.diff.add).toEqual([expect.objectContaining({ key: 'standard weekly rate', text: 'standard weekly rate: $62 starting May 1' })]);
  });

  it('two word counts of two things, or two dates said "next", are not one fact changing', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Mine is sitting at 820 words and the portal caps program description at 600. So I need to lose more than 200 words.', assistant: 'Let us cut.' });
    await conversation.say({ user: 'Two snags already. They want to walk the yard with me next Thursday before they sign anything.', assistant: 'Good.' });
    const abstract = await conversation.say({ user: 'Can you also draft the abstract? Hard limit 150 words, and it should mention both schools.', assistant: 'Sure.' });
    const patio = await conversation.say({ user: 'Walkthrough went well yesterday, mostly. You called it: they are doing the patio next year instead.', assistant: 'OK.' });
    const doubted = [abstract, patio].flatMap(({ memory }) => [...memory.diff.add, ...memory.diff.update]).filter((entry) => entry.mayReplace !== undefined);
    expect(doubted).toEqual([]);
  });
});

describe('rules and facts under one word', () => {
  it('a rule naming the studio is no new studio, and "3–1" in a vote never turns 1pm into 100pm', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I've found a studio, Fernhill Studios in Leith, £350 a day, and they've got Friday 29 to Sunday 31 May free.", assistant: 'Great.' });
    await conversation.say({ user: 'So nothing on a Sunday before 1pm, ever, studio or gig or photo shoot or anything.', assistant: 'Noted.' });
    const texts = (): string => conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts()).toContain('Fernhill Studios in Leith');
    expect(texts()).toContain('before 1pm');
    expect(conversation.facts.filter((fact) => fact.mayReplace !== undefined)).toEqual([]);
    await conversation.say({ user: "Vinyl: we're not doing it, Tam lost the vote 3–1. Instead we're ordering 100 cassettes from Tapeline Duplication, £3.10 each.", assistant: 'OK.' });
    expect(texts()).not.toContain('100pm');
  });
});

describe('a headcount said plainly', () => {
  it('"so the headcount is 185" changes the count of people in the one line that holds one, and keeps the rest', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'We need boxed lunches for about 150 people plus a display cake.', assistant: 'OK.' });
    await conversation.say({ user: 'On the plus side, the Portland office is only sending some people in the end, so the headcount is 185.', assistant: 'OK.' });
    expect(conversation.factsWithKey('lunches').map((fact) => fact.text)).toEqual(['lunches: need boxed lunches for about 185 people plus a display cake']);
  });
});

describe('a change of dose said beside a time and a day', () => {
  it('"rang at 8:30 … Wednesday\'s INR … knocked the warfarin down to 2.5 mg from tonight" keeps the new dose and never rewrites the time or the day', async () => {
    const conversation = new Conversation();
    const { memory } = await conversation.say({
      user: "Janet, the anticoag nurse, rang at 8:30 to say Wednesday's INR came back at 3.8, which is too high. Anyway she's knocked the warfarin down to 2.5 mg from tonight.",
      assistant: 'Noted.',
    });
    const lines = [...memory.diff.add, ...memory.diff.update].map((entry) => entry.text).join('\n');
    expect(lines).toContain('2.5 mg');
    expect(lines).not.toMatch(/rang at tonight|say tonight INR/u);
  });
});

describe('a change said inside a longer sentence', () => {
  it('"the list is down to 96 now, because …: no plus-ones" updates the guest list, though a colon follows', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The guest list is about 120 at the moment.', assistant: 'Noted.' });
    await conversation.say({
      user: 'And the list is down to 96 now, because we finally had the talk with both mums: no plus-ones unless you are married.',
      assistant: 'Well done.',
    });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain('96');
    expect(texts).not.toContain('120');
  });

  it('", and sadly Halcombe is dead" is a clause of its own that drops the fact about Halcombe', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Halcombe Hall is holding the date for us until the end of the month, for £6,500.', assistant: 'Lovely.' });
    expect(conversation.facts.map((fact) => fact.text).join('\n')).toMatch(/halcombe/iu);
    await conversation.say({ user: 'Mia needs the venue for the invitations, and sadly Halcombe is dead.', assistant: 'Oh no.' });
    expect(conversation.facts.map((fact) => fact.text).join('\n')).not.toMatch(/halcombe/iu);
  });
});

describe('an update lands only on the same attribute', () => {
  it('"Kaveri want to pack us on the 21st. Rohan\'s start got pushed … to 3 August" keeps the packing on the 21st', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Rohan starts at Voss on 20 July.', assistant: 'Noted.' });
    await conversation.say({
      user: 'Air freight first: Kaveri want to pack us on the 21st. Rohan\'s start got pushed — Voss moved the whole onboarding group to 3 August.',
      assistant: 'Got it.',
    });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toMatch(/pack us on the 21st(?!.*August)/u);
    expect(texts).toContain('3 August');
  });

  it('a line about a person does not overwrite another attribute of theirs ("Anika is 8" stays beside her tutor)', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'We have two kids — Anika, 8, and Vihaan, 6 — and Pepper, a seven-year-old dog.', assistant: 'Lovely.' });
    const before = conversation.facts.find((fact) => fact.text.includes('8'));
    expect(before).toBeDefined();
    await conversation.say({ user: 'They are going to the Grundschule with Markus\'s kids, and we\'ll get Anika a German tutor over the summer.', assistant: 'Good idea.' });
    expect(conversation.facts.find((fact) => fact.id === before?.id)?.text).toBe(before?.text);
  });

  it('what happened at a place is news beside the fact, never its new value ("We got to VFS at 8:30 …")', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'VFS gave us our visa appointment for 28 April.', assistant: 'Noted.' });
    const appointment = conversation.facts.find((fact) => fact.text.includes('28 April'));
    expect(appointment).toBeDefined();
    await conversation.say({ user: 'We got to VFS at 8:30 with both kids in ironed clothes and every document in the backpack.', assistant: 'How did it go?' });
    expect(conversation.facts.find((fact) => fact.id === appointment?.id)?.text).toBe(appointment?.text);
  });
});

describe('a change that names only what the sentence before it named', () => {
  it('"We got to VFS at 8:30 … Our new slot is next Tuesday" names the VFS appointment as the fact it may replace', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'VFS gave us our visa appointment for 28 April.', assistant: 'Noted.' }, '2026-04-20T10:00:00Z');
    const appointment = conversation.facts.find((fact) => fact.text.includes('28 April'));
    expect(appointment).toBeDefined();
    const { memory } = await conversation.say(
      { user: 'Tuesday was a farce. We got to VFS at 8:30 and their biometric system was down all morning. Our new slot is next Tuesday, same time.', assistant: 'What a day.' },
      '2026-04-29T19:00:00Z',
    );
    const slot = memory.diff.add.find((entry) => entry.text.includes('next Tuesday'));
    expect(slot?.text).toContain('5 May 2026');
    expect(slot?.mayReplace).toBe(appointment?.key);
  });
});

describe('values of two subjects in one sentence', () => {
  it('"the grant came in at $1,500 instead of $2,200, and the cap is now $5,800" keeps the grant at $1,500 and names the old budget as possibly replaced', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The whole production budget is $6,500.', assistant: 'Noted.' });
    const budget = conversation.facts.find((fact) => fact.text.includes('6,500'));
    const { memory } = await conversation.say({
      user: 'Money first: the arts grant came in at $1,500 instead of the $2,200 we asked for, so the board met and the cap is now $5,800 for the whole production, full stop.',
      assistant: 'Understood.',
    });
    const texts = conversation.facts.map((fact) => fact.text);
    expect(texts.find((text) => text.includes('grant'))).toContain('$1,500');
    expect(texts.find((text) => text.includes('grant'))).not.toContain('5,800');
    const cap = memory.diff.add.find((entry) => entry.text.includes('5,800'));
    expect(cap?.mayReplace).toBe(budget?.key);
  });
});

describe('offers', () => {
  it('"Deskwise offered a 10% discount if we sign for 36 months" waits for an answer: no fact', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Deskwise Professional is €19,656 a year for 42 seats, and Tallyfront is €21,000.', assistant: 'Noted.' });
    await conversation.say({ user: 'Go-live is 15 April and kickoff is 3 February.', assistant: 'Noted.' });
    const { memory } = await conversation.say({ user: 'Deskwise just offered a 10% discount if we sign for 36 months. Tempting, honestly.', assistant: 'It breaks the renewal rule, though.' });
    expect([...memory.diff.add, ...memory.diff.update].map((entry) => entry.text).join('\n')).not.toContain('36 months');
  });
});

describe('a ban said again', () => {
  it('"Under no circumstances are we buying another diesel. … So diesel is out. Completely." keeps the pinned rule', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: 'Must-nots first. Under no circumstances are we buying another diesel. The filter clogged three times, the last one was £1,400. So diesel is out. Completely.',
      assistant: 'Understood: no diesel.',
    });
    const rule = conversation.facts.find((fact) => fact.kind === 'exception' && /diesel/u.test(fact.text));
    expect(rule?.pinned).toBe(true);
    expect(conversation.facts.filter((fact) => /diesel/u.test(fact.text)).length).toBeGreaterThanOrEqual(1);
  });
});

describe('actions the assistant reports done', () => {
  it('"Book the Swiss one." — "Booked: Swiss LX2084 on 11 May …" keeps the booking; a new booking for another day is another fact, one for the same day replaces it', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Book the Swiss one. Aisle if possible.', assistant: 'Booked: Swiss LX2084, 11 May 18:20 ZRH → 20:10 LIS, Flex fare CHF 389, aisle seat 14C.' });
    await conversation.say({ user: 'Fine, book the 19:05 home then.', assistant: 'Booked: Swiss LX2091, 16 May 19:05 LIS → 22:40 ZRH, Flex fare CHF 356.' });
    await conversation.say({ user: 'TP928 is fine. Book it, flexible fare.', assistant: 'Booked: TAP TP928, 16 May 17:40 LIS → 21:15 ZRH, flexible fare CHF 398.' });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain('LX2084');
    expect(texts).toContain('TP928');
    expect(texts).not.toContain('LX2091');
  });

  it('an assistant that only suggests, or reports what nobody asked for, adds nothing of its own', async () => {
    const conversation = new Conversation();
    const { memory } = await conversation.say({ user: 'Which flights are there on 11 May?', assistant: 'Booked solid on the morning ones, but Swiss LX2084 at 18:20 has seats, Flex CHF 389.' });
    expect(memory.diff.add.map((entry) => entry.text).join('\n')).not.toContain('LX2084');
  });
});

describe('a change asked as a question', () => {
  it('"Can we go to 2,400 instead of 2,600?" answered "Yes. …" changes the intake; answered otherwise it changes nothing', async () => {
    const accepted = new Conversation();
    await accepted.say({ user: 'I want to eat around 2,600 kcal a day with enough protein for recovery.', assistant: 'Noted.' });
    await accepted.say({ user: 'Can we go to 2,400 instead of 2,600?', assistant: 'Yes. At 2,400 kcal you should lose about 0.25–0.5 kg a week.' });
    const acceptedTexts = accepted.facts.map((fact) => fact.text).join('\n');
    expect(acceptedTexts).toContain('2,400');
    expect(acceptedTexts).not.toContain('2,600');

    const declined = new Conversation();
    await declined.say({ user: 'I want to eat around 2,600 kcal a day with enough protein for recovery.', assistant: 'Noted.' });
    await declined.say({ user: 'Can we go to 2,400 instead of 2,600?', assistant: "I'd rather not during the build phase: your long runs need the fuel." });
    const declinedTexts = declined.facts.map((fact) => fact.text).join('\n');
    expect(declinedTexts).toContain('2,600');
    expect(declinedTexts).not.toContain('2,400');
  });
});

describe('a change opened and completed later in the message', () => {
  it('"I\'ve changed my mind about the school again … They\'re going to the Grundschule" replaces the school chosen before', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'We have two kids, Anika and Vihaan. I think I am going with Isarhaus International School for them.', assistant: 'Noted.' });
    await conversation.say({ user: 'We will need a car seat for Vihaan and a desk for Anika.', assistant: 'Noted.' });
    await conversation.say({ user: 'The flat in Trudering has two bedrooms and a balcony.', assistant: 'Lovely.' });
    await conversation.say({
      user: "I've changed my mind about the school again, and this time I mean it. The bus from Trudering is 50 minutes each way. Two kids in two schools, and my daughter on a waiting list. No. They're going to the Grundschule in Trudering with Markus's kids.",
      assistant: 'That sounds like the right call.',
    });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain('Grundschule');
    expect(texts).not.toMatch(/going with Isarhaus/u);
  });
});

describe('dropping a subject', () => {
  it('"I\'ve decided to skip Porto" drops every line kept about Porto, the second line of the subject too', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Afterwards I want to take the train up to Porto for two days of holiday and fly home from Porto on 18 May.', assistant: 'Lovely.' });
    await conversation.say({ user: "Book the Almirante for 11–16 May, plus the Porto train and the flight home from Porto. I'll sort out the Porto guesthouse myself.", assistant: 'Booked.' });
    const porto = conversation.facts.filter((fact) => fact.key.startsWith('porto'));
    expect(porto.map((fact) => fact.key)).toContain('porto guesthouse');
    expect(porto.length).toBeGreaterThanOrEqual(3);
    await conversation.say({ user: "And I've decided to skip Porto. It's too much travel for one week.", assistant: 'Understood.' });
    expect(conversation.facts.filter((fact) => porto.some((dropped) => dropped.id === fact.id))).toEqual([]);
  });
  it('"Dad" is a person: his lines are filed under him and what they are about, and a new doctor for him leaves his age alone', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Dad is 83 and lives on his own in Moortown.', assistant: 'Noted.' });
    await conversation.say({ user: 'Dad has the dentist on Friday at Roundhay Dental with Mr Patel.', assistant: 'OK.' });
    await conversation.say({ user: "Dad has two pints of Tetley's at the bowls club on a Thursday.", assistant: 'OK.' });
    await conversation.say({ user: "And the heart letter came this morning. He's been moved to Dr Okonkwo at the LGI.", assistant: 'OK.' });
    const texts = conversation.facts.map((fact) => fact.text);
    expect(texts).toContainEqual(expect.stringContaining('83 and lives on his own in Moortown'));
    expect(texts).toContainEqual(expect.stringContaining('dentist on Friday'));
    expect(texts).toContainEqual(expect.stringContaining('two pints'));
    expect(texts).toContainEqual(expect.stringContaining('Dr Okonkwo'));
  });
});
