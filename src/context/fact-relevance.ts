/**
 * How strongly each fact of the base-truth document relates to a query: the query's content words
 * found in the fact, each weighted by how rare it is among the facts (inverse document frequency),
 * so a fact naming the query's rare words outranks one sharing only its common ones.
 */
import { addTo } from '../core/list-map.js';
import { inSlices, stepThrough, type Pause } from '../core/slices.js';
import { queryTerms, STOPWORDS } from '../core/query-terms.js';
import { stemWord, words } from '../core/text.js';
import type { Fact } from '../core/types.js';

/** The stemmed content words of a text. */
export function contentStemsOf(text: string): ReadonlySet<string> {
  const stems = new Set<string>();
  for (const word of words(text)) if (!STOPWORDS.has(word)) stems.add(stemWord(word));
  return stems;
}

/** The query's distinct stemmed content words. */
const termsOf = (query: string): string[] => [...new Set(queryTerms(query).map(stemWord))];

/** At most this many query words are looked for in each fact; more, and each fact's words (about this many) are looked up instead. */
const FEW_TERMS = 6;

/**
 * Whether a text may hold a word whose stem is one of `terms`: such a word begins with its stem less the
 * last letter (`stemWord` only cuts endings, or turns "-ies"/"-ied" into "-y"), and `words` keeps a word's
 * letters as NFKC and lower case give them. Far cheaper than splitting and stemming the text: a document's
 * first query (10,363 facts) took 90–150 ms to stem every fact.
 */
function mayHold(text: string, prefixes: readonly string[]): boolean {
  const folded = text.normalize('NFKC').toLowerCase();
  return prefixes.some((prefix) => folded.includes(prefix));
}

const NO_STEMS: ReadonlySet<string> = new Set();

/** Facts whose words are read between two pauses in `FactTerms.prepare` (about 20 ms of work). */
const STEMMED_PER_SLICE = 2_000;

/**
 * The facts' stemmed content words, for a query's relevance. A document changed by every turn is asked
 * once, for one query: its facts holding the query's words are found by looking each fact's words up. A
 * document asked again (reads with no turn between) indexes every word once, and looks the words up there.
 */
export class FactTerms {
  /** Stem → the facts holding it, in the order they were given; made on the second query. */
  private index: Map<string, Fact[]> | undefined;
  private asked = 0;
  /** The scores `prepare` worked out, for its query. */
  private prepared: { query: string; scores: ReadonlyMap<string, number> } | undefined;

  /**
   * `stemsOf` may remember the words of facts it has seen (default: reads them every time); `knownStemsOf`
   * gives them only when already remembered, so a fact not seen before is first checked cheaply for the
   * query's words (`mayHold`) rather than stemmed whole.
   */
  constructor(
    private readonly facts: readonly Fact[],
    private readonly stemsOf: (fact: Fact) => ReadonlySet<string> = (fact) => contentStemsOf(fact.text),
    private readonly knownStemsOf: (fact: Fact) => ReadonlySet<string> | undefined = () => undefined,
  ) {}

  /** The facts holding each of `terms`, in the order they were given. */
  private holders(terms: readonly string[]): Map<string, Fact[]> {
    this.asked += 1;
    if (this.index === undefined && this.asked > 1) {
      const index = new Map<string, Fact[]>();
      for (const fact of this.facts) for (const stem of this.stemsOf(fact)) addTo(index, stem, fact);
      this.index = index;
    }
    const index = this.index;
    if (index !== undefined) return new Map(terms.map((term) => [term, index.get(term) ?? []]));
    const found = new Map<string, Fact[]>(terms.map((term) => [term, []]));
    if (terms.length === 0) return found;
    // Whichever is shorter is walked: the query's words in each fact, or each fact's words in the query's.
    const fewTerms = terms.length <= FEW_TERMS;
    const prefixes = terms.map((term) => term.slice(0, -1));
    for (const fact of this.facts) {
      const stems = this.knownStemsOf(fact) ?? (!fewTerms || mayHold(fact.text, prefixes) ? this.stemsOf(fact) : NO_STEMS);
      if (fewTerms) {
        for (const term of terms) if (stems.has(term)) found.get(term)?.push(fact);
      } else {
        for (const stem of stems) found.get(stem)?.push(fact);
      }
    }
    return found;
  }

  /**
   * Read ahead, with `pause` between slices, the words of every fact that `relevance(query)` would read
   * (all of them for a query of many words) and, for a document asked before, index them, so that call
   * does not read ten thousand facts' words in one go. Worth it only with a `stemsOf` that remembers.
   */
  async prepare(query: string, pause: Pause): Promise<void> {
    if (this.index !== undefined || (this.asked === 0 && termsOf(query).length <= FEW_TERMS)) return;
    // A document asked before is indexed now (see `holders`), in the same slices.
    const index = this.asked > 0 ? new Map<string, Fact[]>() : undefined;
    const read = (fact: Fact): void => {
      const stems = this.stemsOf(fact);
      if (index !== undefined) for (const stem of stems) addTo(index, stem, fact);
    };
    await stepThrough(inSlices(this.facts, STEMMED_PER_SLICE, read), pause);
    // (A query answered meanwhile may have indexed the document: the same index.)
    if (index !== undefined) this.index ??= index;
    // The scores too, apart from the words: on a large document they are a walk of their own.
    this.prepared = { query, scores: this.relevance(query) };
    await pause();
  }

  /** The relevance of each fact that shares a content word with `query`, keyed by fact id (a fact sharing none is absent). */
  relevance(query: string): ReadonlyMap<string, number> {
    if (this.prepared?.query === query) return this.prepared.scores;
    const scores = new Map<string, number>();
    const total = this.facts.length;
    const terms = termsOf(query);
    const holders = this.holders(terms);
    for (const term of terms) {
      const holding = holders.get(term) ?? [];
      if (holding.length === 0) continue;
      const weight = Math.log(1 + (total - holding.length + 0.5) / (holding.length + 0.5));
      for (const fact of holding) scores.set(fact.id, (scores.get(fact.id) ?? 0) + weight);
    }
    return scores;
  }
}
