import { describe, expect, it } from 'vitest';
import { KeptCounts, keepingTermCounts } from '../../src/store/kept-counts.js';
import type { ArchiveSearch } from '../../src/store/store.js';

/** An archive search over counts the test may change, recording which terms it was asked to count; `slow` terms answer after `release()`. */
function countingSearch(counts: Record<string, number>, slow: readonly string[] = []) {
  const asked: string[][] = [];
  const state = { documents: 50_000 };
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const search: ArchiveSearch = {
    documentCount: async () => state.documents,
    termFrequencies: async ({ terms }) => {
      asked.push([...terms]);
      if (terms.some((term) => slow.includes(term))) await held;
      return terms.map((term) => counts[term] ?? 0);
    },
    rank: async () => [],
  };
  return { search, asked, state, release };
}

/** One search's counting, as `searchArchive` asks: the message count, then the terms. */
async function frequencies(search: ArchiveSearch, terms: string[]): Promise<number[]> {
  await search.documentCount();
  return search.termFrequencies({ terms });
}

describe('keepingTermCounts', () => {
  it('counts a common term once over many searches, a rare one every time, and answers in the order asked', async () => {
    const { search, asked } = countingSearch({ budget: 9_000, deposit: 1_200, saturday: 40 });
    const kept = keepingTermCounts(search);
    expect(await frequencies(kept, ['saturday', 'budget', 'deposit', 'unknown'])).toEqual([40, 9_000, 1_200, 0]);
    expect(await frequencies(kept, ['deposit', 'saturday', 'budget'])).toEqual([1_200, 40, 9_000]);
    expect(await frequencies(kept, ['budget'])).toEqual([9_000]);
    expect(asked).toEqual([['saturday', 'budget', 'deposit', 'unknown'], ['saturday']]);
  });

  it('counts common terms afresh after 500 searches, and ranks through the search it wraps', async () => {
    const { search, asked } = countingSearch({ budget: 9_000 });
    const kept = keepingTermCounts(search);
    for (let round = 0; round < 501; round += 1) await frequencies(kept, ['budget']);
    expect(asked).toEqual([['budget'], ['budget']]);
    expect(await kept.documentCount()).toBe(50_000);
    expect(await kept.rank({ sessionId: 's', terms: ['budget'], limit: 5 })).toEqual([]);
  });

  it('counts afresh once the tenant holds fewer messages (a session deleted) or 2 % more (an import)', async () => {
    const { search, asked, state } = countingSearch({ budget: 9_000 });
    const kept = keepingTermCounts(search);
    await frequencies(kept, ['budget']);
    state.documents = 50_900;
    await frequencies(kept, ['budget']);
    expect(asked).toHaveLength(1);
    state.documents = 51_100;
    await frequencies(kept, ['budget']);
    expect(asked).toHaveLength(2);
    state.documents = 51_000;
    await frequencies(kept, ['budget']);
    expect(asked).toHaveLength(3);
  });

  it('answers a kept count even when another search forgets the kept counts while it waits for the others', async () => {
    const { search, release } = countingSearch({ budget: 9_000, deposit: 40 }, ['deposit']);
    const kept = keepingTermCounts(search);
    for (let round = 0; round < 498; round += 1) await frequencies(kept, ['budget']);
    // Search 499 waits for "deposit"; search 500 forgets every kept count meanwhile.
    const waiting = frequencies(kept, ['budget', 'deposit']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await frequencies(kept, ['saturday'])).toEqual([0]);
    release();
    expect(await waiting).toEqual([9_000, 40]);
  });
});

describe('KeptCounts.countsOf', () => {
  it("keeps a search's kept counts when another search forgets them while it counts the rest (PostgreSQL's long-term search counts this way)", async () => {
    const kept = new KeptCounts();
    const counted: string[][] = [];
    const countNow = async (words: string[]): Promise<number[]> => {
      counted.push(words);
      return words.map((word) => (word === 'birthday' ? 12_000 : 3));
    };
    expect(await kept.countsOf(['birthday', 'mom'], countNow)).toEqual([12_000, 3]);
    for (let search = 2; search < 499; search += 1) await kept.countsOf(['birthday'], countNow);
    expect(counted).toEqual([['birthday', 'mom']]);
    // Search 499 waits for "mom"; search 500 forgets every kept count meanwhile.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waiting = kept.countsOf(['birthday', 'mom'], async (words) => {
      await held;
      return countNow(words);
    });
    expect(await kept.countsOf(['tuesday'], countNow)).toEqual([3]);
    release();
    expect(await waiting).toEqual([12_000, 3]);
  });
});
