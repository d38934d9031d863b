import { describe, expect, it } from 'vitest';
import { fuseRankings } from '../../src/retrieval/rank-fusion.js';

const hits = (...ids: string[]): Array<{ messageId: string; turn: number }> => ids.map((messageId, index) => ({ messageId, turn: index + 1 }));

describe('rank fusion', () => {
  it('adds 1 / (k + rank) over both lists, so a message both rank high comes first', () => {
    const fused = fuseRankings(hits('a', 'b', 'c'), hits('c', 'd'), { limit: 10, lexicalK: 5, semanticK: 15 });
    expect(fused.map((hit) => hit.messageId)).toEqual(['c', 'a', 'b', 'd']);
    expect(fused[0]?.score).toBeCloseTo(1 / 8 + 1 / 16, 10);
    expect(fused[1]?.score).toBeCloseTo(1 / 6, 10);
    expect(fused[3]?.score).toBeCloseTo(1 / 17, 10);
  });

  it('keeps the lexical list\'s best hits ahead of vector-only ones by default', () => {
    const lexical = hits(...Array.from({ length: 10 }, (_, index) => `l${index}`));
    const fused = fuseRankings(lexical, hits('v1', 'v2'), { limit: 12 });
    // The best vector hit weighs 1/16, as much as the eleventh lexical hit: after the first ten.
    expect(fused.slice(0, 10).map((hit) => hit.messageId)).toEqual(lexical.map((hit) => hit.messageId));
    expect(fused.slice(10).map((hit) => hit.messageId)).toEqual(['v1', 'v2']);
  });

  it('breaks ties in lexical order, then semantic order, and honours the limit', () => {
    const fused = fuseRankings(hits('a'), hits('b'), { limit: 10, lexicalK: 5, semanticK: 5 });
    expect(fused.map((hit) => hit.messageId)).toEqual(['a', 'b']);
    expect(fuseRankings(hits('a', 'b', 'c'), hits('d'), { limit: 2 })).toHaveLength(2);
    expect(fuseRankings([], [], { limit: 5 })).toEqual([]);
    expect(fuseRankings(hits('a'), [], { limit: 0 })).toEqual([]);
  });
});
