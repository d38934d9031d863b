import { describe, expect, it } from 'vitest';

import { Conversation } from './conversation.js';

describe('a change someone else made', () => {
  it('"Rachel moved the Brightwater due date to 23 January" is about the due date, and may replace the deadline said beside Brightwater', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Brightwater Kids want 12 spot illustrations for an activity book. Flat fee $4,800, due 30 January.', assistant: 'Noted.' });
    await conversation.say({ user: 'Lindqvist Förlag want the final artwork due 4 December.', assistant: 'Noted.' });
    await conversation.say({ user: 'Looking ahead: I am planning to take February off completely.', assistant: 'Noted.' });
    await conversation.say({ user: 'Update on that: Rachel moved the Brightwater due date to 23 January, so even more breathing room before February.', assistant: 'Noted.' });

    const moved = conversation.facts.find((fact) => fact.text.includes('23 January'));
    expect(moved?.key).toBe('brightwater due date');
    // The mark names the Brightwater deadline, not the other client's, told apart by the message it came from.
    const doubted = conversation.facts.find((fact) => fact.id === moved?.mayReplace);
    expect(doubted?.text).toContain('30 January');
    // The February plan only shares a month with the comment after the change: it stays as it was.
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('take February off completely'));
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('4 December'));
  });

  it('"The landlord pushed the inspection to Friday 14 March" changes the inspection, not a line about the landlord', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The inspection is on Friday 7 March at 9am.', assistant: 'Noted.' });
    await conversation.say({ user: 'The landlord pushed the inspection to Friday 14 March.', assistant: 'Noted.' });
    const texts = conversation.facts.map((fact) => `${fact.key} | ${fact.text}`);
    expect(texts.filter((text) => text.startsWith('inspection |'))).toEqual([expect.stringContaining('14 March')]);
    expect(texts.join('\n')).not.toContain('7 March');
    expect(conversation.facts.map((fact) => fact.key)).not.toContain('landlord');
  });

  it('a list of new days that repeats one old day still changes the line of days', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'I can train four days a week: Monday, Wednesday, Friday and Sunday.', assistant: 'Noted.' });
    await conversation.say({
      user: 'Schedule change: I start a new job on 7 July, with a standing Monday evening meeting and late shifts on Wednesdays. So my training days move to Tuesday, Thursday, Saturday and Sunday.',
      assistant: 'Noted.',
    });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain('Tuesday, Thursday, Saturday and Sunday');
    expect(texts).not.toContain('Monday, Wednesday, Friday and Sunday');
  });
});

describe('a named choice replaced', () => {
  it('"I\'ve changed my mind about the school … They\'re going to the Grundschule" drops every line about the school chosen before, its fees too', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: "We have two kids, Anika and Vihaan. I've been looking at Isarhaus International School. It's €14,900 a year per child. I think I'm going with Isarhaus.",
      assistant: 'Noted.',
    });
    expect(conversation.facts.filter((fact) => fact.key.startsWith('isarhaus')).length).toBeGreaterThanOrEqual(2);
    await conversation.say({
      user: "And I've changed my mind about the school again, and this time I mean it. Isarhaus replied: no place in Year 3 until January at the earliest. No. They're going to the Grundschule in Trudering with Markus's kids.",
      assistant: 'That sounds like the right call.',
    });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain('Grundschule');
    expect(texts).not.toContain('14,900');
    expect(texts).not.toContain('going with Isarhaus');
    expect(conversation.facts.map((fact) => fact.key)).not.toContain('isarhaus international school');
    expect(texts).toContain('Anika and Vihaan');
  });
});

describe('a key that only describes another thing', () => {
  it('"Anika has a school project …" is a project, not a change of the school chosen', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "Anika and Vihaan are 8 and 6. I've changed my mind about the school. They're going to the Grundschule in Trudering.", assistant: 'Good.' });
    const school = conversation.facts.find((fact) => fact.text.includes('Grundschule'));
    expect(school).toBeDefined();
    await conversation.say({ user: "Anika has a school project on 'a famous scientist from another country' and wants a German one.", assistant: 'Fun!' });
    expect(conversation.facts.find((fact) => fact.id === school?.id)?.text).toContain('Grundschule');
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('school project'));
  });
});

describe('a change that names the old day another way', () => {
  it('"they\'re shut tomorrow, so his INR is next Wednesday instead" may replace the recheck booked for tomorrow, not the INR result of last Wednesday', async () => {
    const conversation = new Conversation();
    await conversation.say(
      {
        user: "Janet, the anticoag nurse, rang at 8:30 to say Wednesday's INR came back at 3.8, which is too high. Anyway she's knocked the warfarin down to 2.5 mg from tonight. She wants to recheck him in two weeks, Friday the 20th, same place.",
        assistant: 'Noted.',
      },
      '2026-03-06T09:00:00Z',
    );
    const recheck = conversation.facts.find((fact) => fact.text.includes('20 March 2026'));
    expect(recheck).toBeDefined();
    await conversation.say(
      { user: "Then the clinic rang to say they're shut tomorrow for staff training, so his INR is next Wednesday instead, 10:20 with Janet.", assistant: 'Noted.' },
      '2026-03-19T18:00:00Z',
    );
    const moved = conversation.facts.find((fact) => fact.text.includes('25 March 2026'));
    expect(moved?.mayReplace).toBe(recheck?.id);
  });
});

describe('a statement the speaker takes back', () => {
  it('"I said Finance wanted annual upfront, but they\'ve changed their minds: quarterly invoicing …" removes the upfront line and keeps the new one', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: 'Deskwise confirmed SSO with Entra is included in Professional. Also, Finance would like to pay annually upfront. And our CFO, Martin de Vries, has to sign off on anything above €15,000 a year.',
      assistant: 'Noted.',
    });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('annually upfront'));
    const { events } = await conversation.say({
      user: "Can we revisit invoicing? I said Finance wanted annual upfront, but they've changed their minds: quarterly invoicing is better for cash flow this year.",
      assistant: 'Sure, quarterly it is.',
    });
    const texts = conversation.facts.map((fact) => fact.text);
    expect(texts.join('\n')).not.toContain('upfront');
    expect(texts).toContainEqual(expect.stringContaining('quarterly invoicing'));
    expect(texts).toContainEqual(expect.stringContaining('€15,000'));
    expect(events.find((event) => event.op === 'remove')?.reason).toContain('changed their minds');
  });

  it('"I said …, but" without a change of mind takes nothing back', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Also, Finance would like to pay annually upfront.', assistant: 'Noted.' });
    const before = conversation.facts.map((fact) => fact.text);
    await conversation.say({ user: 'I said Finance wanted annual upfront, but they also want a discount for it.', assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text)).toEqual(expect.arrayContaining(before));
  });
});

describe('a name opening the sentence', () => {
  it('"Deskwise says they can route outbound email through their EU relay" is news about Deskwise beside its SSO line, not a new value of it', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Deskwise confirmed SSO with Entra is included in Professional. Also, Finance would like to pay annually upfront.', assistant: 'Noted.' });
    await conversation.say({ user: 'Deskwise says they can route outbound email through their EU relay in Amsterdam, and they will write that into the DPA.', assistant: 'Good news.' });
    const texts = conversation.facts.map((fact) => fact.text);
    expect(texts).toContainEqual(expect.stringContaining('SSO with Entra'));
    expect(texts).toContainEqual(expect.stringContaining('EU relay in Amsterdam'));
  });
});

describe('a range said again with one end moved', () => {
  it('"The study period is now 2012–2022" may replace the line that gave 2010–2022, not a line that only holds a number', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: 'Our paper looks at hot days and emergency hospital admissions among people aged 65 and over in Edinburgh, Glasgow, Aberdeen and Dundee, 2010–2022. Femi checked, and there are only 11 days above 28 °C in the whole period across all four cities.',
      assistant: 'Noted.',
    });
    const paper = conversation.facts.find((fact) => fact.text.includes('2010–2022'));
    expect(paper).toBeDefined();
    await conversation.say({ user: 'Public Health Scotland confirmed a coding change in 2012. We are dropping those years. The study period is now 2012–2022.', assistant: 'Noted.' });
    const period = conversation.facts.find((fact) => fact.text.includes('2012–2022'));
    expect(period?.mayReplace).toBe(paper?.id);
  });

  it('small numbers that share an end under another subject are another range', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "The kids' club takes ages 8–12 on Saturday mornings.", assistant: 'Noted.' });
    expect(conversation.facts.length).toBeGreaterThan(0);
    await conversation.say({ user: 'Change of plan: the bake sale now runs 10–12 on Sunday.', assistant: 'Noted.' });
    expect(conversation.facts.filter((fact) => fact.mayReplace !== undefined)).toEqual([]);
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('8–12'));
  });
});

describe('a person named beside a word for a person', () => {
  it('"My mum, Halina, … She\'s retired" files what follows under Halina, not under Jess, the last person named before', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'I found a walker, though, Jess from Paws on the Downs, lovely reviews, £14 a walk.', assistant: 'Lovely.' });
    await conversation.say({
      user: "And forget Jess. My mum, Halina, heard we were going to pay a stranger to walk her granddog and was genuinely offended. She's retired, lives ten minutes away on Gloucester Road, walks miles every day anyway.",
      assistant: 'That is a lovely solution.',
    });
    expect(conversation.facts.find((fact) => fact.text.includes('Gloucester Road'))?.key).toMatch(/^halina/u);
    expect(conversation.facts.map((fact) => fact.key)).not.toContainEqual(expect.stringMatching(/^jess/u));
  });

});

describe('someone chosen who can no longer do it', () => {
  it('"… so she\'s out for the revision. I went with Petra Holm instead" gives the reviser line the new choice, and leaves other lines naming Annika', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Kestrel requires revision by a second linguist, and my usual reviser is Annika Strand, €0.04 a word.', assistant: 'Noted.' });
    await conversation.say({ user: 'So the CSR is around 17 working days of translation before Annika even sees it.', assistant: 'Noted.' });
    await conversation.say({
      user: "Other news: Annika's baby arrived three weeks early, so obviously she's out for the CSR revision. I went with Petra Holm instead; she revised pharma for one of the big agencies for years, and charges €0.045 a word.",
      assistant: 'Congratulations to Annika!',
    });
    const reviser = conversation.facts.find((fact) => fact.key === 'usual reviser');
    expect(reviser?.text).toContain('Petra Holm');
    expect(reviser?.text).not.toContain('Annika');
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('before Annika even sees it'));
  });
});

describe('what a clause points back to', () => {
  it('"We no longer need the Hetzner box as a standby. Keep it for 14 days after cutover" keeps the 14 days under the Hetzner box', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I'd like to keep the old Hetzner box running as a warm standby for 3 months after cutover, just in case.", assistant: 'Noted.' });
    await conversation.say({ user: 'And Jonas says we no longer need the Hetzner box as a 3-month standby. Keep it for 14 days after cutover, then decommission it.', assistant: 'Noted.' });
    const kept = conversation.facts.find((fact) => fact.text.includes('14 days'));
    expect(kept?.key).toContain('hetzner');
    expect(conversation.facts.map((fact) => fact.text).join('\n')).not.toContain('3 months');
  });

  it('"They log in with Google Workspace SSO, and that has to stay exactly as it is" is a requirement about the SSO, said first thing', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "They log in with Google Workspace SSO, and that has to stay exactly as it is. Priya won't accept any new password flow for the agents.", assistant: 'Understood.' });
    const sso = conversation.facts.find((fact) => fact.text.includes('Google Workspace SSO'));
    expect(sso?.key).toBe('google workspace sso');
    expect(sso?.kind).toBe('constraint');
  });
});

describe('an interjection', () => {
  it('"Oh wait, it\'s Thursday." makes no fact keyed "wait"', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our budget is $900 a month.', assistant: 'Noted.' });
    await conversation.say({ user: "Will do. Happy Friday! Oh wait, it's Thursday. Long week. Talk soon!", assistant: 'Ha, almost.' });
    expect(conversation.facts.map((fact) => fact.key)).toEqual(['budget']);
  });
});

describe('rules that must not reach unrelated facts', () => {
  it('someone away, and a choice made instead for something else, leaves their role alone', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our accountant is Maria Lopez, £90 an hour.', assistant: 'Noted.' });
    await conversation.say({ user: 'The caterer is Fig & Fennel.', assistant: 'Noted.' });
    await conversation.say({ user: 'Maria is away until June. For the party we went with Green Kitchen instead.', assistant: 'Noted.' });
    expect(conversation.facts.find((fact) => fact.key === 'accountant')?.text).toContain('Maria Lopez');
  });

  it('a named choice replaced leaves a line that only shares the first word of its name', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I've been looking at Kings College School. It's £14,900 a year. I think I'm going with Kings College.", assistant: 'Noted.' });
    await conversation.say({ user: 'Kings Cross is where my train leaves from, 9:10 on Friday 9 May.', assistant: 'Noted.' });
    // (Kings Cross named again, so a removal of its line would be grounded in the exchange.)
    await conversation.say({ user: "And I've changed my mind about the school. They're going to the Grundschule in Trudering. My train from Kings Cross is still Friday.", assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text).join('\n')).toContain('Grundschule');
    expect(conversation.facts.map((fact) => fact.key)).toContain('kings cross');
  });

  it('"but" followed by someone else\'s change takes nothing back', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The Lisbon trip is in May, flying direct from Gatwick.', assistant: 'Noted.' });
    const before = conversation.facts.map((fact) => fact.text);
    expect(before.length).toBeGreaterThan(0);
    await conversation.say({ user: 'I said the Lisbon trip was in May, but TAP no longer flies direct from Gatwick.', assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text)).toEqual(expect.arrayContaining(before));
  });

  it('skipping a trip leaves a line about a thing of the same place said elsewhere', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'I want to fly to London on 3 May for two days of meetings.', assistant: 'Noted.' });
    await conversation.say({ user: "I'll sort out the London office lease myself before June.", assistant: 'Noted.' });
    await conversation.say({ user: "I've decided to skip London.", assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('office lease'));
  });

  it('"the kitchen budget is now £9,500" still changes the kitchen\'s £8,000', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The kitchen will cost £8,000.', assistant: 'Noted.' });
    await conversation.say({ user: 'The kitchen budget is now £9,500.', assistant: 'Noted.' });
    const texts = conversation.facts.map((fact) => fact.text);
    const current = conversation.facts.find((fact) => fact.text.includes('9,500'));
    expect(current).toBeDefined();
    // Either the line was changed, or the new one says it may replace it: £8,000 never reads as current alone.
    const old = conversation.facts.find((fact) => fact.text.includes('8,000'));
    expect(old === undefined || current?.mayReplace === old.id, texts.join('\n')).toBe(true);
  });

  it('"brought the kids to the Grundschule" is no change of a value', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Markus brought the kids to the Grundschule on 3 May.', assistant: 'Noted.' });
    expect(conversation.facts.map((fact) => fact.key)).not.toContainEqual(expect.stringMatching(/^kids/u));
  });
});

describe('asides at the end of a line', () => {
  it.each([
    ["The head chef said she will make the whole kitchen sesame-free for the day, not just Tola's plate, which made me well up a bit on the phone.", 'sesame-free for the day', 'well up'],
    ['We went with Hartwell in the end, by the way.', 'went with Hartwell in the end', 'by the way'],
    ['Joel is doing 18 miles in the rain today, which I think is a cry for help.', '18 miles', 'cry for help'],
  ])('"%s" keeps what it states and drops how the speaker feels about it', async (said, kept, dropped) => {
    const conversation = new Conversation();
    await conversation.say({ user: said, assistant: 'Noted.' });
    const texts = conversation.facts.map((fact) => fact.text).join('\n');
    expect(texts).toContain(kept);
    expect(texts).not.toContain(dropped);
  });
});

describe('a change that gives two values', () => {
  it('"Kit\'s first shift was yesterday … the £13.10 we settled on in the end" changes his start and marks the £12.80 offer as possibly replaced', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "Kit Barraclough starts this Friday. I'm offering £12.80 an hour.", assistant: 'Noted.' }, '2026-04-14T09:00:00Z');
    const offer = conversation.facts.find((fact) => fact.text.includes('£12.80'));
    expect(offer).toBeDefined();
    await conversation.say(
      { user: "Kit's first shift was yesterday, by the way, and he was brilliant, worth every penny of the £13.10 we settled on in the end.", assistant: 'Great!' },
      '2026-04-18T09:00:00Z',
    );
    const settled = conversation.facts.find((fact) => fact.text.includes('£13.10'));
    expect(settled?.mayReplace).toBe(offer?.id);
  });
});

describe('rules said as rules', () => {
  it('"One more rule from the guidelines page: they don\'t want outcome promises … So "guarantee" is out" pins both', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: 'One more rule from the same guidelines page: they don\'t want outcome promises. Dana said they especially hate the word "guarantee". So "guarantee" is out, and so is anything like "will ensure every child."',
      assistant: 'Understood.',
    });
    const rules = conversation.facts.filter((fact) => fact.kind === 'exception').map((fact) => fact.text);
    expect(rules).toContainEqual(expect.stringContaining('outcome promises'));
    expect(rules).toContainEqual(expect.stringMatching(/guarantee.*is out/u));
  });

  it('"Dana doesn\'t want exceptions on malformed lines anymore" drops nothing said about Dana', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Signature change from Dana, our tech lead: she wants parse_events(stream, since=None).', assistant: 'Noted.' });
    const dana = conversation.facts.find((fact) => fact.text.includes('parse_events'));
    expect(dana).toBeDefined();
    await conversation.say({ user: "Next: Dana doesn't want exceptions on malformed lines anymore. Skip them and count them.", assistant: 'Noted.' });
    expect(conversation.facts.find((fact) => fact.id === dana?.id)).toBeDefined();
  });
});

describe('a ban said firmly', () => {
  it('"Dr. Kulkarni was very firm: no sedatives. Not the acepromazine …, nothing." pins the ban, spelled out', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: "I took Pepper in today for her booster and asked about the flight, and Dr. Kulkarni was very firm: no sedatives. Not the acepromazine our old vet gave her for the Goa road trip, not a 'mild calming tablet', nothing.",
      assistant: 'Understood, no sedatives.',
    });
    const ban = conversation.facts.find((fact) => fact.kind === 'exception');
    expect(ban?.text).toMatch(/no sedatives.*acepromazine/u);
    expect(ban?.pinned).toBe(true);
    // Whose rule it is: the one the sentence named before the firm words, not the vet who was firm.
    expect(ban?.key).toBe('pepper sedatives');
  });
});

describe('what someone is doing this minute', () => {
  it.each(['Emailing Hartwell now.', 'Joel is out right now doing 18 miles in the rain.'])('"%s" makes no fact', async (said) => {
    const conversation = new Conversation();
    await conversation.say({ user: said, assistant: 'Good luck!' });
    expect(conversation.facts).toEqual([]);
  });

  it.each(['We are renting a two-bed flat in Hackney at the moment.', 'I am working as a locum GP in Sheffield at the moment.', 'Renting in Hackney now.'])('"%s" is a lasting state, kept', async (said) => {
    const conversation = new Conversation();
    await conversation.say({ user: said, assistant: 'Noted.' });
    expect(conversation.facts.length).toBeGreaterThan(0);
  });

  it('"I\'m off to Lisbon on 3 May for the conference" is a plan with a day, kept', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I'm off to Lisbon on 3 May for the conference.", assistant: 'Lovely.' });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('3 May'));
  });
});

describe('a list of what is refused', () => {
  it('"Direct flight for Pepper, no layovers. Not via Dubai, not via Frankfurt, nowhere." pins the sentence before as the rule it spells out', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Short journey, that was her other point. Direct flight for Pepper, no layovers. Not via Dubai, not via Frankfurt, nowhere.', assistant: 'Got it.' });
    const rule = conversation.facts.find((fact) => fact.kind === 'exception');
    expect(rule?.text).toMatch(/Direct flight for Pepper, no layovers; Not via Dubai, not via Frankfurt, nowhere/u);
  });

  it('a list that follows a sentence with a claim of its own adds no rule', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'We fly Lufthansa on 25 July. Not via Dubai, not via Frankfurt, nowhere.', assistant: 'Got it.' });
    expect(conversation.facts.filter((fact) => fact.kind === 'exception')).toEqual([]);
  });
});

describe('a negation before the verb', () => {
  it('"the Square payouts never match the sales" keeps its "never"', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I've got March to reconcile in Xero and the Square payouts never match the sales.", assistant: 'Let us look.' });
    const line = conversation.facts.find((fact) => fact.text.includes('match the sales'));
    expect(line?.text).toContain('never match the sales');
  });
});

describe('who "she" is', () => {
  it('"She has been doing the books since Gerald retired. She charges £90 an hour" is about Sunita, named before, not Gerald', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: 'Our accountant is Sunita Mehra at Ledgerwell. She has been doing the books since Gerald retired to Filey. She charges £90 an hour.',
      assistant: 'Noted.',
    });
    expect(conversation.facts.find((fact) => fact.text.includes('£90'))?.key).toMatch(/^sunita/u);
    expect(conversation.facts.find((fact) => fact.text.includes('doing the books'))?.key).toMatch(/^sunita/u);
  });
});
