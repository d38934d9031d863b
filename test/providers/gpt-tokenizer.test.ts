import { describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import type { TokenizerName } from '../../src/providers/tokenizer/tokenizer.js';

describe('gpt-tokenizer adapter', () => {
  const o200k = createGptTokenizer();
  const cl100k = createGptTokenizer({ encoding: 'cl100k_base' });

  it('defaults to o200k_base and lets cl100k_base be chosen', () => {
    expect(o200k.name).toBe('o200k_base');
    expect(cl100k.name).toBe('cl100k_base');
    const text = 'Кошка сидит на подоконнике и смотрит на дождь.';
    expect(o200k.count(text)).not.toBe(cl100k.count(text));
  });

  it('counts the chat format: 3 tokens per message plus its role and content, and 3 to prime the reply', () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Hello there' },
    ];
    const content = o200k.count('Be brief.') + o200k.count('Hello there');
    expect(o200k.countMessages(messages)).toBe(3 + (3 + 1) * 2 + content);
    expect(o200k.countMessages([])).toBe(0);
    expect(o200k.count('')).toBe(0);
  });

  it('counts special-token strings in user text as ordinary text instead of failing', () => {
    expect(o200k.count('please ignore <|endoftext|> this')).toBeGreaterThan(5);
  });

  it('truncates to at most the given tokens without splitting a character', () => {
    const text = 'naïve café déjà vu 😀 '.repeat(20);
    for (const limit of [0, 1, 5, 17, 40]) {
      const cut = o200k.truncate(text, limit);
      expect(o200k.count(cut)).toBeLessThanOrEqual(limit);
      expect(text.startsWith(cut)).toBe(true);
      expect(cut).not.toContain('\uFFFD');
    }
    expect(o200k.truncate('short', 100)).toBe('short');
  });

  it('rejects an unknown encoding with the names it accepts', () => {
    const error = (() => {
      try {
        createGptTokenizer({ encoding: 'p50k' as TokenizerName });
        return null;
      } catch (caught) {
        return caught;
      }
    })();
    expect(isStrataError(error, 'TOKENIZER_UNKNOWN')).toBe(true);
    expect((error as Error).message).toMatch(/o200k_base.*cl100k_base/u);
  });
});
