import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { lineBreakTokens, spaceTokens } from '../../src/providers/tokenizer/separator-tokens.js';

const LINES = [
  'The budget is $45,000.',
  '[turn 12] user: budget = $45,000; deadline = March 3',
  '- card numbers: must never be stored (exception)',
  'Done!)',
  'See https://example.com/docs/',
  'The answer is 42',
  'Quote: "never on Fridays"',
  'users\'',
  'A smile 😀',
  'Math 𝐀',
  '会議は火曜日です。',
  'ends with a dash -',
  'x = 1;',
  'trailing spaces   ',
  'a tab\t',
];

describe('separator tokens', () => {
  for (const [name, encoding] of [
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const) {
    const count = (text: string): number => encoding.countTokens(text);
    it(`gives what a line break after the line adds, in ${name}, and never less`, () => {
      for (const line of LINES) {
        const truth = count(`${line}\n`) - count(line);
        const estimate = lineBreakTokens(line, count);
        if (/\s$/u.test(line)) expect(estimate).toBeGreaterThanOrEqual(truth);
        else expect(estimate, line).toBe(truth);
      }
    });

    it(`gives what the space after a line's prefix adds, in ${name}, and never less`, () => {
      const texts = [...LINES, "y's love grew", "it'soft", 'McDonald said', 'HTTPServer down', '42 apples', '$45', '"quoted"', '😀 smile', 'Élan vital', '𝐀bc'];
      for (const text of texts) {
        const truth = count(`user: ${text}`) - count('user:') - count(text);
        const estimate = spaceTokens(text, count);
        // A space can even save a token (" McDonald" in cl100k_base); the estimate stops at 0.
        if (/^\p{L}/u.test(text) && !/\s$/u.test(text)) expect(estimate, text).toBe(Math.max(0, truth));
        else expect(estimate, text).toBeGreaterThanOrEqual(truth);
      }
    });
  }

  it('counts a break after punctuation as part of it, and after a letter or digit as a token of its own', () => {
    const count = (text: string): number => o200k.countTokens(text);
    expect(lineBreakTokens('The budget is $45,000.', count)).toBe(0);
    expect(lineBreakTokens('The answer is 42', count)).toBe(1);
    expect(lineBreakTokens('deadline = March 3', count)).toBe(1);
  });
});
