/**
 * The SQLite archive search: FTS5 counts and ranks, over the tenant's index (search-index.ts). The
 * session is a column of the index, so a ranking matches only that session's messages.
 */
import type Database from 'better-sqlite3';
import { mapPacked } from '../../core/packed-map.js';
import type { ArchiveSearch } from '../store.js';
import type { MessageIdCache } from './message-id-cache.js';
import type { SessionMessages } from './session-messages.js';
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
  /** The best `limit` rows, best first and then by rowid. */
  rankTop: Database.Statement<[string, number], [number, number]>;
  frequency: Database.Statement<[string], number>;
}

/**
 * The ranked rows that are messages of the session's turns up to `lastTurn`. The messages are read after
 * the ranking, so they hold every message it saw (one another process appended in between is in them
 * but not ranked, as if the search ran before it); null for an unknown session.
 */
function hitsOfRows(rows: ReadonlyArray<[number, number]>, messages: SessionMessages | null, lastTurn: number): { found: Hit[]; ranked: number; messages: SessionMessages } | null {
  if (messages === null) return null;
  const found: Hit[] = [];
  for (const [seq, rank] of rows) {
    const index = messages.indexOfSeq(seq);
    if (index >= 0 && (messages.turns[index] ?? 0) <= lastTurn) found.push({ index, rank });
  }
  return { found, ranked: rows.length, messages };
}

interface Hit {
  index: number;
  rank: number;
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
        rankTop: db.prepare<[string, number], [number, number]>(`SELECT rowid, bm25(${table}, 1.0, 1.0, 0.0) AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY score, rowid LIMIT ?`).raw(true),
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
        const lastTurn = maxTurn ?? Number.MAX_SAFE_INTEGER;
        const before = sessions.current(sessionId);
        // A session holding every message of the tenant needs no session condition: it would only cost
        // an intersection with a list of every row.
        const alone = (before?.size ?? -1) === (documents.get(tenantId) ?? 0);
        const match = alone ? expression : `session : ${sessionToken(sessionId)} AND (${expression})`;
        const { rank, rankTop } = prepared(table);
        // Where rowid order is conversation order, SQLite sorts and keeps the best rows only: enough for
        // `limit` hits besides those of turns after `maxTurn`. Should fewer remain (another process appended
        // meanwhile), every row is ranked after all.
        const top = before?.inRowidOrder === true ? Math.min(limit, before.size) + before.countAfterTurn(lastTurn) : null;
        let hits = top === null ? null : hitsOfRows(rankTop.all(match, top), sessions.current(sessionId), lastTurn);
        if (hits === null || (hits.found.length < limit && hits.ranked === top)) hits = hitsOfRows(rank.all(match), sessions.current(sessionId), lastTurn);
        if (hits === null) return [];
        const { found, messages } = hits;
        // Best first (BM25 ranks are negative), then in conversation order.
        found.sort((a, b) => a.rank - b.rank || (messages.positions[a.index] ?? 0) - (messages.positions[b.index] ?? 0));
        if (found.length > limit) found.length = limit;
        return mapPacked(found, (hit) => ({ messageId: messages.ids[hit.index] ?? '', turn: messages.turns[hit.index] ?? 0, score: -hit.rank }));
      }),
  };
}
