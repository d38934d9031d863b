import { describe, expect, it } from 'vitest';
import { mapPacked } from '../../src/core/packed-map.js';

describe('mapPacked', () => {
  it('gives what Array.prototype.map gives: each item transformed with its index, in order, once', () => {
    const seen: Array<[string, number]> = [];
    const result = mapPacked(['a', 'b', 'c'], (item, index) => {
      seen.push([item, index]);
      return `${item}${index}`;
    });
    expect(result).toEqual(['a0', 'b1', 'c2']);
    expect(seen).toEqual([['a', 0], ['b', 1], ['c', 2]]);
    expect(mapPacked([], (item: number) => item * 2)).toEqual([]);
  });

  it('returns a new array and leaves the input alone', () => {
    const input = [1, 2, 3];
    const output = mapPacked(input, (item) => item * 10);
    expect(output).not.toBe(input);
    expect(input).toEqual([1, 2, 3]);
    expect(output).toEqual([10, 20, 30]);
  });
});
