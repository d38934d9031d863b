import { describe, expect, it } from 'vitest';

import { splitSentences } from '../../../src/managers/local/sentences.js';

describe('sentences', () => {
  it('end after an ordinal ("on the 21st.") but not after an abbreviation ("St. Mary\'s", "Dr. Okafor")', () => {
    expect(splitSentences("Kaveri want to pack us on the 21st. Rohan's start got pushed.")).toEqual(['Kaveri want to pack us on the 21st.', "Rohan's start got pushed."]);
    expect(splitSentences("We meet at St. Mary's at noon. Dr. Okafor will be there.")).toEqual(["We meet at St. Mary's at noon.", 'Dr. Okafor will be there.']);
  });
});
