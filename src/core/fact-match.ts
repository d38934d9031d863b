import { compareText, normalizeText, wordSimilarity } from './text.js';
import type { Fact } from './types.js';

/** Find the fact a key refers to: exact normalised key first, then the most similar key. */
export function matchFact(facts: readonly Fact[], key: string, threshold = 0.6): Fact | undefined {
  const normalized = normalizeText(key);
  if (normalized === '') return undefined;
  const exact = facts.filter((fact) => fact.key === normalized);
  if (exact.length > 0) return newestFact(exact);
  let best: Fact | undefined;
  let bestScore = threshold;
  for (const fact of facts) {
    const score = Math.max(wordSimilarity(normalized, fact.key), wordSimilarity(normalized, fact.text));
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = fact;
      bestScore = score;
    }
  }
  return best;
}

/** The most recently updated of several facts (by id on a tie), so one key always resolves to the same fact. */
export function newestFact(facts: readonly Fact[]): Fact | undefined {
  return [...facts].sort((a, b) => b.updatedTurn - a.updatedTurn || compareText(a.id, b.id))[0];
}
