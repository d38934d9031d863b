/**
 * Word search over a tenant's current long-term memories in SQLite (FTS5, migration 21). Ranking every
 * match by BM25 costs time in proportion to the matches, and a common word ("birthday") can match tens of
 * thousands of memories; so the search counts each word's matches first (one index read each) and ranks
 * by BM25 only where the matches are few: the memories holding every word found, then those holding the
 * rarest words. Where even those are many, the newest of them are taken as they come, and each word too
 * common to rank brings its newest matches. Counts span the index (every tenant): they decide how a word
 * is read, never whether the tenant's memories holding it can be found.
 */
import type Database from 'better-sqlite3';
import type { LongTermMemory } from '../../core/long-term-memory.js';
import { KeptCounts } from '../kept-counts.js';
import { searchWords, toLongTermMemory, type LongTermRow } from '../long-term-rows.js';

/** Matches a query may rank by BM25; beyond it, the newest matches are taken unranked. */
const RANKED_MATCHES = 2_000;

/** Matches of the words whose memories holding them together are ranked first (the two rarest words in any case). */
const TOGETHER_MATCHES = 10_000;

const quote = (word: string): string => `"${word}"`;

export function createLongTermSearch(db: Database.Database, tenantId: string, columns: string): (terms: readonly string[], limit: number) => LongTermMemory[] {
  const statements = {
    tenantRow: db.prepare<[string], number | bigint>('SELECT rowid FROM tenants WHERE id = ?').pluck(),
    anyCurrent: db.prepare<[string], number>('SELECT 1 FROM long_term_memories WHERE tenant_id = ? AND deprecated = 0 LIMIT 1').pluck(),
    // (Counted across tenants: an estimate of the work, read from the word's index entries alone.)
    count: db.prepare<[string], number>('SELECT count(*) FROM long_term_search WHERE long_term_search MATCH ?').pluck(),
    // Ranked without the tenant's token in the query: BM25 reads every row holding each phrase of the query to
    // weigh it, and the tenant's token is in every row of the tenant. The matches are few (that is when a
    // query is ranked), so the tenant is kept by the join.
    ranked: db.prepare<[string, string, number], number>(
      `SELECT s.rowid FROM long_term_search s CROSS JOIN long_term_rows r ON r.rowid = s.rowid
        WHERE long_term_search MATCH ? AND r.tenant_id = ? ORDER BY bm25(long_term_search) LIMIT ?`,
    ).pluck(),
    newest: db.prepare<[string, number], number>('SELECT rowid FROM long_term_search WHERE long_term_search MATCH ? ORDER BY rowid DESC LIMIT ?').pluck(),
    // (The wanted rowids drive the join: CROSS JOIN keeps SQLite from scanning the tenant's rows instead.)
    rows: db.prepare<[string, string], LongTermRow & { row: number }>(
      `SELECT r.rowid AS row, ${columns.split(', ').map((column) => `m.${column}`).join(', ')}
         FROM json_each(?) AS wanted
        CROSS JOIN long_term_rows r ON r.rowid = wanted.value
         JOIN long_term_memories m ON m.tenant_id = r.tenant_id AND m.id = r.memory_id
        WHERE r.tenant_id = ? AND m.deprecated = 0`,
    ),
  };
  // The tenant's rowid names it in the index; it never changes once the tenant has a row.
  let tenantRow: number | bigint | undefined;
  const kept = new KeptCounts();
  const countOf = (word: string): number => {
    let count = kept.get(word);
    if (count === undefined) {
      count = statements.count.get(`text : ${quote(word)}`) ?? 0;
      kept.note(word, count);
    }
    return count;
  };
  return (terms, limit) => {
    const words = searchWords(terms);
    tenantRow ??= statements.tenantRow.get(tenantId);
    if (words.length === 0 || tenantRow === undefined || limit < 1 || statements.anyCurrent.get(tenantId) === undefined) return [];
    kept.startSearch();
    const present = words
      .map((word) => ({ word, matches: countOf(word) }))
      .filter((entry) => entry.matches > 0)
      .sort((left, right) => left.matches - right.matches);
    if (present.length === 0) return [];
    const scoped = (expression: string): string => `tenant : t${String(tenantRow)} AND text : (${expression})`;
    const take = (expression: string, matches: number): number[] =>
      matches <= RANKED_MATCHES ? statements.ranked.all(`text : (${expression})`, tenantId, limit) : statements.newest.all(scoped(expression), limit);
    const found: number[] = [];
    // The memories holding every word come first. Where even the rarest word is common, the newest of them;
    // else those holding the rarest words together, ranked (the two rarest, and more while their matches
    // stay few: BM25 weighs each word by reading its every match, so the common ones are left out here).
    if (present.length > 1 && (present[0]?.matches ?? 0) > RANKED_MATCHES) found.push(...statements.newest.all(scoped(present.map((entry) => quote(entry.word)).join(' AND ')), limit));
    else if (present.length > 1) {
      let held = 0;
      const together = present.filter((entry, index) => {
        held += entry.matches;
        return index < 2 || held <= TOGETHER_MATCHES;
      });
      found.push(...statements.ranked.all(`text : (${together.map((entry) => quote(entry.word)).join(' AND ')})`, tenantId, limit));
    }
    // The rarest words, while their matches stay few (always the rarest one).
    let matches = 0;
    const rare = present.filter((entry, index) => {
      matches += entry.matches;
      return index === 0 || matches <= RANKED_MATCHES;
    });
    found.push(...take(rare.map((entry) => quote(entry.word)).join(' OR '), rare.reduce((sum, entry) => sum + entry.matches, 0)));
    // A word too common to rank still brings its newest matches of this tenant (its count spans every tenant).
    for (const entry of present.slice(rare.length)) found.push(...statements.newest.all(scoped(quote(entry.word)), limit));
    const order = [...new Set(found)].slice(0, limit);
    const byRow = new Map(statements.rows.all(JSON.stringify(order), tenantId).map((row) => [row.row, row]));
    return order.flatMap((row) => {
      const memory = byRow.get(row);
      return memory === undefined ? [] : [toLongTermMemory(memory)];
    });
  };
}
