import { describe, expect, it } from 'vitest';
import { keepingTermCounts } from '../../src/store/kept-counts.js';
import type { ArchiveSearch } from '../../src/store/store.js';

/** An archive search over fixed counts that records which terms it was asked to count. */
function countingSearch(counts: Record<string, number>): { search: ArchiveSearch; asked: string[][] } {
  const asked: string[][] = [];
  const search: ArchiveSearch = {
    documentCount: async () => 50_000,
    termFrequencies: async ({ terms }) => {
      asked.push([...terms]);
      return terms.map((term) => counts[term] ?? 0);
    },
    rank: async () => [],
  };
  return { search, asked };
}

describe('keepingTermCounts', () => {
  it('counts a common term once over many searches, a rare one every time, and answers in the order asked', async () => {
    const { search, asked } = countingSearch({ budget: 9_000, deposit: 1_200, saturday: 40 });
    const kept = keepingTermCounts(search);
    expect(await kept.termFrequencies({ terms: ['saturday', 'budget', 'deposit', 'unknown'] })).toEqual([40, 9_000, 1_200, 0]);
    expect(await kept.termFrequencies({ terms: ['deposit', 'saturday', 'budget'] })).toEqual([1_200, 40, 9_000]);
    expect(await kept.termFrequencies({ terms: ['budget'] })).toEqual([9_000]);
    expect(asked).toEqual([['saturday', 'budget', 'deposit', 'unknown'], ['saturday']]);
  });

  it('counts common terms afresh after 500 searches, and ranks through the search it wraps', async () => {
    const { search, asked } = countingSearch({ budget: 9_000 });
    const kept = keepingTermCounts(search);
    for (let round = 0; round < 501; round += 1) await kept.termFrequencies({ terms: ['budget'] });
    expect(asked).toEqual([['budget'], ['budget']]);
    expect(await kept.documentCount()).toBe(50_000);
    expect(await kept.rank({ sessionId: 's', terms: ['budget'], limit: 5 })).toEqual([]);
  });
});
