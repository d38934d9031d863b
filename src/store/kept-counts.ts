/**
 * Counts of a word's matches that a memory search keeps a while, for SQLite's and PostgreSQL's alike.
 * Counting a common word reads many index entries or rows; a count only decides how a word is read
 * (ranked or taken newest first), so one a few hundred searches old does as well. Only counts of common
 * words are kept (rare ones are cheap to count, and change meaning soonest), at most `COUNTS_KEPT` words,
 * all forgotten every `COUNTS_KEPT_FOR` searches.
 */
import type { ArchiveSearch } from './store.js';

/** Counts kept: of words matching more than this many memories, at most this many words, for this many searches. */
const COUNT_KEPT_FROM = 500;
const COUNTS_KEPT = 10_000;
const COUNTS_KEPT_FOR = 500;

export class KeptCounts {
  private readonly counts = new Map<string, number>();
  private searches = 0;

  /** Call once per search, before reading counts. */
  startSearch(): void {
    this.searches += 1;
    if (this.searches % COUNTS_KEPT_FOR === 0 || this.counts.size > COUNTS_KEPT) this.counts.clear();
  }

  get(word: string): number | undefined {
    return this.counts.get(word);
  }

  /** Note a word's count just read (kept only when the word is common). */
  note(word: string, count: number): void {
    if (count > COUNT_KEPT_FROM) this.counts.set(word, count);
  }

  /**
   * One search's counts of `words`, in order: those kept, and the others from `countNow` (then kept when
   * common). The kept ones are read before `countNow` is awaited, since a search that runs meanwhile may
   * forget them all.
   */
  async countsOf(words: readonly string[], countNow: (missing: string[]) => Promise<readonly number[]>): Promise<number[]> {
    this.startSearch();
    const known = words.map((word) => this.counts.get(word));
    const missing = words.filter((_word, index) => known[index] === undefined);
    const counted = missing.length === 0 ? [] : await countNow(missing);
    const fresh = new Map(missing.map((word, index) => [word, counted[index] ?? 0]));
    for (const [word, count] of fresh) this.note(word, count);
    return words.map((word, index) => known[index] ?? fresh.get(word) ?? 0);
  }
}

/** How far the tenant's message count may grow from when counts were kept before they are read afresh. */
const KEPT_WHILE_GROWTH = 0.02;

/**
 * An archive search that keeps the counts of common terms the same way (`KeptCounts`): a chat message as
 * the query holds a few dozen terms, and counting one found in thousands of messages reads each of them
 * (on a 100,000-message session, about 12 ms of each read went to counting). The counts decide which
 * terms are scored (`searchArchive`), and so which messages a search can find: they are forgotten as
 * soon as the tenant's message count falls (a session deleted) or grows by 2 % (an import), besides
 * every 500 searches. The ranking itself always reads the index as it is.
 */
export function keepingTermCounts(search: ArchiveSearch): ArchiveSearch {
  let kept = new KeptCounts();
  /** The tenant's message count when the kept counts were first read. */
  let keptAt: number | null = null;
  return {
    documentCount: async () => {
      const documents = await search.documentCount();
      if (keptAt === null || documents < keptAt || documents > keptAt * (1 + KEPT_WHILE_GROWTH)) {
        kept = new KeptCounts();
        keptAt = documents;
      }
      return documents;
    },
    rank: (options) => search.rank(options),
    termFrequencies: ({ terms }) => kept.countsOf(terms, (missing) => search.termFrequencies({ terms: missing })),
  };
}
