import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src/core/bounded-memo.js';

describe('boundedMemo', () => {
  it('computes a key once, null answers included, and forgets everything when full', () => {
    const computed: string[] = [];
    const memo = boundedMemo((key: string): string | null => {
      computed.push(key);
      return key === 'none' ? null : key.toUpperCase();
    }, 2);
    expect([memo('a'), memo('a'), memo('none'), memo('none')]).toEqual(['A', 'A', null, null]);
    expect(computed).toEqual(['a', 'none']);
    // Full: the third key clears the memo, so 'a' is computed again.
    expect(memo('b')).toBe('B');
    expect(memo('a')).toBe('A');
    expect(computed).toEqual(['a', 'none', 'b', 'a']);
  });

  it('stores a new entry under the key `storedKey` gives, which equals the key looked up', () => {
    const stored: string[] = [];
    const memo = boundedMemo((key: string) => key.length, 10, (key) => {
      stored.push(key);
      return `${key}`;
    });
    expect([memo('abc'), memo('abc')]).toEqual([3, 3]);
    expect(stored).toEqual(['abc']);
  });
});
