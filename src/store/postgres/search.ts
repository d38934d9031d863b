/**
 * The PostgreSQL archive search: each message row keeps its search terms as a tsvector (search-terms.ts,
 * made as SQLite's FTS5 makes them) and its length in tokens, each session the sum of its messages'
 * lengths, and search_terms each term's document frequency. A ranking scores the session's matching
 * rows in SQL by BM25 exactly as FTS5's `bm25()` does (same constants, same IDF floor, same order of
 * operations, so equal data gives equal scores in both stores).
 */
import type { ArchiveSearch, SearchHit } from '../store.js';
import { queryLexemes, quoteLexeme } from './search-terms.js';
import type { Sql } from './sql.js';

/** A query term as the index holds it: its lexemes (several: a phrase) and the tsquery matching it. */
interface Term {
  lexemes: string[];
  query: string;
}

/** The terms as tsqueries: null for a term with no lexeme, which matches nothing (as FTS5's empty phrase). */
function termsOf(terms: readonly string[]): Array<Term | null> {
  return terms.map((term) => {
    const lexemes = queryLexemes(term);
    return lexemes.length === 0 ? null : { lexemes, query: lexemes.map(quoteLexeme).join(' <-> ') };
  });
}

/** For each term's tsquery (null: none), how many of the tenant's messages match it, through the GIN index, in the order given. */
/**
 * How many of the tenant's messages hold a term: read from search_terms for one lexeme (search-statistics.ts),
 * counted through the GIN index for a phrase (a word the index splits into several tokens, which is rare).
 */
const HITS = `CASE WHEN t.single THEN coalesce((SELECT s.documents FROM search_terms AS s WHERE s.tenant_id = $1 AND s.lexeme = t.lexeme), 0)
  ELSE (SELECT count(*) FROM messages WHERE tenant_id = $1 AND search_vector @@ t.query) END::float8`;

const FREQUENCIES = `SELECT coalesce(${HITS}, 0) AS hits
  FROM unnest($2::text[], $3::tsquery[], $4::boolean[]) WITH ORDINALITY AS t (lexeme, query, single, term) ORDER BY t.term`;

/**
 * The ranking, one statement (so one snapshot): the tenant's totals, each term's IDF over the tenant
 * (ln((N − n + 0.5) / (n + 0.5)), 1e-6 when not positive), then the session's rows matching any term,
 * each scored Σ idf · f·(k1 + 1) / (f + k1·(1 − b + b·D / avgdl)) in the order of the terms, k1 = 1.2,
 * b = 0.75, f the term's places in the row (for a phrase, its first lexeme's, in rows holding the phrase),
 * D the row's length. Parameters: tenant, session, first lexemes, term tsqueries, any-term tsquery,
 * whether each term is one lexeme, last turn (null: all), limit (null: all).
 */
const RANK = /* sql */ `
WITH totals AS MATERIALIZED (
  SELECT coalesce(sum(message_count), 0)::float8 AS documents, coalesce(sum(search_length), 0)::float8 AS tokens
    FROM sessions WHERE tenant_id = $1
), weights AS MATERIALIZED (
  SELECT t.term, t.lexeme, t.query, t.single,
         CASE WHEN totals.documents - h.hits + 0.5::float8 <= h.hits + 0.5::float8 THEN 1e-6::float8
              ELSE ln((totals.documents - h.hits + 0.5::float8) / (h.hits + 0.5::float8)) END AS idf
    FROM unnest($3::text[], $4::tsquery[], $6::boolean[]) WITH ORDINALITY AS t (lexeme, query, single, term)
    CROSS JOIN totals
    CROSS JOIN LATERAL (SELECT ${HITS} AS hits) AS h
)
SELECT c.id, c.turn,
       sum(w.idf * ((f.frequency * (1.2::float8 + 1.0::float8))
           / (f.frequency + 1.2::float8 * (1.0::float8 - 0.75::float8 + 0.75::float8 * c.search_length / (totals.tokens / totals.documents))))
           ORDER BY w.term) AS score
  FROM messages AS c
  CROSS JOIN LATERAL (
    SELECT entry.lexeme, cardinality(entry.positions)::float8 AS frequency
      FROM unnest(ts_filter(setweight(c.search_vector, 'A', $3::text[]), '{a}')) AS entry
  ) AS f
  JOIN weights AS w ON w.lexeme = f.lexeme AND (w.single OR c.search_vector @@ w.query)
  CROSS JOIN totals
 WHERE c.tenant_id = $1 AND c.session_id = $2 AND c.search_vector @@ $5::tsquery AND ($7::float8 IS NULL OR c.turn <= $7::float8)
 GROUP BY c.id, c.turn, c.position
 ORDER BY score DESC, c.position
 LIMIT $8`;

type RankOptions = Parameters<ArchiveSearch['rank']>[0];

/** The session's best messages (see `ArchiveSearch.rank`). */
async function rank(sql: Sql, tenantId: string, { sessionId, terms, limit, maxTurn }: RankOptions): Promise<SearchHit[]> {
  const found = termsOf(terms).filter((term) => term !== null);
  if (!(limit > 0) || found.length === 0 || (maxTurn !== undefined && !(maxTurn >= 1))) return [];
  const anyTerm = found.map((term) => `(${term.query})`).join(' | ');
  const { rows } = await sql.query<{ id: string; turn: number; score: number }>(RANK, [
    tenantId,
    sessionId,
    found.map((term) => term.lexemes[0]),
    found.map((term) => term.query),
    anyTerm,
    found.map((term) => term.lexemes.length === 1),
    maxTurn ?? null,
    Number.isFinite(limit) ? Math.min(Math.floor(limit), Number.MAX_SAFE_INTEGER) : null,
  ]);
  return rows.map((row) => ({ messageId: row.id, turn: row.turn, score: row.score }));
}

/**
 * The archive search of one tenant. Every statement names the tenant, and a ranking the session: no
 * other tenant's message is counted, no other session's ranked. Each call is one statement, so the
 * counts and the ranking it uses always see one snapshot of the database.
 */
export function createArchiveSearch(sql: Sql, tenantId: string): ArchiveSearch {
  return {
    documentCount: async () => {
      const { rows } = await sql.query<{ documents: string }>('SELECT coalesce(sum(message_count), 0) AS documents FROM sessions WHERE tenant_id = $1', [tenantId]);
      return Number(rows[0]?.documents ?? 0);
    },
    termFrequencies: async ({ terms }) => {
      if (terms.length === 0) return [];
      const found = termsOf(terms);
      const { rows } = await sql.query<{ hits: number | null }>(FREQUENCIES, [
        tenantId,
        found.map((term) => term?.lexemes[0] ?? null),
        found.map((term) => term?.query ?? null),
        found.map((term) => term?.lexemes.length === 1),
      ]);
      return rows.map((row) => row.hits ?? 0);
    },
    rank: (options) => rank(sql, tenantId, options),
  };
}
