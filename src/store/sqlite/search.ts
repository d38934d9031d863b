/**
 * The SQLite archive search: FTS5 counts and ranks, over the tenant's index (search-index.ts). The
 * session is a column of the index, so a ranking matches only that session's messages.
 */
import type Database from 'better-sqlite3';
import { mapPacked } from '../../core/packed-map.js';
import type { ArchiveSearch } from '../store.js';
import type { MessageIdCache } from './message-id-cache.js';
import type { Run } from './run.js';
import { sessionToken, type TenantSearchIndex } from './search-index.js';

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/**
 * An FTS5 expression matching any of the terms (each quoted, so no query syntax leaks in). No column
 * filter: the session column holds only tokens of "x" and digits, which no query word equals in
 * practice, and a filter costs time on every search.
 */
function ftsExpression(terms: readonly string[]): string | null {
  return terms.length === 0 ? null : terms.map(quote).join(' OR ');
}

interface SearchStatements {
  rank: Database.Statement<[string], [number, number]>;
  frequency: Database.Statement<[string], number>;
}

export function createArchiveSearch(db: Database.Database, tenantId: string, run: Run, index: TenantSearchIndex, sessions: MessageIdCache): ArchiveSearch {
  const statements = new Map<string, SearchStatements>();
  // FTS5 ranks the hits (the speaker and the content weigh the same, the session column nothing); which
  // turn and position each belongs to comes from the message cache: joining the messages table in SQL
  // cost more than the ranking itself (a lookup and a sort per hit).
  const prepared = (table: string): SearchStatements => {
    let found = statements.get(table);
    if (found === undefined) {
      found = {
        rank: db.prepare<[string], [number, number]>(`SELECT rowid, bm25(${table}, 1.0, 1.0, 0.0) FROM ${table} WHERE ${table} MATCH ?`).raw(true),
        frequency: db.prepare<[string], number>(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck(),
      };
      statements.set(table, found);
    }
    return found;
  };
  const documents = db.prepare<[string], number | null>('SELECT sum(message_count) FROM sessions WHERE tenant_id = ?').pluck();

  return {
    documentCount: () => run(() => documents.get(tenantId) ?? 0),
    termFrequencies: ({ terms }) =>
      run(() => {
        const table = index.table();
        if (table === null) return terms.map(() => 0);
        const { frequency } = prepared(table);
        return terms.map((term) => frequency.get(quote(term)) ?? 0);
      }),
    rank: ({ sessionId, terms, limit, maxTurn }) =>
      run(() => {
        const table = index.table();
        const expression = ftsExpression(terms);
        if (limit <= 0 || table === null || expression === null) return [];
        // A session holding every message of the tenant needs no session condition: it would only cost
        // an intersection with a list of every row.
        const alone = (sessions.current(sessionId)?.size ?? -1) === (documents.get(tenantId) ?? 0);
        const ranked = prepared(table).rank.all(alone ? expression : `session : ${sessionToken(sessionId)} AND (${expression})`);
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
