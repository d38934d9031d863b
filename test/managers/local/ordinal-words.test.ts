import { describe, expect, it } from 'vitest';
import { ORDINAL_ENDINGS, NUMBER_WORDS, ordinalWords } from '../../../src/managers/local/ordinal-words.js';

describe('ordinal words', () => {
  it('writes ordinals as they are said, without digits or hyphens', () => {
    const said = [2, 3, 5, 8, 9, 11, 12, 20, 21, 42, 99, 100, 112, 1000, 2345].map(ordinalWords);
    expect(said).toEqual([
      'second',
      'third',
      'fifth',
      'eighth',
      'ninth',
      'eleventh',
      'twelfth',
      'twentieth',
      'twenty first',
      'forty second',
      'ninety ninth',
      'one hundredth',
      'one hundred twelfth',
      'one thousandth',
      'two thousand three hundred forty fifth',
    ]);
  });

  it('gives every number up to 5,000 its own ordinal, made of number words and one ending', () => {
    const seen = new Set<string>();
    for (let value = 1; value <= 5_000; value += 1) {
      const words = ordinalWords(value).split(' ');
      expect(ORDINAL_ENDINGS).toContain(words.at(-1));
      for (const word of words.slice(0, -1)) expect(NUMBER_WORDS).toContain(word);
      seen.add(words.join(' '));
    }
    expect(seen.size).toBe(5_000);
  });
});
