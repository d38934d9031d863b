import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finish } from '../../src/core/slices.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { MAX_RUN } from '../../src/providers/tokenizer/long-runs.js';
import { countingInSlices, partsOfLine } from '../../src/providers/tokenizer/sliced-count.js';

/** What texts are made of: words, numbers, punctuation, every kind of whitespace and line break, long runs of letters and of emoji. */
const PIECES = [
  'word', 'Word', "it's", 'naïve', '12345', '3.14', '$1,234', '!?', '...', '/', '//', '—', '😀', '👍🏽', 'e\u0301', '我们', 'Кошка',
  ' ', '  ', '\t', '\n', '\n\n', '\r', '\r\n', ' \n', '\n/', '!\n', '7\n', '\u00a0', '\u3000', '\u2028', '\u200b', '\ufeff', '\u0301', '𝐀', '<|endoftext|>',
  'x'.repeat(65), 'y'.repeat(200), 'z'.repeat(MAX_RUN), 'w'.repeat(MAX_RUN + 1), 'ACGT'.repeat(80), '😀'.repeat(150),
];

const texts = fc.array(fc.constantFrom(...PIECES), { maxLength: 3_000 }).map((pieces) => pieces.join(''));

describe('counting a long text in slices (gpt adapter)', () => {
  for (const [name, encoding] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
    it(`gives exactly the ${name} count of the whole text, however short its slices`, () => {
      const tokenizer = createGptTokenizer({ encoding: name, cacheBytes: 0 });
      const countPlain = (text: string): number => (text === '' ? 0 : encoding.countTokens(text, { disallowedSpecial: new Set() }));
      fc.assert(
        fc.property(texts, fc.integer({ min: 1, max: 2_000 }), (text, sliceCharacters) => {
          expect(finish(countingInSlices(text, countPlain, sliceCharacters))).toBe(tokenizer.count(text));
        }),
        { seed: 1123, numRuns: 150 },
      );
    });
  }

  it('is what the adapter counts a long text with, in slices', () => {
    const tokenizer = createGptTokenizer();
    const text = `${'We meet at 10:30 in Lisbon; the budget is €4,000. '.repeat(2_000)}\n${'ACGT'.repeat(20_000)}`;
    const slices = tokenizer.countingInSlices?.(text);
    expect(slices === undefined ? -1 : finish(slices)).toBe(tokenizer.count(text));
  });

  it('yields many times on a long message of any kind, so other work can run between its slices', () => {
    const tokenizer = createGptTokenizer();
    const bytes = Buffer.alloc(300_000, 0).map((_, index) => (index * 7919) % 256);
    const words = Array.from({ length: 4_000 }, (_, index) => `${String(index).padStart(6, '0')}${'k'.repeat(94)}`);
    for (const text of ['The budget is $4,000 and the deadline is March 3. '.repeat(8_000), Buffer.from(bytes).toString('base64'), 'ACGT'.repeat(100_000), words.join(' '), words.join('\t')]) {
      const slices = tokenizer.countingInSlices?.(text);
      let yields = 0;
      for (let step = slices?.next(); step !== undefined && step.done !== true; step = slices?.next()) yields += 1;
      expect(yields).toBeGreaterThan(10);
    }
  });

  it('cuts a long line only before whitespace after a word no longer than a long run, and not at all where there is none', () => {
    const line = `${'abc '.repeat(10)}${'q'.repeat(200)}\t${'z'.repeat(MAX_RUN + 1)} tail`;
    const parts = partsOfLine(line, 8);
    expect(parts.join('')).toBe(line);
    for (const part of parts.slice(1)) expect(part.startsWith(' ') || part.startsWith('\t')).toBe(true);
    expect(parts.some((part) => part.startsWith('\t'))).toBe(true);
    expect(parts.some((part) => part.startsWith(' tail'))).toBe(false);
    expect(partsOfLine('ACGT'.repeat(5_000), 100)).toHaveLength(1);
    // After punctuation a line break is not cut before (the encodings may take it along), after a letter it is.
    expect(partsOfLine(`${'a!\n/'.repeat(100)}`, 4)).toHaveLength(1);
    expect(partsOfLine(`${'ab\n/'.repeat(100)}`, 4).length).toBeGreaterThan(10);
  });
});
