/**
 * Word search over a tenant's current long-term memories in PostgreSQL (migration 4: a stored tsvector
 * per memory with a GIN index), mirroring the SQLite search: each word's matches are counted up to a cap
 * first, and memories are ranked by ts_rank only where the matches are few: those holding every word found,
 * then those holding the rarest words. Where even those are many, the most recently modified are taken, and
 * each word too common to rank brings its most recently modified matches. Common words' counts are kept for
 * a few hundred searches, as in SQLite.
 */
import type { LongTermMemory } from '../../core/long-term-memory.js';
import { KeptCounts } from '../kept-counts.js';
import { searchWords, toLongTermMemory, type LongTermRow } from '../long-term-rows.js';
import { sqlLimit, type Sql } from './sql.js';

/** Matches a query may rank by ts_rank; beyond it, the most recently modified matches are taken unranked. */
const RANKED_MATCHES = 2_000;


export function createLongTermSearch(sql: Sql, tenantId: string, columns: string): (terms: readonly string[], limit: number) => Promise<LongTermMemory[]> {
  const kept = new KeptCounts();
  /** How many current memories of the tenant hold each word, counted up to one past the cap (common words' counts kept a while). */
  const counts = (words: readonly string[]): Promise<number[]> => kept.countsOf(words, countNow);
  const countNow = async (words: readonly string[]): Promise<number[]> => {
    const counted = await sql.query<{ matches: number }>(
      `SELECT (SELECT count(*)::int FROM (
                 SELECT 1 FROM long_term_memories WHERE tenant_id = $1 AND NOT deprecated AND search @@ plainto_tsquery('english', word) LIMIT $3
               ) AS capped) AS matches
         FROM unnest($2::text[]) WITH ORDINALITY AS given (word, position) ORDER BY position`,
      [tenantId, [...words], RANKED_MATCHES + 1],
    );
    return counted.rows.map((row) => row.matches);
  };
  const take = async (words: readonly string[], joiner: '&' | '|', matches: number, limit: number): Promise<LongTermRow[]> => {
    const order = matches <= RANKED_MATCHES ? 'ts_rank(search, query) DESC, id' : 'modified_at DESC, id';
    const found = await sql.query<LongTermRow>(
      `SELECT ${columns} FROM long_term_memories, to_tsquery('english', $2) AS query
        WHERE tenant_id = $1 AND NOT deprecated AND search @@ query
        ORDER BY ${order} LIMIT $3`,
      [tenantId, words.join(` ${joiner} `), sqlLimit(limit)],
    );
    return found.rows;
  };
  return async (terms, limit) => {
    const words = searchWords(terms);
    if (words.length === 0 || limit < 1) return [];
    const matches = await counts(words);
    const present = words
      .map((word, index) => ({ word, matches: matches[index] ?? 0 }))
      .filter((entry) => entry.matches > 0)
      .sort((left, right) => left.matches - right.matches);
    if (present.length === 0) return [];
    const found: LongTermRow[] = [];
    if (present.length > 1) found.push(...(await take(present.map((entry) => entry.word), '&', present[0]?.matches ?? 0, limit)));
    let total = 0;
    const rare = present.filter((entry, index) => {
      total += entry.matches;
      return index === 0 || total <= RANKED_MATCHES;
    });
    found.push(...(await take(rare.map((entry) => entry.word), '|', rare.reduce((sum, entry) => sum + entry.matches, 0), limit)));
    for (const entry of present.slice(rare.length)) found.push(...(await take([entry.word], '|', entry.matches, limit)));
    const seen = new Set<string>();
    return found.filter((row) => !seen.has(row.id) && seen.add(row.id) !== undefined).slice(0, limit).map(toLongTermMemory);
  };
}
