/**
 * Reciprocal rank fusion of a lexical and a semantic ranking: a message scores the sum, over the lists
 * that hold it, of 1 / (k + rank), rank counted from 1. A small k for the lexical list keeps its
 * strongest hits at the top: on LoCoMo's dev split (local manager, bundled word vectors) an equal k of
 * 60 let near-miss vector hits push exact matches out of small packages (evidence recall at 1,000
 * tokens down 3 points), while k = 5 for BM25 and 15 for vectors (the best vector hit weighs as much
 * as BM25's eleventh) lost at most one question's share in any category and budget and gained most at
 * 4,000 and 8,000 tokens (the README gives the figures).
 */
export interface RankedHit {
  messageId: string;
  turn: number;
}

export interface FusedHit extends RankedHit {
  /** The fused score, higher is better. */
  score: number;
}

export interface FusionSettings {
  /** k of the lexical list (default 5). */
  lexicalK?: number;
  /** k of the semantic list (default 15). */
  semanticK?: number;
  /** Most hits returned. */
  limit: number;
}

/** The two rankings fused, best first; a tie keeps the lexical order, then the semantic one. */
export function fuseRankings(lexical: readonly RankedHit[], semantic: readonly RankedHit[], settings: FusionSettings): FusedHit[] {
  const fused = new Map<string, FusedHit & { order: number }>();
  const add = (list: readonly RankedHit[], k: number, offset: number): void => {
    list.forEach((hit, index) => {
      const score = 1 / (k + index + 1);
      const known = fused.get(hit.messageId);
      if (known === undefined) fused.set(hit.messageId, { messageId: hit.messageId, turn: hit.turn, score, order: offset + index });
      else known.score += score;
    });
  };
  add(lexical, settings.lexicalK ?? 5, 0);
  add(semantic, settings.semanticK ?? 15, lexical.length);
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, Math.max(0, settings.limit))
    .map(({ messageId, turn, score }) => ({ messageId, turn, score }));
}
