/**
 * Fact quality on chat-like text: corrections update the fact they change (never leave two values),
 * every fact line says something specific, and chit-chat stays out of the document.
 */
import { describe, expect, it } from 'vitest';

import { Conversation, processOnce } from './conversation.js';

/**
 * An assistant reply long enough (40+ words) to make the turn a medium one, which gets a full diff;
 * short turns keep only strong statements (rules, corrections, personal facts).
 */
const ACK =
  'Thanks, I have noted that down. I will keep it in mind for the plan and for every draft we write from here on, ' +
  'and I will tell you if anything we decide later conflicts with it, so that nothing important slips through the cracks.';

/** Fact texts of the conversation's document. */
function texts(conversation: Conversation): string[] {
  return conversation.facts.map((fact) => fact.text);
}

/** A conversation whose document already holds a few facts about a task. */
async function warmedUp(): Promise<Conversation> {
  const conversation = new Conversation();
  await conversation.say({
    user: 'We are rebuilding the partner portal for Kestrel Bank. The API must answer within 400 ms. Our budget is €60,000 for the first phase.',
    assistant: ACK,
  });
  await conversation.say({ user: 'The design system is Carbon and the backend runs on Go 1.22.', assistant: ACK });
  return conversation;
}

describe('corrections that restate a value', () => {
  it('"it\'s Y now, not Z" after a sentence naming the change updates the fact holding Z', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our cloud spend cap is €2,500 a month for the whole platform.', assistant: 'Noted.' });
    const { memory } = await conversation.say({ user: 'Bad news on costs. Finance reduced the cloud spend cap. It is €1,800 a month now, not €2,500.', assistant: 'OK.' });
    expect(memory.diff.update).toHaveLength(1);
    expect(memory.diff.add).toEqual([]);
    const all = texts(conversation).join('\n');
    expect(all).toContain('1,800');
    expect(all).not.toContain('2,500');
    expect(conversation.facts.filter((fact) => /spend cap|cap/u.test(fact.key))).toHaveLength(1);
  });

  it.each([
    ['The launch date is May 20.', 'The launch date is now June 3.', 'June 3', 'May 20'],
    ['The kickoff is on Monday, 6 October.', 'The kickoff moved to Wednesday, 8 October.', '8 October', '6 October'],
    ['The offsite workshop is in Porto.', 'The offsite workshop will be in Braga instead of Porto.', 'Braga', 'Porto'],
    ['Our staging servers are hosted in Dublin.', 'We no longer host staging in Dublin but in Stockholm.', 'Stockholm', 'Dublin'],
    ['The quarterly review is on 3 June at 09:00.', 'The quarterly review has moved from 3 June at 09:00 to 5 June at 14:00.', '5 June', '3 June'],
  ])('"%s" then "%s" keeps one fact, with the new value', async (first, second, fresh, old) => {
    const conversation = new Conversation();
    await conversation.say({ user: first, assistant: ACK });
    const before = conversation.facts.length;
    expect(before).toBeGreaterThan(0);
    const { memory } = await conversation.say({ user: second, assistant: 'OK.' });
    expect(memory.diff.update.length, JSON.stringify(memory.diff)).toBe(1);
    expect(conversation.facts).toHaveLength(before);
    const all = texts(conversation).join('\n');
    expect(all).toContain(fresh);
    expect(all).not.toContain(old);
  });

  it('swaps the one value a correction sets aside and keeps the rest of the line', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our budget is $30,000 for 12 contractor seats.', assistant: 'Noted.' });
    await conversation.say({ user: 'Team update: after the merger it is 15 seats, not 12.', assistant: 'OK.' });
    expect(conversation.factsWithKey('budget').map((fact) => fact.text)).toEqual(['budget: $30,000 for 15 contractor seats']);
  });

  it('a correction that only names what changed takes its value from the next sentence', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our release deadline is 14 November.', assistant: 'Noted.' });
    const { memory } = await conversation.say({
      user: 'The deadline moved again, sorry. 14 November is off. The release is now planned for 2 December.',
      assistant: 'OK.',
    });
    expect(memory.diff.add).toEqual([]);
    expect(memory.diff.update).toEqual([expect.objectContaining({ key: expect.stringContaining('deadline'), text: expect.stringContaining('2 December') })]);
    expect(texts(conversation).join('\n')).not.toMatch(/14 November|moved again/u);
  });

  it('a value said earlier in the message names the fact an "instead" changes', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I'd like to hold a pace of 5:30 per km in the race.", assistant: 'Noted.' });
    await conversation.say({ user: 'Honestly, 5:30 is too fast for me. Let us aim for 5:45 instead.', assistant: 'OK.' });
    const all = texts(conversation).join('\n');
    expect(all).toContain('5:45');
    expect(all).not.toContain('5:30');
  });

  it('a named person or thing holds many attributes: a new one about them never replaces another', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "It's me, my partner Dev, and our son Osian, who's nine.", assistant: ACK });
    await conversation.say({ user: "Dev says we'll borrow £2,500 from the credit union over three years.", assistant: ACK });
    await conversation.say({ user: 'Also Osian has asthma, so no diesel.', assistant: ACK });
    const { events } = await conversation.say({ user: 'He also tried to sell us paint protection for £295 and Dev actually laughed out loud.', assistant: ACK });
    const { events: later } = await conversation.say({ user: "And I'd like the excess at £250, I don't want a big bill if something happens.", assistant: ACK });
    expect([...events, ...later].filter((event) => event.op === 'update' || event.op === 'remove')).toEqual([]);
    const all = texts(conversation).join('\n');
    for (const kept of ["who's nine", 'has asthma', '£2,500 from the credit union', 'excess at £250']) expect(all).toContain(kept);
    expect(conversation.facts.find((fact) => fact.text.includes('£250'))?.key).toBe('excess');
  });

  it('a correction of one value never lends its words to an unrelated fact', async () => {
    const conversation = await warmedUp();
    const before = texts(conversation);
    await conversation.say({ user: "No, that won't work. We must never log full IBANs.", assistant: 'Understood.' });
    for (const text of before) expect(texts(conversation)).toContain(text);
    expect(conversation.facts.filter((fact) => fact.pinned).map((fact) => fact.text)).toEqual([expect.stringContaining('must never log full IBANs')]);
  });

  it('a question about changing a value changes nothing', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The worker runs Python 3.10 in production.', assistant: ACK });
    await conversation.say({ user: 'Samir also asks if we should bump Python from 3.10 to 3.13 while we are at it.', assistant: 'Later.' });
    expect(texts(conversation).join('\n')).toContain('3.10');
    expect(texts(conversation).join('\n')).not.toContain('3.13');
  });
});

describe('every fact says something', () => {
  it('adds no line for a correction without a value', async () => {
    const conversation = await warmedUp();
    const before = texts(conversation);
    const { memory } = await conversation.say({ user: 'The deadline changed too, by the way.', assistant: 'Oh?' });
    expect([...memory.diff.add, ...memory.diff.update]).toEqual([]);
    expect(texts(conversation)).toEqual(before);
  });

  it.each([
    'Jana agrees.',
    'That is exactly as messy as it sounds, but anyway.',
    'Our lead designer has a point there.',
  ])('keeps no value-less line: %s', async (user) => {
    const conversation = await warmedUp();
    const { memory } = await conversation.say({ user, assistant: 'Right.' });
    expect([...memory.diff.add, ...memory.diff.update]).toEqual([]);
  });

  it('keeps the number a subject carries ("a downtime of up to 3 hours is fine …")', async () => {
    const { memory } = await processOnce({ user: 'A maintenance window of up to 3 hours is fine if it is on a Sunday.', assistant: ACK });
    expect(memory.diff.add.map((entry) => entry.text)).toEqual([expect.stringMatching(/3 hours.*Sunday/u)]);
  });
});

describe('chit-chat stays out of a task document', () => {
  it.each([
    ['news of the day', 'Our coffee grinder broke this afternoon, so I am running on tea.'],
    ['someone eating', 'Marta ate two croissants at the standup.'],
    ['a weekend plan in a message marked as chat', 'Off topic: heading to the Alps for a ski weekend in Zermatt :)'],
    ['a reported question', 'Kofi asked whether we should rotate the keys every month.'],
    ['thanks', 'Thank you for everything so far, honestly.'],
    ['a feeling of the moment', 'I feel about 70% less panicked than I did in February.'],
    ['a request for the assistant’s help', 'I need your brain on something delicate.'],
    ['a suggestion someone made, not decided', 'Alun reckons we should set up a Facebook group for members.'],
    ['a remark that only points back', 'We love him.'],
    ['a remark that only hedges', 'The Niro still fits, just about.'],
  ])('%s: no fact', async (_name, user) => {
    const conversation = await warmedUp();
    const { memory } = await conversation.say({ user, assistant: ACK });
    expect([...memory.diff.add, ...memory.diff.update], JSON.stringify(memory.diff)).toEqual([]);
  });

  it('but a role, a decision or a named thing of the task is kept', async () => {
    const conversation = await warmedUp();
    const { memory } = await conversation.say({
      user: 'Our CFO, Ingrid Haas, has to approve anything above €10,000. We are going with Temporal for the workflows.',
      assistant: ACK,
    });
    const lines = memory.diff.add.map((entry) => entry.text);
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^cfo: .*€10,000/u), expect.stringContaining('Temporal')]));
  });

  it('pins only real rules: "No override." is an answer, "No dairy, ever." and "never + verb" are rules', async () => {
    const answer = await processOnce({ user: 'No override.', assistant: 'Clear.' });
    expect([...answer.memory.diff.add, ...answer.memory.diff.update]).toEqual([]);
    const rule = await processOnce({ user: 'No dairy in the menu, ever.', assistant: 'Clear.' });
    expect(rule.memory.diff.add).toEqual([expect.objectContaining({ kind: 'exception' })]);
    const allButOne = await processOnce({ user: 'Everything works except the export button.', assistant: 'I see.' });
    expect(allButOne.memory.diff.add.filter((entry) => entry.kind === 'exception')).toEqual([]);
  });

  it('a conversation between people keeps personal facts', async () => {
    const { memory } = await processOnce({ user: 'I baked a lemon cake for my niece yesterday.', userSpeaker: 'Ines', assistant: 'Yum!', assistantSpeaker: 'Tom' });
    expect(memory.diff.add.length).toBeGreaterThan(0);
  });
});

describe('keys', () => {
  it('skips announcing openers and takes the key from the statement', async () => {
    const { memory } = await processOnce({ user: 'Quick update from the platform team: the API rate limit is 500 requests per minute.', assistant: ACK });
    expect(memory.diff.add).toEqual([expect.objectContaining({ key: 'api rate limit', text: 'api rate limit: 500 requests per minute' })]);
  });

  it('keys a headline opener by its topic ("Budget news: …" → budget)', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Our budget is €40,000 this year.', assistant: 'Noted.' });
    await conversation.say({ user: 'Budget news: it is €46,000 now, not €40,000.', assistant: 'OK.' });
    expect(conversation.factsWithKey('budget').map((fact) => fact.text)).toEqual([expect.stringContaining('€46,000')]);
  });

  it('gives two different things said about one key two lines', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'For the database we picked CockroachDB.', assistant: ACK });
    await conversation.say({ user: 'The database is about 90 GB today.', assistant: ACK });
    const all = texts(conversation).join('\n');
    expect(all).toContain('CockroachDB');
    expect(all).toContain('90 GB');
  });

  it('keys a rule about a product by its category only when the product is what the phrase is about', async () => {
    const { memory } = await processOnce({ user: 'We want to keep the old Linode box running as a cold spare for 2 months.', assistant: ACK });
    expect(memory.diff.add.map((entry) => entry.key)).not.toContain('cloud');
  });
});

describe('statements read from their clause', () => {
  it('"…, and that has to stay as it is" is a rule about the clause before', async () => {
    const { memory } = await processOnce({ user: 'We deploy with Helm charts from GitLab, and that has to stay as it is.', assistant: 'OK.' });
    expect(memory.diff.add).toEqual([expect.objectContaining({ kind: 'constraint', text: expect.stringMatching(/Helm.*has to stay/u) })]);
  });

  it('"due <date>" is a deadline of its subject', async () => {
    const { memory } = await processOnce({ user: 'The audit report is due 12 March.', assistant: 'OK.' });
    expect(memory.diff.add).toEqual([expect.objectContaining({ kind: 'constraint', key: 'audit report deadline', text: 'audit report deadline: due 12 March' })]);
  });

  it('what a seller pushes or pitches is an offer, not a fact: refused, it leaves nothing; "pushed back a week" still moves a date', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: "One of the comparison sites kept pushing a telematics policy, the black box thing, at £470. Dev point-blank refused, he's not having a box reporting on his braking.",
      assistant: ACK,
    });
    await conversation.say({ user: 'The salesman tried to sell us paint protection for £295, and I said no thanks.', assistant: ACK });
    expect(texts(conversation).filter((text) => /telematics|470|paint protection|295/u.test(text))).toEqual([]);
    await conversation.say({ user: 'The application deadline is May 8.', assistant: ACK });
    await conversation.say({ user: "Their portal went down, so they've pushed the deadline back a week, to May 15.", assistant: ACK });
    expect(texts(conversation).filter((text) => /deadline/u.test(text))).toEqual([expect.stringContaining('May 15')]);
  });

  it('a choice made again in a message that tells why the first fell through replaces it; two choices of two things stay', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "Quotes are in. I've gone with Harbourline at £548 comprehensive, paid and everything.", assistant: ACK });
    await conversation.say({ user: 'We went with Luis from Casa Nueva for the kitchen.', assistant: ACK });
    expect(texts(conversation).filter((text) => /Harbourline|Luis/u.test(text))).toHaveLength(2);
    const { events } = await conversation.say({
      user: "Harbourline re-rated the policy to £790, my mistake. £790 is silly money, so we cancelled within the cooling-off period and went with Kestrel in the end, who were still at £612.",
      assistant: ACK,
    });
    expect(texts(conversation).some((text) => text.includes('Harbourline'))).toBe(false);
    expect(texts(conversation)).toContainEqual(expect.stringContaining('went with Kestrel'));
    expect(texts(conversation)).toContainEqual(expect.stringContaining('Luis'));
    expect(events.find((event) => event.op === 'remove')?.reason).toMatch(/cancelled .*Kestrel/u);
  });

  it('a line about the thing chosen never takes the place of the choice; a new choice does', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'We went with Hartwell instead of Halcombe in the end, by the way.', assistant: ACK });
    await conversation.say({ user: 'Emailing Hartwell now.', assistant: ACK });
    await conversation.say({ user: "Hartwell's limiter is set at 90 decibels, so the band would play quietly.", assistant: ACK });
    expect(texts(conversation)).toContainEqual(expect.stringContaining('went with Hartwell'));
    await conversation.say({ user: "Let's go with EKS for the containers for now.", assistant: ACK });
    await conversation.say({ user: "Tomás slept on it and we're not doing Kubernetes anymore. Let's use ECS on Fargate instead.", assistant: ACK });
    expect(texts(conversation).some((text) => text.includes('EKS'))).toBe(false);
  });


  it('a place held before goes when the message chooses another instead of it; an appositive never names the subject', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Halcombe Hall, near Bakewell, is holding the date for us until the end of the month.', assistant: ACK });
    expect(conversation.factsWithKey('halcombe hall')).toHaveLength(1);
    expect(conversation.factsWithKey('bakewell')).toEqual([]);
    const { events } = await conversation.say({ user: 'We went with Hartwell instead of Halcombe in the end, by the way.', assistant: ACK });
    expect(texts(conversation).some((text) => /halcombe/iu.test(text))).toBe(false);
    expect(texts(conversation)).toContainEqual(expect.stringContaining('went with Hartwell'));
    expect(events.find((event) => event.op === 'remove')?.reason).toMatch(/instead of Halcombe/u);
  });
  it('a new choice of another thing leaves a choice the message says holds ("Harbourline stays as our insurer")', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: "I've gone with Harbourline for the car insurance, £640 a year.", assistant: ACK });
    const { events } = await conversation.say({ user: 'The gym membership is cancelled now. For the loft we went with Kestrel Builders, and Harbourline stays as our insurer.', assistant: ACK });
    expect(events.filter((event) => event.op === 'remove')).toEqual([]);
    expect(conversation.factsWithKey('harbourline')).toHaveLength(1);
  });

  it('"It\'s staying under the window" settles a choice though it states no value', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'And I slept on the sink. It\'s staying under the window.', assistant: ACK });
    expect(texts(conversation)).toContainEqual(expect.stringContaining('staying under the window'));
  });

  it('a limit lifted ("cleared me to go above 35 km") ends the line that set it, and only that one', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The physio says keep weekly running at or under 35 km until he reviews me on 1 August.', assistant: ACK });
    await conversation.say({ user: 'My long run is 35 km on the bike on Sundays.', assistant: ACK });
    const { events } = await conversation.say({ user: 'The review went well. Ravi cleared me to go above 35 km, but only about 10% more a week.', assistant: ACK });
    expect(texts(conversation).some((text) => /at or under 35 km/u.test(text))).toBe(false);
    expect(texts(conversation)).toContainEqual(expect.stringContaining('35 km on the bike'));
    expect(events.find((event) => event.op === 'remove')?.reason).toMatch(/cleared me to go above 35 km/u);
  });

  it('an accepted proposal without a verb is a decision, even in a short turn', async () => {
    const { memory } = await processOnce({ user: 'Agreed: retention of 90 days for the audit logs.', assistant: 'Done.' });
    expect(memory.diff.add.map((entry) => entry.text)).toEqual([expect.stringContaining('90 days')]);
  });

  it('the speaker quoting what they said before is no fact; what changed is', async () => {
    const { memory } = await processOnce({
      user: "Can we revisit invoicing? I said Finance wanted annual upfront, but they've changed their minds: quarterly invoicing is better for cash flow this year.",
      assistant: ACK,
    });
    expect(memory.diff.add.map((entry) => entry.text)).toEqual([expect.stringMatching(/^quarterly invoicing: better for cash flow/u)]);
  });

  it('a code that names something ("H1", "PM10") is a subject, not a value', async () => {
    const { memory } = await processOnce({ user: 'We agreed on it: H1 now uses 25 °C.', assistant: ACK });
    expect(memory.diff.add.map((entry) => entry.text)).toEqual(['h1: uses 25 °C']);
  });

  it('a gerund its adjective describes is the subject: "quarterly invoicing is better …" is about quarterly invoicing', async () => {
    const { memory } = await processOnce({ user: 'Quarterly invoicing is better for cash flow this year.', assistant: ACK });
    expect(memory.diff.add.map((entry) => entry.key)).toEqual(['quarterly invoicing']);
  });

  it('"Since …, <request>" takes the request, not the reason', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Please use metric units for everything.', assistant: 'Noted.' });
    await conversation.say({ user: 'Since Redwood is now our largest client, switch to imperial units for everything.', assistant: 'OK.' });
    const all = texts(conversation).join('\n');
    expect(all).toContain('imperial units');
    expect(all).not.toContain('metric');
    expect(all).not.toContain('Since');
  });
});
