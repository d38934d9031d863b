import { describe, expect, it } from 'vitest';
import { SHORT_WORDS, routeTurn } from '../../src/core/routing.js';

describe('routeTurn', () => {
  it('counts every word of every message, the first word of a later message included', () => {
    // The assistant's reply has exactly the medium threshold's words, the first of them one letter long.
    const reply = ['I', ...Array.from({ length: SHORT_WORDS - 1 }, (_, index) => `word${index}`)].join(' ');
    expect(routeTurn(['Hi.', reply])).toEqual({ depth: 'medium', wantsDiff: true, windowExtension: 0 });
    expect(routeTurn(['Hi.', reply.slice(2)])).toEqual({ depth: 'short', wantsDiff: false, windowExtension: 0 });
  });

  it('routes a long message by its first 601 words: 600 keep it two extra turns, more keep it one, however many more', () => {
    const words = (count: number): string => Array.from({ length: count }, (_, index) => `w${index}`).join(' ');
    expect(routeTurn([words(600)])).toEqual({ depth: 'long', wantsDiff: true, windowExtension: 2 });
    expect(routeTurn([words(601)])).toEqual({ depth: 'long', wantsDiff: true, windowExtension: 1 });
    expect(routeTurn([words(100_000)])).toEqual({ depth: 'long', wantsDiff: true, windowExtension: 1 });
  });
});
