/**
 * The SQLite archive search: FTS5 counts and ranks, over the tenant's index (search-index.ts). The
 * session is a column of the index, so a ranking matches only that session's messages.
 */
import type Database from 'better-sqlite3';
import { mapPacked } from '../../core/packed-map.js';
import type { ArchiveSearch, SearchHit } from '../store.js';

type RankOptions = Parameters<ArchiveSearch['rank']>[0];
import { prepareMessagePlaces } from './message-places.js';
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
  /** The best `limit` rows, best first and then by rowid. */
  rankTop: Database.Statement<[string, number], [number, number]>;
  frequency: Database.Statement<[string], number>;
}

/** A ranked message of the session: its rank (BM25, negative, lower is better) and where it sits. */
interface Hit {
  rank: number;
  id: string;
  turn: number;
  position: number;
}

/**
 * The SQLite archive search. FTS5 ranks the rows; only the rows it keeps are looked up in the messages
 * table (by rowid: the index's rowid is the message's `seq`), so a search reads the few messages it
 * returns, never the session's whole list. Within a session, rowid order is conversation order: messages
 * are only appended, each after the session's last (`MessageRepository.append`), so SQLite gives each row
 * a higher rowid than any before it, and rows of equal rank are kept and returned in conversation order.
 */
export function createArchiveSearch(db: Database.Database, tenantId: string, run: Run, index: TenantSearchIndex): ArchiveSearch {
  const statements = new Map<string, SearchStatements>();
  const prepared = (table: string): SearchStatements => {
    let found = statements.get(table);
    if (found === undefined) {
      found = {
        rankTop: db.prepare<[string, number], [number, number]>(`SELECT rowid, bm25(${table}, 1.0, 1.0, 0.0) AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY score, rowid LIMIT ?`).raw(true),
        frequency: db.prepare<[string], number>(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck(),
      };
      statements.set(table, found);
    }
    return found;
  };
  const documents = db.prepare<[string], number | null>('SELECT sum(message_count) FROM sessions WHERE tenant_id = ?').pluck();
  const sessionSize = db.prepare<[string, string], number | undefined>('SELECT message_count FROM sessions WHERE tenant_id = ? AND id = ?').pluck();
  const countAfter = db.prepare<[string, string, number], number>('SELECT count(*) FROM messages WHERE tenant_id = ? AND session_id = ? AND turn > ?').pluck();
  const placed = prepareMessagePlaces(db);

  /** The ranked rows that are messages of the session's turns up to `lastTurn`, with where each sits. */
  const hitsOf = (rows: ReadonlyArray<[number, number]>, sessionId: string, lastTurn: number): Hit[] => {
    const ranks = new Map(rows);
    const hits: Hit[] = [];
    for (const [seq, id, turn, position] of placed.all(JSON.stringify(rows.map(([rowid]) => rowid)), tenantId, sessionId)) {
      if (turn <= lastTurn) hits.push({ rank: ranks.get(seq) ?? 0, id, turn, position });
    }
    return hits;
  };

  /**
   * The session's best rows (see `ArchiveSearch.rank`), in one read transaction: the session's counts and
   * the ranking see the same rows, whatever another process appends meanwhile.
   */
  const rankInSnapshot = db.transaction(({ sessionId, terms, limit, maxTurn }: RankOptions): SearchHit[] => {
    const table = index.table();
    const expression = ftsExpression(terms);
    const size = sessionSize.get(tenantId, sessionId) ?? 0;
    if (limit <= 0 || table === null || expression === null || size === 0 || (maxTurn ?? 1) < 1) return [];
    const lastTurn = maxTurn ?? Number.MAX_SAFE_INTEGER;
    // A session holding every message of the tenant needs no session condition: it would only cost
    // an intersection with a list of every row.
    const alone = size === (documents.get(tenantId) ?? 0);
    const match = alone ? expression : `session : ${sessionToken(sessionId)} AND (${expression})`;
    // SQLite sorts and keeps the best rows only: enough for `limit` hits besides those of turns after `maxTurn`.
    const top = Math.min(limit, size) + (maxTurn === undefined ? 0 : (countAfter.get(tenantId, sessionId, lastTurn) ?? 0));
    const found = hitsOf(prepared(table).rankTop.all(match, top), sessionId, lastTurn);
    // Best first (BM25 ranks are negative), then in conversation order.
    found.sort((a, b) => a.rank - b.rank || a.position - b.position);
    if (found.length > limit) found.length = limit;
    return mapPacked(found, (hit) => ({ messageId: hit.id, turn: hit.turn, score: -hit.rank }));
  });

  return {
    documentCount: () => run(() => documents.get(tenantId) ?? 0),
    termFrequencies: ({ terms }) =>
      run(() => {
        const table = index.table();
        if (table === null) return terms.map(() => 0);
        const { frequency } = prepared(table);
        return terms.map((term) => frequency.get(quote(term)) ?? 0);
      }),
    rank: (options) => run(() => rankInSnapshot(options)),
  };
}
