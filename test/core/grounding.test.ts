import { describe, expect, it } from 'vitest';
import { checkGrounding, numbersIn, properNamesIn } from '../../src/core/grounding.js';

describe('grounding', () => {
  it('reads numbers in their usual spellings as one value', () => {
    expect(numbersIn('budget $45,000 or 45000 or 45k, rate 3.5%')).toEqual(['45000', '45000', '45000', '3.5']);
  });

  it('finds proper names but not sentence-initial words', () => {
    expect(properNamesIn('Budget: we host on AWS in Frankfurt. Then Sarah signs.')).toEqual(['AWS', 'Frankfurt', 'Sarah']);
  });

  it('accepts a line whose numbers and names appear in the exchange', () => {
    const exchange = 'Actually the budget changed to $45,000 and Sarah from Acme approves it.';
    expect(checkGrounding('budget: $45,000, approved by Sarah (Acme)', exchange)).toEqual({ grounded: true, missing: [] });
  });

  it('rejects invented numbers and names, saying which', () => {
    const exchange = 'The budget is $40,000.';
    expect(checkGrounding('budget: $50,000 approved by Oracle', exchange)).toEqual({ grounded: false, missing: ['50000', 'Oracle'] });
  });

  it('takes no name from a capital inside a word: "eDRIS" is grounded by "eDRIS"', () => {
    expect(checkGrounding('admissions: ask eDRIS about coding changes in SMR01', 'Ask Public Health Scotland or eDRIS about coding changes in SMR01.').grounded).toBe(true);
    // (Only by that word: a name the exchange never writes stays missing, inside a word or not.)
    expect(checkGrounding('client: the deVries account', 'The account is ours now.')).toEqual({ grounded: false, missing: ['Vries'] });
  });

  it('matches numbers as whole values: 200 is not 2000', () => {
    expect(checkGrounding('limit: 200 requests', 'we allow 2000 requests').grounded).toBe(false);
  });

  it('grounds a date resolved or moved near the time the exchange was sent, and no other', () => {
    const sent = ['2026-05-04T15:00:00Z'];
    const moved = "deadline: they've pushed the deadline back a week (now 15 May 2026)";
    expect(checkGrounding(moved, "They've pushed the deadline back a week.", sent).grounded).toBe(true);
    expect(checkGrounding('inspection: tomorrow (5 May 2026)', 'Inspection is tomorrow.', sent).grounded).toBe(true);
    // Without the time, or years away from it, the date is invented.
    expect(checkGrounding(moved, "They've pushed the deadline back a week.").grounded).toBe(false);
    expect(checkGrounding('inspection: tomorrow (5 May 2029)', 'Inspection is tomorrow.', sent).grounded).toBe(false);
    // A day in parentheses after no relative date is a date the exchange must give.
    expect(checkGrounding('deadline: launch (3 February 2027)', 'The launch is on track.', sent).grounded).toBe(false);
    expect(checkGrounding('review: next Thursday (7 May 2026)', 'Review next Thursday.', sent).grounded).toBe(true);
    // The time of day a relative date gives stands between it and the day it resolves to.
    expect(checkGrounding('committee: they meet next Tuesday at noon (12 May 2026)', 'They meet next Tuesday at noon.', sent).grounded).toBe(true);
    expect(checkGrounding('call: tomorrow at 10:30 (5 May 2026)', 'Call tomorrow at 10:30.', sent).grounded).toBe(true);
    expect(checkGrounding('launch: at noon (12 May 2026)', 'Launch at noon.', sent).grounded).toBe(false);
    // ("at 40" is no time of day.)
    expect(checkGrounding('heat: three days at 40 (2 May 2026)', 'Three days at 40.', sent).grounded).toBe(false);
  });
});
