import { describe, expect, it } from 'vitest';

import { analyseMessage } from '../../../src/managers/local/analysis.js';
import { noteNamedPeople, withNamedPeople, type NamedPeople } from '../../../src/managers/local/appositives.js';
import { dateReference } from '../../../src/managers/local/dates.js';
import { Conversation } from './conversation.js';

describe('a value changed by someone, said in passing', () => {
  it('"the committee has agreed to bring the full-plot rent down to £48" is the rent, not the committee', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The rent went through at £52 after a lot of grumbling.', assistant: 'Noted.' });
    const { events } = await conversation.say({
      user: "Big news: Fola's grant came through! She and Keith redid the numbers, and the committee has agreed to bring the full-plot rent down to £48 instead, halves £24, and refund the difference.",
      assistant: 'Wonderful.',
    });
    expect(conversation.facts.map((fact) => fact.text)).not.toContainEqual(expect.stringContaining('£52'));
    const update = events.find((event) => event.op === 'update');
    expect(update?.newText).toMatch(/^rent: £48/u);
    expect(update?.reason).toContain('bring the full-plot rent down to £48');
    expect(conversation.facts.map((fact) => fact.key)).not.toContain('committee');
  });

  it('"that\'s a crew of six" is about the crew, not the last person named', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: "I'm bringing on two seasonal guys: Sam Whitlock, who did a year of horticulture, and Jordan Reyes. So that's a crew of six once they start in April.",
      assistant: 'Big season!',
    });
    expect(conversation.facts.find((fact) => fact.text.includes('crew of six'))?.key).toBe('crew');
  });

  it('"The numbers have crept back up … so it\'s 104 now" changes the guest list said as "down to 96 now", not a look-alike key', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'The guest list is about 120 at the moment. My grandma Ivy is 91 and uses a wheelchair.', assistant: 'Noted.' });
    await conversation.say({ user: 'And the list is down to 96 now, because we finally had The Conversation with both mums.', assistant: 'Great.' });
    await conversation.say({ user: 'My uni friend Kez has been seeing someone for three months and I can feel a message coming.', assistant: 'Noted.' });
    const { events } = await conversation.say({
      user: "Invitations! Beth's friend Mia is designing them. The numbers have crept back up, by the way. Joel put his foot down about his team at work, so it's 104 now, which finished off the band.",
      assistant: 'Noted.',
    });
    const update = events.find((event) => event.op === 'update' && event.newText?.includes('104'));
    expect(update?.oldText).toContain('down to 96 now');
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('three months'));
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('91'));
  });

  it('"the contract\'s $49,300 all-in now" may replace the one quote within 5 % of it, and leaves the budget', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Casa Nueva: $47,900, about 6 weeks, and Luis could start as soon as the 30th.', assistant: 'Noted.' });
    await conversation.say({ user: 'The kitchen budget is $54,000 all in.', assistant: 'Noted.' });
    await conversation.say({ user: "We added a pantry wall. Luis sent the change order yesterday, so the contract's $49,300 all-in now.", assistant: 'Noted.' });
    const quote = conversation.facts.find((fact) => fact.text.includes('$47,900'));
    const contract = conversation.facts.find((fact) => fact.text.includes('$49,300'));
    expect(contract?.mayReplace).toBe(quote?.id);
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('$54,000'));
  });

  it('an amount said as a change far from every other amount may replace none of them', async () => {
    const conversation = new Conversation();
    await conversation.say({ user: 'Casa Nueva: $47,900, about 6 weeks.', assistant: 'Noted.' });
    await conversation.say({ user: 'The appliances are $3,700 now.', assistant: 'Noted.' });
    expect(conversation.facts.filter((fact) => fact.mayReplace !== undefined)).toEqual([]);
  });
});

describe('people named beside the words for them', () => {
  it('"Joel\'s parents, Femi and Carol, … they cannot be put at the same table" names them in the rule', async () => {
    const conversation = new Conversation();
    await conversation.say({
      user: "Joel's parents, Femi and Carol, split up when he was fourteen and it was not friendly. They will both come and they will both behave, but they cannot be put at the same table.",
      assistant: 'Understood.',
    });
    expect(conversation.facts.map((fact) => fact.text)).toContainEqual(expect.stringContaining('Femi and Carol cannot be put at the same table'));
  });

  it('only an aside of nothing but names names the people a key stands for', () => {
    const named = (text: string): NamedPeople['named'] => {
      const analysed = analyseMessage(
        { id: 'm1', role: 'user', speaker: null, content: text, sentAt: null },
        { maxAnalysedWords: 1500, maxReadWords: 5000, taggingBudget: { sentences: 6 }, tagger: 'fast', reference: dateReference('2026-03-01T10:00:00Z') },
      );
      const discourse: NamedPeople = {};
      for (const sentence of analysed.sentences) noteNamedPeople(sentence, discourse);
      return discourse.named;
    };
    expect(named("Joel's parents, Femi and Carol, split up when he was fourteen.")).toEqual({ key: 'joel parents', names: 'Femi and Carol' });
    expect(named("Joel's parents, who live in Leeds, split up years ago.")).toBeUndefined();
    expect(named('The venue, near Bakewell, is holding the date.')).toBeUndefined();
    expect(withNamedPeople('they cannot be put at the same table', 'joel parents', { named: { key: 'joel parents', names: 'Femi and Carol' } })).toBe('Femi and Carol cannot be put at the same table');
    // Only a line of that key, and only "they" opening it.
    expect(withNamedPeople('they cannot come', 'venue', { named: { key: 'joel parents', names: 'Femi and Carol' } })).toBe('they cannot come');
    expect(withNamedPeople('theyre late', 'joel parents', { named: { key: 'joel parents', names: 'Femi and Carol' } })).toBe('theyre late');
  });
});
