import fc from 'fast-check';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';

import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import { MAX_RUN, piecesOfLongRuns } from '../../src/providers/tokenizer/long-runs.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const exact = (text: string): number => o200k.countTokens(text, PLAIN);

describe('counting text with long runs of non-space characters', () => {
  it('cuts only long runs, into pieces of at most 256 characters, never inside a surrogate pair, and loses nothing', () => {
    expect(piecesOfLongRuns('short text')).toBeNull();
    expect(piecesOfLongRuns(`${'word '.repeat(100)}`)).toBeNull();
    const text = `before ${'ACGT'.repeat(200)} after ${'🙂'.repeat(300)}`;
    const pieces = piecesOfLongRuns(text) ?? [];
    expect(pieces.join('')).toBe(text);
    expect(pieces.every((piece) => piece.length <= MAX_RUN + 1)).toBe(true);
    expect(pieces.every((piece) => !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/u.test(piece))).toBe(true);
  });

  it('counts text without long runs exactly, and text with them never lower than exactly', () => {
    const tokenizer = createGptTokenizer();
    expect(tokenizer.count('The quick brown fox jumps over the lazy dog. '.repeat(50))).toBe(exact('The quick brown fox jumps over the lazy dog. '.repeat(50)));
    const run = fc.tuple(fc.constantFrom('ACGT', 'x', 'ab', 'Zq9', 'é', '日本', '🙂', '+/='), fc.integer({ min: 70, max: 700 })).map(([unit, times]) => unit.repeat(times));
    fc.assert(
      fc.property(fc.array(fc.oneof(run, fc.constantFrom(' ', ' and then ', '\n', 'Plain words here. ')), { minLength: 1, maxLength: 6 }), (parts) => {
        const text = parts.join('');
        expect(tokenizer.count(text)).toBeGreaterThanOrEqual(exact(text));
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('counts a 512 KB message of one letter run, and cuts it to a prefix within the budget', () => {
    const tokenizer = createGptTokenizer();
    const text = 'ACGT'.repeat(131_072);
    expect(tokenizer.count(text)).toBeGreaterThanOrEqual(131_072);
    const head = tokenizer.truncate(text, 1000);
    expect(text.startsWith(head)).toBe(true);
    expect(head.length).toBeGreaterThan(1000);
    expect(tokenizer.count(head)).toBeLessThanOrEqual(1000);
  });
});

describe('a memory given a message of one long letter run', () => {
  it('records it and packages the session within the budget', async () => {
    const { createMemory } = await import('../../src/memory/create-memory.js');
    const memory = createMemory({ path: ':memory:', env: {} });
    try {
      const session = await memory.sessions.create();
      const recorded = await session.record({ user: 'x'.repeat(524_288), assistant: 'That is a lot of x.' });
      expect(recorded.status).not.toBe('pending-retry');
      const pkg = await session.context({ budget: 2000 });
      expect(pkg.tokens).toBeLessThanOrEqual(2000);
    } finally {
      await memory.close();
    }
  });
});
