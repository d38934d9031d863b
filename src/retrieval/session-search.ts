/**
 * How a session's archive is searched for a query: lexically (BM25, `searchArchive`), or hybrid, the
 * lexical ranking fused with the nearest messages by the embedder's vectors. A hybrid search first
 * embeds what the session lacks; when the embedder or the vector index fails, it answers with the
 * lexical ranking alone and reports the failure, so a read never fails for want of vectors.
 */
import { searchArchive, type ArchiveQuery } from '../store/archive-query.js';
import type { ArchiveSearch, MessageVectors } from '../store/store.js';
import { fuseRankings, type FusedHit } from './rank-fusion.js';
import { embeddedText, isZeroVector, type VectorIndexer } from './vector-indexer.js';

/** What a search is for: the archive's query (session, words, most hits, last turn). */
export type SessionSearchQuery = ArchiveQuery;

/**
 * Most vector neighbours fused: past this depth a neighbour weighs less than BM25's eightieth hit, and
 * the index's search grows with the neighbours it keeps. On LoCoMo's dev split, a depth of 80 instead
 * of 160 (the recall limit at 8,000 tokens) moved no category's evidence recall by more than 0.8
 * points (all questions: +0.3 at 8,000 tokens, nothing at smaller budgets, whose limits are lower).
 */
const SEMANTIC_DEPTH = 80;

/** The session's messages that best match a query, best first (score: higher is better). */
export type SessionSearch = (query: SessionSearchQuery) => Promise<FusedHit[]>;

/** BM25 over the raw messages. */
export function lexicalSearch(search: ArchiveSearch): SessionSearch {
  return (query) => searchArchive(search, query);
}

export interface HybridSearchParts {
  search: ArchiveSearch;
  vectors: MessageVectors;
  indexer: VectorIndexer;
  /** Told when a part of the semantic half failed (the search goes on without it). */
  onFailure?: (error: unknown, sessionId: string) => void;
  /** Told when the session has more to embed than a read embeds itself (a batch): catch it up elsewhere. */
  onBacklog?: (sessionId: string) => void;
}

/**
 * BM25 fused with vector neighbours (`fuseRankings`). A read embeds at most one batch of what its session
 * lacks (the rest is handed to `onBacklog`) and searches the vectors already stored; when the embedder
 * rests after a failure or cannot embed the query, the answer is the lexical ranking alone.
 */
export function hybridSearch(parts: HybridSearchParts): SessionSearch {
  const { search, vectors, indexer } = parts;
  return async (query) => {
    const lexical = await searchArchive(search, query);
    // Asked after a store call: a store that finds out on connecting that it keeps no vectors says so by then.
    if (query.limit <= 0 || query.query.trim() === '' || !vectors.available) return lexical;
    try {
      if (indexer.resting()) return lexical;
    } catch (error) {
      // No embedder could be made (its settings are wrong): say so, answer lexically.
      parts.onFailure?.(error, query.sessionId);
      return lexical;
    }
    try {
      const caught = await indexer.catchUp(query.sessionId, { maxBatches: 1, join: false });
      if (!caught.complete) parts.onBacklog?.(query.sessionId);
    } catch (error) {
      // The embedder failed (and now rests): the query is not sent to it again; BM25 answers.
      parts.onFailure?.(error, query.sessionId);
      return lexical;
    }
    try {
      const [vector] = (await indexer.embedder.embed({ texts: [embeddedText(query.query)] })).vectors;
      if (vector === undefined || isZeroVector(vector)) return lexical;
      const semantic = await vectors.nearest({
        sessionId: query.sessionId,
        space: indexer.embedder.id,
        vector: Float32Array.from(vector),
        limit: Math.min(query.limit, SEMANTIC_DEPTH),
        ...(query.maxTurn === undefined ? {} : { maxTurn: query.maxTurn }),
      });
      // Neighbours under the embedder's noise floor share only function words with the query: a query about
      // nothing in the session would otherwise fill the recall room with them, ahead of the facts.
      const floor = indexer.embedder.unrelatedBelow ?? Number.NEGATIVE_INFINITY;
      return fuseRankings(lexical, semantic.filter((hit) => hit.similarity >= floor), { limit: query.limit });
    } catch (error) {
      parts.onFailure?.(error, query.sessionId);
      return lexical;
    }
  };
}
