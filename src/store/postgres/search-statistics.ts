/**
 * How many of a tenant's messages hold each search term (table search_terms), kept as messages come
 * and go: BM25's document frequencies read by key, as FTS5 reads them from its index, rather than
 * counted over the tenant's rows at every search. Runs inside the caller's write.
 */
import type { Sql } from './sql.js';

/** Count the terms of messages just stored (their tsvectors, as inserted). */
export async function countTerms(sql: Sql, tenantId: string, vectors: readonly string[]): Promise<void> {
  if (vectors.length === 0) return;
  await sql.query(
    `INSERT INTO search_terms (tenant_id, lexeme, documents)
     SELECT $1, lexeme, count(*)::integer FROM unnest($2::tsvector[]) AS v (vector) CROSS JOIN unnest(tsvector_to_array(v.vector)) AS lexeme GROUP BY lexeme
     ON CONFLICT (tenant_id, lexeme) DO UPDATE SET documents = search_terms.documents + excluded.documents`,
    [tenantId, vectors],
  );
}

/** Stop counting the messages of sessions about to be deleted. */
export async function uncountSessions(sql: Sql, tenantId: string, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await sql.query(
    `UPDATE search_terms AS t SET documents = t.documents - d.documents
       FROM (SELECT lexeme, count(*)::integer AS documents
               FROM messages AS m CROSS JOIN unnest(tsvector_to_array(m.search_vector)) AS lexeme
              WHERE m.tenant_id = $1 AND m.session_id = ANY ($2::text[]) GROUP BY lexeme) AS d
      WHERE t.tenant_id = $1 AND t.lexeme = d.lexeme`,
    [tenantId, sessionIds],
  );
}
