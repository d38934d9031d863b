/**
 * How strongly each fact of the base-truth document relates to a query: the query's content words
 * found in the fact, each weighted by how rare it is among the facts (inverse document frequency),
 * so a fact naming the query's rare words outranks one sharing only its common ones.
 */
import { queryTerms, STOPWORDS } from '../core/query-terms.js';
import { stemWord, words } from '../core/text.js';
import type { Fact } from '../core/types.js';

/** The stemmed content words of a text. */
export function contentStemsOf(text: string): ReadonlySet<string> {
  const stems = new Set<string>();
  for (const word of words(text)) if (!STOPWORDS.has(word)) stems.add(stemWord(word));
  return stems;
}

/** The facts' stemmed content words, indexed once, so a query looks up only the facts that hold its words. */
export class FactTerms {
  /** Stem → the facts holding it, in the order they were given. */
  private readonly holders = new Map<string, Fact[]>();

  /** `stemsOf` may remember the words of facts it has seen (default: reads them every time). */
  constructor(
    private readonly facts: readonly Fact[],
    stemsOf: (fact: Fact) => ReadonlySet<string> = (fact) => contentStemsOf(fact.text),
  ) {
    for (const fact of facts) {
      for (const stem of stemsOf(fact)) {
        const holding = this.holders.get(stem);
        if (holding === undefined) this.holders.set(stem, [fact]);
        else holding.push(fact);
      }
    }
  }

  /** The relevance of each fact that shares a content word with `query`, keyed by fact id (a fact sharing none is absent). */
  relevance(query: string): Map<string, number> {
    const scores = new Map<string, number>();
    const total = this.facts.length;
    for (const term of new Set(queryTerms(query).map(stemWord))) {
      const holding = this.holders.get(term);
      if (holding === undefined) continue;
      const weight = Math.log(1 + (total - holding.length + 0.5) / (holding.length + 0.5));
      for (const fact of holding) scores.set(fact.id, (scores.get(fact.id) ?? 0) + weight);
    }
    return scores;
  }
}
