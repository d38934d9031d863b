import fc from 'fast-check';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { cachedLineCounter, splitAtSafeLineBreaks } from '../../src/providers/tokenizer/line-count-cache.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
/** Characters that stress the pre-tokenizer at line breaks: letters, digits, punctuation, spaces, "/", quotes, non-Latin. */
const PIECES = ['a', 'Z', 'word', 'The', '7', '2026', '.', ',', '-', '[', ']', '#', ':', '/', '//', "'s", "'", ' ', '  ', '\t', '\n', '\n\n', '\r\n', 'é', 'ß', 'Ω', '日本', '🙂', '$', '<|endoftext|>'];

describe('counting long texts line by line', () => {
  it('cuts only after line breaks followed by something other than whitespace or "/", and loses nothing', () => {
    expect(splitAtSafeLineBreaks('a\nb\n c\n/d\n\ne\n')).toEqual(['a\n', 'b\n c\n/d\n\n', 'e\n']);
    fc.assert(fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 300 }), (parts) => {
      const text = parts.join('');
      expect(splitAtSafeLineBreaks(text).join('')).toBe(text);
    }));
  });

  for (const [name, encoding] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
    it(`gives exactly the direct count with ${name}, for any mix of lines`, () => {
      const direct = (text: string): number => encoding.countTokens(text, PLAIN);
      const cached = cachedLineCounter(direct, 1000);
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 50, maxLength: 600 }), (parts) => {
          const text = parts.join('');
          expect(cached(text)).toBe(direct(text));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('the tokenizer counts a long system message exactly, the chat format\'s overhead included', () => {
    const tokenizer = createGptTokenizer();
    const lines = ['## Facts', '- budget: $45,000', '', '## Earlier in the conversation', '[turn 1] user: hi', '  indented', '/path/to/file', '[turn 2] assistant: done'];
    const system = Array.from({ length: 20 }, () => lines.join('\n')).join('\n');
    const messages = [{ role: 'system' as const, content: system }, { role: 'user' as const, content: 'Next?' }];
    const direct = (text: string): number => o200k.countTokens(text, PLAIN);
    const expected = 3 + (3 + direct('system') + direct(system)) + (3 + direct('user') + direct('Next?'));
    expect(tokenizer.countMessages(messages)).toBe(expected);
    // Counted again from the cached lines, still exact.
    expect(tokenizer.countMessages(messages)).toBe(expected);
  });

  it('counts a text or line once and then looks it up, short texts included', () => {
    let calls = 0;
    const cached = cachedLineCounter((text) => {
      calls += 1;
      return o200k.countTokens(text, PLAIN);
    }, 100_000);
    const long = Array.from({ length: 40 }, (_, index) => `[turn ${index}] the budget is $${index * 10}.`).join('\n');
    for (const text of ['- never store card numbers', long]) {
      const first = cached(text);
      const before = calls;
      expect(cached(text)).toBe(first);
      expect(calls).toBe(before);
    }
  });

  it('is what the tokenizer uses, on a rendered package-like text', () => {
    const lines = Array.from({ length: 400 }, (_, index) => `[turn ${index}] Maya: the budget for item ${index} is $${index * 10}.`);
    const text = `## Earlier turns\n${lines.join('\n')}\n\n## Facts\n- budget: $45,000\n- never store card numbers`;
    const tokenizer = createGptTokenizer();
    expect(tokenizer.count(text)).toBe(o200k.countTokens(text, PLAIN));
    // A second count of a slightly different text reuses the lines and is still exact.
    const changed = text.replace('[turn 5]', '[turn 5 revised]');
    expect(tokenizer.count(changed)).toBe(o200k.countTokens(changed, PLAIN));
  });
});
