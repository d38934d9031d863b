import { describe, expect, it } from 'vitest';
import { countWords } from '../../src/core/text.js';

describe('countWords', () => {
  it('counts words separated by any whitespace JavaScript\'s \\s matches', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   \n\t')).toBe(0);
    expect(countWords(' one  two\tthree\nfour ')).toBe(4);
    // No-break, ideographic and line-separator spaces, and a byte-order mark, separate words too.
    expect(countWords('a\u00a0b\u3000c\u2028d\ufeffe')).toBe(5);
    // A zero-width space is not whitespace: it stays inside its word.
    expect(countWords('zero\u200bwidth')).toBe(1);
  });

  it('counts only the words of a slice when given one', () => {
    const text = 'alpha beta gamma delta';
    expect(countWords(text, 6, 16)).toBe(2);
    expect(countWords(text, 8, 11)).toBe(1);
    expect(countWords(text, -5, 1000)).toBe(4);
    expect(countWords(text, 10, 10)).toBe(0);
  });

  it('stops at `most` words when given it', () => {
    const text = 'one two three four five';
    expect(countWords(text, 0, text.length, 3)).toBe(3);
    expect(countWords(text, 0, text.length, 10)).toBe(5);
    expect(countWords(text, 4, text.length, 2)).toBe(2);
  });
});
