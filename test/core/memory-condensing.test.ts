import { describe, expect, it } from 'vitest';
import { CONDENSE_FROM, condense } from '../../src/core/memory-condensing.js';

describe('condensing a verbose memory', () => {
  it('drops filler and repeated sentences, keeping every name, day and number', () => {
    const verbose =
      'Basically, I think that the supplier Brightwater delivers on Mondays and Thursdays before 7 am, you know. In order to avoid a wait, leave the side door open. By the way, Brightwater delivers on Mondays and Thursdays before 7 am.';
    const condensed = condense(verbose);
    expect(condensed?.value).toBe('The supplier Brightwater delivers on Mondays and Thursdays before 7 am. To avoid a wait, leave the side door open.');
    expect(condensed?.reason).toBe(`condensed from ${String(verbose.length)} to 114 characters (filler and 1 repeated sentence left out; every name, day and number kept)`);
  });

  it('leaves short values, values with nothing to drop, and values whose shorter form would lose a number', () => {
    expect(condense('Basically, I think that Ellie closes on Tuesdays.')).toBeNull();
    const plain = 'The café opens at seven on weekdays and at nine on Saturdays; Ellie closes on Tuesdays, Kit on Wednesdays; the float is kept in the safe in the office, never in the till.';
    expect(plain.length).toBeGreaterThan(CONDENSE_FROM);
    expect(condense(plain)).toBeNull();
    // The second sentence restates the first but gives another number: it is kept.
    const numbers = 'Basically, the deposit for the hall is £200, paid in cash to Margit at the door. Actually, the deposit for the hall is £250, paid in cash to Margit at the door.';
    expect(condense(`${numbers} ${numbers}`.slice(0, 300))?.value ?? numbers).toContain('£250');
  });
});
