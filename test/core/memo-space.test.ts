import { describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { approximateBytes, MemoSpace, scopedMemo, stringBytes } from '../../src/core/memo-space.js';

/** A memo of `compute` that records each key it computes. */
function counted<V>(compute: (key: string) => V): { compute: (key: string) => V; keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    compute: (key) => {
      keys.push(key);
      return compute(key);
    },
  };
}

describe('MemoSpace', () => {
  it('computes a key once, null answers included', () => {
    const space = new MemoSpace(1_000_000);
    const work = counted((key: string): string | null => (key === 'none' ? null : key.toUpperCase()));
    const memo = space.memo(work.compute);
    expect([memo('a'), memo('a'), memo('none'), memo('none')]).toEqual(['A', 'A', null, null]);
    expect(work.keys).toEqual(['a', 'none']);
  });

  it('never holds more than its bound, however many keys pass through it, and drops the oldest first', () => {
    const space = new MemoSpace(20_000);
    const work = counted((key: string) => new Set(key.split('-')));
    const memo = space.memo(work.compute);
    for (let index = 0; index < 5_000; index += 1) {
      memo(`word-${index}-again`);
      expect(space.bytes).toBeLessThanOrEqual(20_000);
    }
    expect(space.bytes).toBeGreaterThan(15_000);
    const computed = work.keys.length;
    // The newest key is still held; the first one was dropped and is computed again.
    memo('word-4999-again');
    expect(work.keys.length).toBe(computed);
    memo('word-0-again');
    expect(work.keys.length).toBe(computed + 1);
  });

  it('shares its bound among its memos, taking from the one that holds the most', () => {
    const space = new MemoSpace(30_000);
    const big = space.memo((key: string) => key.repeat(20));
    const smallWork = counted((key: string) => key.length);
    const small = space.memo(smallWork.compute);
    for (let index = 0; index < 20; index += 1) small(`small ${index}`);
    for (let index = 0; index < 2_000; index += 1) big(`a long key number ${index}`);
    expect(space.bytes).toBeLessThanOrEqual(30_000);
    // The small memo's entries survived: the big one paid for its own growth.
    for (let index = 0; index < 20; index += 1) small(`small ${index}`);
    expect(smallWork.keys).toHaveLength(20);
  });

  it('keeps nothing with a bound of 0, and nothing larger than its bound', () => {
    const none = new MemoSpace(0);
    const work = counted((key: string) => key);
    const memo = none.memo(work.compute);
    memo('a');
    memo('a');
    expect(work.keys).toEqual(['a', 'a']);
    expect(none.bytes).toBe(0);
    const tight = new MemoSpace(500);
    const huge = counted((key: string) => key.repeat(1000));
    const hugeMemo = tight.memo(huge.compute);
    hugeMemo('b');
    hugeMemo('b');
    expect(huge.keys).toEqual(['b', 'b']);
  });

  it('clears on demand', () => {
    const space = new MemoSpace(10_000);
    const work = counted((key: string) => key);
    const memo = space.memo(work.compute);
    memo('a');
    space.clear();
    expect(space.bytes).toBe(0);
    memo('a');
    expect(work.keys).toEqual(['a', 'a']);
  });

  it('stores a new entry under the key storedKey gives', () => {
    const stored: string[] = [];
    const memo = new MemoSpace(10_000).memo((key: string) => key.length, {
      storedKey: (key) => {
        stored.push(key);
        return `${key}`;
      },
    });
    expect([memo('abc'), memo('abc')]).toEqual([3, 3]);
    expect(stored).toEqual(['abc']);
  });

  it('refuses a size that is not a number of bytes with a StrataError', () => {
    for (const size of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      let thrown: unknown;
      try {
        new MemoSpace(size);
      } catch (error) {
        thrown = error;
      }
      expect(isStrataError(thrown) && thrown.code === 'INVALID_CONFIG').toBe(true);
    }
  });
});

describe('scopedMemo', () => {
  it('keeps its entries in the space of the work running, and each space its own', () => {
    const work = counted((key: string) => key.toUpperCase());
    const memo = scopedMemo(work.compute);
    const first = new MemoSpace(100_000);
    const second = new MemoSpace(100_000);
    first.run(() => memo('a'));
    first.run(() => memo('a'));
    expect(work.keys).toEqual(['a']);
    expect(first.bytes).toBeGreaterThan(0);
    // Another engine's space does not see the first one's entries.
    second.run(() => memo('a'));
    expect(work.keys).toEqual(['a', 'a']);
    first.clear();
    expect(second.bytes).toBeGreaterThan(0);
  });

  it('restores the space that ran before, when work ends or throws', () => {
    const memo = scopedMemo((key: string) => key);
    const outer = new MemoSpace(100_000);
    const inner = new MemoSpace(100_000);
    outer.run(() => {
      expect(() =>
        inner.run(() => {
          memo('inner');
          throw new Error('stop');
        }),
      ).toThrow('stop');
      memo('outer');
    });
    const innerBytes = inner.bytes;
    expect(innerBytes).toBeGreaterThan(0);
    expect(outer.bytes).toBeGreaterThan(0);
    // Outside any run, the process's space is used: neither engine's grows.
    memo('nowhere');
    expect(inner.bytes).toBe(innerBytes);
  });
});

describe('approximateBytes', () => {
  it('weighs strings by length and containers by what they hold', () => {
    expect(stringBytes('abcd')).toBe(24);
    expect(approximateBytes('abcd')).toBe(24);
    expect(approximateBytes(null)).toBe(0);
    const words = new Set(['alpha', 'beta', 'gamma']);
    expect(approximateBytes(words)).toBeGreaterThan(approximateBytes(new Set(['alpha'])));
    expect(approximateBytes({ padded: ' a b ', words })).toBeGreaterThan(approximateBytes(words));
    expect(approximateBytes(new Map([['a', [1, 2, 3]]]))).toBeGreaterThan(approximateBytes(new Map()));
  });
});
