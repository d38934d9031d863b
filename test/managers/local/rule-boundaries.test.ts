import { describe, expect, it } from 'vitest';

import { Conversation } from './conversation.js';

/** Turns said one by one; the facts they leave, as "kind key: text". */
async function factsAfter(...turns: string[]): Promise<string[]> {
  const conversation = new Conversation();
  for (const user of turns) await conversation.say({ user, assistant: 'Noted.' }, '2026-03-06T09:00:00Z');
  return conversation.facts.map((fact) => `${fact.kind} ${fact.key}: ${fact.text}${fact.mayReplace === undefined ? '' : ' [may replace]'}`);
}

describe('rules said as rules stop where they should', () => {
  it.each([
    ['The club rules meeting got moved: it is now on 14 April.'],
    ['My requirements for the house have changed: we now want three bedrooms in Leeds.'],
    ['The forecast is clear: no rain until Friday.'],
    ['Remember the Corfu villa we looked at? Not available, not even in June, nothing left.'],
  ])('"%s" pins no rule', async (said) => {
    expect((await factsAfter(said)).filter((line) => line.startsWith('exception'))).toEqual([]);
  });

  it.each([
    ['Since I have moved house, calls are never before 10am.', 'never before 10am'],
    ['We have agreed as a family: never on Sundays, that is church day.', 'never on Sundays'],
  ])('"%s" is still a rule', async (said, rule) => {
    expect((await factsAfter(said)).filter((line) => line.startsWith('exception'))).toEqual([expect.stringContaining(rule)]);
  });

  it('a firm ban "for Biscuit" is Biscuit\'s, not the one named first', async () => {
    expect(await factsAfter('Sophie came to the vet with me and Dr Patel was adamant: no chocolate for Biscuit.')).toContainEqual(expect.stringMatching(/^exception biscuit/u));
  });

  it('a booking in quotes ruled out is dropped, not turned into a rule about a word', async () => {
    const lines = await factsAfter('We booked the Hillside barn for the reception.', 'The "Hillside" is out, they double-booked us.');
    expect(lines.filter((line) => /hillside/iu.test(line))).toEqual([]);
  });
});

describe('facts that only look like asides or moments', () => {
  it('", which makes me eligible …" is what the fact is about, kept', async () => {
    expect(await factsAfter('I turned 65 in March, which makes me eligible for the free bus pass.')).toContainEqual(expect.stringContaining('eligible for the free bus pass'));
  });
});

describe('who "he" is', () => {
  it('"She hired Marcus Webb last week. He starts on Monday" is about Marcus', async () => {
    const lines = await factsAfter('Our office manager is Priya Shah. She hired Marcus Webb last week. He starts on Monday.');
    expect(lines.find((line) => line.includes('starts on Monday'))).not.toMatch(/office manager|priya/u);
  });

  it('"Her husband Tom is a pilot. He flies for BA" is about Tom', async () => {
    const lines = await factsAfter('My sister Ana is visiting. Her husband Tom is a pilot. He flies for BA out of Heathrow.');
    expect(lines.find((line) => line.includes('flies for BA'))).toMatch(/ tom/u);
  });
});

describe('a change that gives a day it holds from', () => {
  it('"the rent is now £1,250 from 1 May" marks no meeting as possibly replaced', async () => {
    const lines = await factsAfter('Our rent is £1,100 a month.', 'The rent review meeting is on 20 March with the agent.', 'Correction: the rent is now £1,250 from 1 May.');
    expect(lines.filter((line) => line.endsWith('[may replace]'))).toEqual([]);
    expect(lines).toContainEqual(expect.stringContaining('meeting is on 20 March'));
  });
});

describe('a subject that denies', () => {
  it.each([
    ['Not a single invoice from Brennan has been paid on time.', 'Not a single invoice'],
    ['None of the quotes include VAT.', 'None of the quotes'],
  ])('"%s" keeps its opening', async (said, opening) => {
    expect(await factsAfter(said)).toContainEqual(expect.stringContaining(opening));
  });
});
