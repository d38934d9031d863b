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

  it('finds a contradiction in other numbers for the same thing, or in one denying what the other says', () => {
    expect(contradiction('The staging server has 4 cores.', 'The staging server has 8 cores.')).toBe('both are about staging, server, core but give 4 and 8');
    expect(contradiction('Invoices go out on the 1st, €1,200 a month.', 'Invoices go out on the 1st, €1200 a month.')).toBeNull();
    expect(contradiction('Ellie works on Saturdays at the café.', 'Ellie never works on Saturdays at the café.')).toBe('both are about ellie, work, saturday but one denies what the other says');
    expect(contradiction('The staging server has 4 cores.', 'The build cache holds 8 GB.')).toBeNull();
    expect(contradiction('Never schedule anything on a Saturday.', 'Never schedule anything on a Saturday, ever.')).toBeNull();
  });

  it('lets a newer statement replace an older one only when it says it changed, or says the same', () => {
    expect(replacement("I'm charging €75 an hour now for consulting.", 'My rate is €65 an hour for consulting.')).toMatch(/^says it changes this \(both are about/u);
    // A contradiction that does not say which holds is for a person.
    expect(replacement('My rate is €75 an hour for consulting.', 'My rate is €65 an hour for consulting.')).toBeNull();
    expect(replacement('Every weekday the café opens at seven.', 'The café opens at seven every weekday.')).toBe('says the same');
    expect(replacement('Never work on a Sunday.', 'Never work on a Saturday.')).toBeNull();
  });
});

describe('memories about different people', () => {
  it('never contradict each other, however many words they share', () => {
    expect(contradiction('Noor charges €76 an hour and invoices in euros.', 'Kit charges €78 an hour and invoices in euros.')).toBeNull();
    expect(contradiction('Never schedule anything with Noor on a Monday.', 'Never schedule anything with Kit on a Monday.')).toBeNull();
    expect(contradiction('Noor charges €76 an hour.', 'Noor charges €78 an hour.')).toBe('both are about noor, charge, hour but give 76 and 78');
  });
});
