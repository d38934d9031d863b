import { describe, expect, it } from 'vitest';

import { splitSentences } from '../../../src/managers/local/sentences.js';

describe('sentences', () => {
  it('end before a sentence that opens with an amount, but not after an abbreviation or inside a number', () => {
    expect(splitSentences('I typed SP10 instead of SP30, my mistake. £790 is silly money. 12 people came. It cost approx. £5 each. Version 3.5 is out.')).toEqual([
      'I typed SP10 instead of SP30, my mistake.',
      '£790 is silly money.',
      '12 people came.',
      'It cost approx. £5 each.',
      'Version 3.5 is out.',
    ]);
  });

  it('split a long lower-case run between two sentence ends in time linear in its length', () => {
    const run = 'x'.repeat(400_000);
    expect(splitSentences(`start. ${run}. End`).join(' ')).toBe(`start. ${run}. End`);
  });

  it('end after an ordinal ("on the 21st.") but not after an abbreviation ("St. Mary\'s", "Dr. Okafor")', () => {
    expect(splitSentences("Kaveri want to pack us on the 21st. Rohan's start got pushed.")).toEqual(['Kaveri want to pack us on the 21st.', "Rohan's start got pushed."]);
    expect(splitSentences("We meet at St. Mary's at noon. Dr. Okafor will be there.")).toEqual(["We meet at St. Mary's at noon.", 'Dr. Okafor will be there.']);
  });
});
