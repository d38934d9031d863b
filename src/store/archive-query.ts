/**
 * How the archive is searched, the same over every store: the query's content words, and on a large
 * index only those worth scoring. BM25 gives a word found in a fifth of the tenant's messages little
 * weight, yet scoring it costs the most (a chat message as the query matches thousands of messages
 * through its commoner words), so such words are dropped while rarer ones remain; of the rest the
 * rarest are kept while the rows they match stay within a bound (the two rarest always), at most ten,
 * in the query's order. The store only counts and ranks.
 */
import { queryTerms } from '../core/query-terms.js';
import type { ArchiveSearch, SearchHit } from './store.js';

/** Terms found in more than this share of the tenant's messages are left out while rarer terms remain. */
const COMMON_TERM_SHARE = 0.2;
/** Pruning saves time only on large indexes; below this many messages every term is scored. */
const PRUNE_FROM_DOCUMENTS = 2000;
/** How many of the rarest terms are kept when every term is common, and kept whatever rows they match. */
const ALWAYS_KEPT_TERMS = 2;
/** Most terms scored on a large index, rarest first. */
const MAX_SCORED_TERMS = 10;
/** Most rows a search on a large index scores, counted as the summed frequencies of its terms. */
const MAX_SCORED_ROWS = 1000;

export interface ArchiveQuery {
  sessionId: string;
  query: string;
  limit: number;
  /** Only turns ≤ this one. */
  maxTurn?: number;
}

/** The session's messages most relevant to the query, best first (see the module comment). */
export async function searchArchive(search: ArchiveSearch, query: ArchiveQuery): Promise<SearchHit[]> {
  const terms = queryTerms(query.query);
  if (query.limit <= 0 || terms.length === 0) return [];
  const documents = await search.documentCount();
  // A term no message holds adds nothing to any score, so small indexes need no counting at all.
  const scored = documents < PRUNE_FROM_DOCUMENTS ? terms : selectTerms(terms, await search.termFrequencies({ terms }), documents);
  if (scored.length === 0) return [];
  return search.rank({ sessionId: query.sessionId, terms: scored, limit: query.limit, ...(query.maxTurn === undefined ? {} : { maxTurn: query.maxTurn }) });
}

/** The terms worth scoring on a large index, given how many of its `documents` messages hold each. */
export function selectTerms(terms: readonly string[], frequencies: readonly number[], documents: number): string[] {
  const counted = terms.map((term, index) => ({ term, frequency: frequencies[index] ?? 0 })).filter((entry) => entry.frequency > 0);
  const limit = documents * COMMON_TERM_SHARE;
  const rare = counted.filter((entry) => entry.frequency <= limit);
  const candidates = rare.length > 0 ? rare : counted;
  const maxTerms = rare.length > 0 ? MAX_SCORED_TERMS : ALWAYS_KEPT_TERMS;
  const kept = new Set<string>();
  let rows = 0;
  for (const entry of [...candidates].sort((a, b) => a.frequency - b.frequency)) {
    if (kept.size >= maxTerms) break;
    if (kept.size >= ALWAYS_KEPT_TERMS && rows + entry.frequency > MAX_SCORED_ROWS) break;
    kept.add(entry.term);
    rows += entry.frequency;
  }
  return candidates.filter((entry) => kept.has(entry.term)).map((entry) => entry.term);
}
