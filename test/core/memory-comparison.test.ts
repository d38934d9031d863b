import { describe, expect, it } from 'vitest';
import { compareStatements, contradiction, replacement, sameTopic } from '../../src/core/memory-comparison.js';

describe('comparing two memories', () => {
  it('tells statements about one thing from statements that share a word or two', () => {
    expect(sameTopic(compareStatements('The staging server runs in eu-west.', 'Staging servers run in eu-west now.'))).toBe(true);
    expect(sameTopic(compareStatements('Never schedule anything on a Saturday.', 'Never send invoices on a Saturday.'))).toBe(false);
    // A name shared by both counts, even at the start of a sentence in one of them.
    const sam = compareStatements('I live in Leeds with my partner Sam.', 'Sam is allergic to peanuts.');
    expect([sam.shared, sam.sharesSpecific]).toEqual([['sam'], true]);
  });

  it('finds a contradiction in the same statement with other numbers, or denied', () => {
    expect(contradiction('The staging server has 4 cores.', 'The staging server has 8 cores.')).toBe('both say staging, server, cores but give 4 and 8');
    expect(contradiction('Invoices go out on the 1st, €1,200 a month.', 'Invoices go out on the 1st, €1200 a month.')).toBeNull();
    expect(contradiction('Ellie works on Saturdays at the café.', 'Ellie never works on Saturdays at the café.')).toBe('both say ellie, works, saturdays but one denies what the other says');
    expect(contradiction('Send invoices to Acme on Fridays.', 'Don’t send invoices to Acme on Fridays.')).toBe('both say send, invoices, acme but one denies what the other says');
    expect(contradiction('The staging server has 4 cores.', 'The build cache holds 8 GB.')).toBeNull();
    expect(contradiction('Never schedule anything on a Saturday.', 'Never schedule anything on a Saturday, ever.')).toBeNull();
  });

  it('sees no contradiction between statements about different things, however many words they share', () => {
    expect(contradiction('Noor charges €76 an hour and invoices in euros.', 'Kit charges €78 an hour and invoices in euros.')).toBeNull();
    expect(contradiction('Never schedule anything with Noor on a Monday.', 'Never schedule anything with Kit on a Monday.')).toBeNull();
    expect(contradiction('The kitchen renovation budget is €20,000.', 'The bathroom renovation budget is €8,000.')).toBeNull();
    expect(contradiction('My daughter goes to bed at 8pm.', 'My son goes to bed at 9pm.')).toBeNull();
    expect(contradiction('On Mondays I run 5 km.', 'On Mondays I swim 2 km.')).toBeNull();
    expect(contradiction('Noor charges €76 an hour.', 'Noor charges €78 an hour.')).toBe('both say noor, charges, hour but give 76 and 78');
  });

  it('lets a newer statement replace an older one only when it says it changed, or says the same and more', () => {
    expect(replacement('My rate is now €75 an hour for consulting.', 'My rate is €65 an hour for consulting.')).toBe('says it changes this (both say rate, hour, consulting but give 75 and 65)');
    // A contradiction that does not say which holds, or a change in other words, is for a person.
    expect(replacement('My rate is €75 an hour for consulting.', 'My rate is €65 an hour for consulting.')).toBeNull();
    expect(replacement("I'm charging €75 an hour now.", 'My rate is €65 an hour.')).toBeNull();
    expect(replacement('The bathroom renovation budget is now €8,000.', 'The kitchen renovation budget is €20,000.')).toBeNull();
    expect(replacement('Every weekday the café opens at seven.', 'The café opens at seven every weekday.')).toBe('says the same');
    expect(replacement('The café opens at seven every weekday, and at nine on Sundays.', 'The café opens at seven every weekday.')).toBe('says the same');
  });

  it('never takes the opposite, another person or another word for the same thing', () => {
    for (const [newer, older] of [
      ['Don’t send invoices to Acme on Fridays.', 'Send invoices to Acme on Fridays.'],
      ["You shouldn't call Noor after 6 pm.", 'You should call Noor after 6 pm.'],
      ['Marcus takes his coffee without milk.', 'Marcus takes his coffee with milk.'],
      ['Ellie hates oat milk.', 'Ellie likes oat milk.'],
      ['My brother lives in Berlin.', 'My sister lives in Berlin.'],
      ['Never work on a Sunday.', 'Never work on a Saturday.'],
    ]) {
      expect(replacement(newer!, older!), `${newer} / ${older}`).toBeNull();
    }
  });
});
