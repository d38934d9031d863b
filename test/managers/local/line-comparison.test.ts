import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareForm, mayRepeat, repeats } from '../../../src/managers/local/line-comparison.js';

/** Words enough that some share a bit of the 64 and most do not, with stop words among them. */
const VOCABULARY = Array.from({ length: 150 }, (_, index) => `w${index.toString(36)}`).concat(['the', 'a', 'is', '$900', 'june', 'hall']);

describe('line comparison', () => {
  it('never rules out a pair in which either line repeats the other, over lines that share many, few or no words', () => {
    const words = fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 14 });
    // A second line made from the first: some words kept, some dropped, some added, so near pairs are common.
    const pair = words.chain((first) =>
      fc.record({ kept: fc.subarray(first), added: fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 4 }) }).map(({ kept, added }) => [first, [...kept, ...added]] as const),
    );
    let ruledOut = 0;
    fc.assert(
      fc.property(pair, ([first, second]) => {
        const a = compareForm(`k: ${first.join(' ')}`);
        const b = compareForm(`k: ${second.join(' ')}`);
        const either = repeats(a, b) || repeats(b, a);
        if (!mayRepeat(a, b)) ruledOut += 1;
        expect(either && !mayRepeat(a, b)).toBe(false);
        expect(mayRepeat(a, b)).toBe(mayRepeat(b, a));
      }),
      { numRuns: 4000, seed: 23 },
    );
    // The test is only worth its time when it rules pairs out: a third or more of these.
    expect(ruledOut).toBeGreaterThan(1300);
  });

  it('rules out lines that share a word and little else, and keeps a line held whole by a longer one', () => {
    const budget = compareForm('budget: the venue budget is $900 for june');
    expect(mayRepeat(budget, compareForm('guests: forty guests are coming in june'))).toBe(false);
    expect(mayRepeat(budget, compareForm('venue: the venue budget is $900 for june, paid by friday'))).toBe(true);
    expect(mayRepeat(compareForm('note: the'), compareForm('note: the hall'))).toBe(true);
    expect(mayRepeat(compareForm('empty:'), budget)).toBe(false);
  });
});
