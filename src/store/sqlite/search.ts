import type Database from 'better-sqlite3';
import { mapPacked } from '../../core/packed-map.js';
import { queryTerms } from '../../core/query-terms.js';
import type { ArchiveSearch } from '../store.js';
import type { MessageIdCache } from './message-id-cache.js';
import type { Run } from './run.js';
import type { TenantSearchIndex } from './search-index.js';

/** Terms found in more than this share of the tenant's messages are left out while rarer terms remain. */
const COMMON_TERM_SHARE = 0.2;
/** Pruning saves time only on large indexes; below this many messages every term is scored. */
const PRUNE_FROM_DOCUMENTS = 2000;
/** How many of the rarest terms are kept when every term is common, and kept whatever rows they match. */
const ALWAYS_KEPT_TERMS = 2;
/** Most terms scored on a large index, rarest first. */
const MAX_SCORED_TERMS = 10;
/**
 * Most rows a search on a large index scores, counted as the summed frequencies of its terms. BM25 costs
 * per matching row, and a chat message as the query matches thousands of messages through its commoner
 * words, which BM25 weighs least: rarer terms go first, and a commoner one joins only while the rows
 * stay within this bound.
 */
const MAX_SCORED_ROWS = 1000;

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** An FTS5 expression matching any of the given terms (each quoted, so no query syntax leaks in). */
export function ftsExpression(terms: readonly string[]): string | null {
  return terms.length === 0 ? null : terms.map(quote).join(' OR ');
}

export function createArchiveSearch(db: Database.Database, tenantId: string, run: Run, index: TenantSearchIndex, sessions: MessageIdCache): ArchiveSearch {
  const statements = new Map<string, { search: Database.Statement<[string], [number, number]>; frequency: Database.Statement<[string], number> }>();
  // FTS5 ranks the hits; which session, turn and position each belongs to comes from the message cache.
  // Joining the messages table in SQL cost more than the ranking itself (a lookup and a sort per hit).
  const prepared = (table: string) => {
    let found = statements.get(table);
    if (found === undefined) {
      found = {
        search: db.prepare<[string], [number, number]>(`SELECT rowid, bm25(${table}) FROM ${table} WHERE ${table} MATCH ?`).raw(true),
        frequency: db.prepare<[string], number>(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck(),
      };
      statements.set(table, found);
    }
    return found;
  };
  const documents = db.prepare<[string], number | null>('SELECT sum(message_count) FROM sessions WHERE tenant_id = ?').pluck();

  /**
   * The query's content words worth scoring. BM25 gives a word in a fifth of the tenant's messages little
   * weight, yet scoring it costs the most, so such words are dropped while rarer ones remain; of the rest,
   * the rarest are kept while the rows they match stay within `MAX_SCORED_ROWS` (the two rarest always),
   * at most ten, in the query's order.
   */
  const selectTerms = (query: string, frequency: Database.Statement<[string], number>): string[] => {
    const total = documents.get(tenantId) ?? 0;
    // A term no message holds adds nothing to any score, so small indexes need no counting at all.
    if (total < PRUNE_FROM_DOCUMENTS) return queryTerms(query);
    const counted = queryTerms(query)
      .map((term) => ({ term, frequency: frequency.get(quote(term)) ?? 0 }))
      .filter((entry) => entry.frequency > 0);
    const limit = total * COMMON_TERM_SHARE;
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
  };

  return {
    messages: ({ sessionId, query, limit, maxTurn }) =>
      run(() => {
        const table = index.table();
        if (limit <= 0 || table === null) return [];
        const statements = prepared(table);
        const expression = ftsExpression(selectTerms(query, statements.frequency));
        if (expression === null) return [];
        const ranked = statements.search.all(expression);
        // Read after the ranking, so the cache holds every message the ranking saw (a message another
        // process appended in between is in the cache but not ranked, as if the search ran before it).
        const messages = sessions.current(sessionId);
        if (messages === null) return [];
        const lastTurn = maxTurn ?? Number.MAX_SAFE_INTEGER;
        const hits: Array<{ index: number; rank: number }> = [];
        for (const [seq, rank] of ranked) {
          const found = messages.indexOfSeq(seq);
          if (found >= 0 && (messages.turns[found] ?? 0) <= lastTurn) hits.push({ index: found, rank });
        }
        // Best first (BM25 ranks are negative), then in conversation order.
        hits.sort((a, b) => a.rank - b.rank || (messages.positions[a.index] ?? 0) - (messages.positions[b.index] ?? 0));
        if (hits.length > limit) hits.length = limit;
        return mapPacked(hits, (hit) => ({ messageId: messages.ids[hit.index] ?? '', turn: messages.turns[hit.index] ?? 0, score: -hit.rank }));
      }),
  };
}
