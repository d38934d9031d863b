import { describe, expect, it } from 'vitest';

import { searchArchive, selectTerms } from '../../src/store/archive-query.js';
import type { ArchiveSearch, SearchHit } from '../../src/store/store.js';

/** An archive search that records what it was asked, answering from fixed statistics. */
function recordingSearch(documents: number, frequencies: Record<string, number>): ArchiveSearch & { ranked: string[][]; counted: number } {
  const calls = { ranked: [] as string[][], counted: 0 };
  return Object.assign(calls, {
    documentCount: async () => documents,
    termFrequencies: async ({ terms }: { terms: readonly string[] }) => {
      calls.counted += 1;
      return terms.map((term) => frequencies[term] ?? 0);
    },
    rank: async ({ terms }: { terms: readonly string[] }): Promise<SearchHit[]> => {
      calls.ranked.push([...terms]);
      return [];
    },
  });
}

describe('the archive query policy every store shares', () => {
  it('on a small index scores every content word of the query without counting them', async () => {
    const search = recordingSearch(1999, {});
    await searchArchive(search, { sessionId: 's', query: 'Where did we put the Hetzner standby box?', limit: 5 });
    expect(search.counted).toBe(0);
    expect(search.ranked).toEqual([['put', 'hetzner', 'standby', 'box']]);
  });

  it('asks nothing of the store for a query of stop words only, or a limit of 0', async () => {
    const search = recordingSearch(5000, {});
    expect(await searchArchive(search, { sessionId: 's', query: 'what is it?', limit: 5 })).toEqual([]);
    expect(await searchArchive(search, { sessionId: 's', query: 'hetzner', limit: 0 })).toEqual([]);
    expect(search.ranked).toEqual([]);
  });

  it('on a large index drops terms in more than a fifth of the messages and terms no message holds', () => {
    expect(selectTerms(['team', 'hetzner', 'zeppelin', 'standby'], [3000, 4, 0, 12], 10_000)).toEqual(['hetzner', 'standby']);
  });

  it('keeps the two rarest terms when every term is common', () => {
    expect(selectTerms(['team', 'update', 'thanks'], [5000, 2500, 4000], 10_000)).toEqual(['update', 'thanks']);
  });

  it('keeps at most ten terms, the rarest, in the query\'s order', () => {
    const terms = Array.from({ length: 12 }, (_, index) => `term${index}`);
    const frequencies = terms.map((_, index) => 12 - index);
    expect(selectTerms(terms, frequencies, 10_000)).toEqual(terms.slice(2));
  });

  it('adds a commoner term only while the rows scored stay within a thousand (the two rarest always)', () => {
    expect(selectTerms(['cedar', 'maple', 'tulip', 'orchid'], [1100, 900, 800, 1], 10_000)).toEqual(['tulip', 'orchid']);
    expect(selectTerms(['cedar', 'maple', 'tulip', 'orchid'], [550, 500, 300, 1], 10_000)).toEqual(['maple', 'tulip', 'orchid']);
  });
});
