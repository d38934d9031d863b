import { describe, expect, it } from 'vitest';
import { SHORT_WORDS, routeTurn } from '../../src/core/routing.js';

describe('routeTurn', () => {
  it('counts every word of every message, the first word of a later message included', () => {
    // The assistant's reply has exactly the medium threshold's words, the first of them one letter long.
    const reply = ['I', ...Array.from({ length: SHORT_WORDS - 1 }, (_, index) => `word${index}`)].join(' ');
    expect(routeTurn(['Hi.', reply])).toEqual({ depth: 'medium', wantsDiff: true, windowExtension: 0 });
    expect(routeTurn(['Hi.', reply.slice(2)])).toEqual({ depth: 'short', wantsDiff: false, windowExtension: 0 });
  });
});
