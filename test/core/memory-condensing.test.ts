import { describe, expect, it } from 'vitest';
import { CONDENSE_FROM, condense } from '../../src/core/memory-condensing.js';

describe('condensing a verbose memory', () => {
  it('drops filler and sentences that say nothing more, keeping every name, day and number', () => {
    const verbose =
      'Basically, the supplier Brightwater delivers on Mondays and Thursdays before 7 am, you know. In order to avoid a wait, leave the side door open. By the way, Brightwater delivers on Mondays and Thursdays before 7 am.';
    const condensed = condense(verbose);
    expect(condensed?.value).toBe('The supplier Brightwater delivers on Mondays and Thursdays before 7 am. To avoid a wait, leave the side door open.');
    expect(condensed?.reason).toBe(`condensed from ${String(verbose.length)} to 114 characters (filler and 1 repeated sentence left out; every name, day and number kept)`);
  });

  it('keeps hedges, and a sentence that adds a condition or says the opposite', () => {
    const hedged = 'Basically, I think Noor is allergic to sesame, to be honest, and she does not really like spicy food either, you know, so keep the menu for her birthday dinner in March mild and free of sesame.';
    expect(condense(hedged)?.value).toBe('I think Noor is allergic to sesame, and she does not really like spicy food either, so keep the menu for her birthday dinner in March mild and free of sesame.');
    const conditions =
      'Send the Acme invoice to Marta on the last Friday of the month. Do not send the Acme invoice to Marta on the last Friday of the month when the timesheet is missing, basically, you know.';
    expect(condense(conditions)).toBeNull();
  });

  it('leaves short values, values with nothing to drop, and values whose shorter form would lose a number', () => {
    expect(condense('Basically, Ellie closes on Tuesdays.')).toBeNull();
    const plain = 'The café opens at seven on weekdays and at nine on Saturdays; Ellie closes on Tuesdays, Kit on Wednesdays; the float is kept in the safe in the office, never in the till.';
    expect(plain.length).toBeGreaterThan(CONDENSE_FROM);
    expect(condense(plain)).toBeNull();
    // The second sentence restates the first but gives another number: it is kept.
    const numbers =
      'Basically, to be honest, the deposit for the hall is £200, paid in cash to Margit at the door, you know. By the way, the deposit for the hall is £250, paid in cash to Margit at the door, if that makes sense.';
    expect(condense(numbers)?.value).toBe('The deposit for the hall is £200, paid in cash to Margit at the door. The deposit for the hall is £250, paid in cash to Margit at the door.');
  });
});
