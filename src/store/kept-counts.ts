/**
 * Counts of a word's matches that a memory search keeps a while, for SQLite's and PostgreSQL's alike.
 * Counting a common word reads many index entries or rows; a count only decides how a word is read
 * (ranked or taken newest first), so one a few hundred searches old does as well. Only counts of common
 * words are kept (rare ones are cheap to count, and change meaning soonest), at most `COUNTS_KEPT` words,
 * all forgotten every `COUNTS_KEPT_FOR` searches.
 */

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
}
