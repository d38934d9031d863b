/**
 * How strongly each fact of the base-truth document relates to a query: the query's content words
 * found in the fact, each weighted by how rare it is among the facts (inverse document frequency),
 * so a fact naming the query's rare words outranks one sharing only its common ones.
 */
import { boundedMemo } from '../core/bounded-memo.js';
import { mapPacked } from '../core/packed-map.js';
import { queryTerms, STOPWORDS } from '../core/query-terms.js';
import { stemWord, words } from '../core/text.js';
import type { Fact } from '../core/types.js';

/** Stemmed content words by fact text, remembered: the document changes little between packages. */
const stems = boundedMemo((text: string): ReadonlySet<string> => {
  const found = new Set<string>();
  for (const word of words(text)) if (!STOPWORDS.has(word)) found.add(stemWord(word));
  return found;
}, 20_000);

/**
 * The relevance of every fact to `query` (0 when it shares no content word), keyed by fact id.
 * Facts are few enough (hundreds to a few thousand) to score in memory on every call; their words are remembered.
 */
export function factRelevance(facts: readonly Fact[], query: string): Map<string, number> {
  const terms = [...new Set(queryTerms(query).map(stemWord))];
  const scores = new Map<string, number>();
  if (terms.length === 0 || facts.length === 0) return scores;
  const factStems = mapPacked(facts, (fact) => stems(fact.text));
  const weights = mapPacked(terms, (term) => {
    let containing = 0;
    for (const set of factStems) if (set.has(term)) containing += 1;
    return containing === 0 ? 0 : Math.log(1 + (facts.length - containing + 0.5) / (containing + 0.5));
  });
  facts.forEach((fact, index) => {
    const set = factStems[index];
    if (set === undefined) return;
    let score = 0;
    terms.forEach((term, termIndex) => {
      if (set.has(term)) score += weights[termIndex] ?? 0;
    });
    if (score > 0) scores.set(fact.id, score);
  });
  return scores;
}
