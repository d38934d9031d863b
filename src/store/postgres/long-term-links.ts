/**
 * The tags and edges of the PostgreSQL long-term memory repository (`long-term.ts` has the memories).
 * The author of a tag or an edge is kept in column `author` ("by" is a reserved word in SQL).
 */
import { toMemoryEdge, toMemoryTag, type EdgeRow, type TagRow } from '../long-term-rows.js';
import type { LongTermRepository } from '../long-term-store.js';
import type { Sql } from './sql.js';

export type LongTermLinks = Pick<LongTermRepository, 'tag' | 'untag' | 'tags' | 'tagCounts' | 'link' | 'unlink' | 'edges'>;

/** Sets a memory's tag words (searched with its value) from the tags it holds now. */
const REWORD_TAGS = `UPDATE long_term_memories SET tag_words = coalesce((
    SELECT string_agg(translate(tag, '/-', '  '), ' ' ORDER BY tag) FROM long_term_tags WHERE tenant_id = $1 AND memory_id = $2), '')
  WHERE tenant_id = $1 AND id = $2`;

/** The tags and edges of one tenant's long-term memories. */
export function createLongTermLinks(sql: Sql, tenantId: string): LongTermLinks {
  return {
    // A tag the memory has already keeps its first author and time.
    tag: ({ id, tags, by, at }) =>
      sql.write(async (write) => {
        const found = await write.query(
          `WITH memory AS (SELECT id FROM long_term_memories WHERE tenant_id = $1 AND id = $2),
             added AS (
               INSERT INTO long_term_tags (tenant_id, memory_id, tag, author, at)
               SELECT DISTINCT $1::text, memory.id, given.tag, $4::text, $5::text FROM memory, unnest($3::text[]) AS given (tag)
               ON CONFLICT (tenant_id, memory_id, tag) DO NOTHING
             )
           SELECT 1 FROM memory`,
          [tenantId, id, [...tags], by, at],
        );
        if (found.rowCount !== 0) await write.query(REWORD_TAGS, [tenantId, id]);
        return found.rowCount !== 0;
      }),
    untag: ({ id, tags }) =>
      sql.write(async (write) => {
        await write.query('DELETE FROM long_term_tags WHERE tenant_id = $1 AND memory_id = $2 AND tag = ANY ($3::text[])', [tenantId, id, [...tags]]);
        await write.query(REWORD_TAGS, [tenantId, id]);
      }),
    tags: async ({ id }) =>
      (await sql.query<TagRow>('SELECT memory_id, tag, author, at FROM long_term_tags WHERE tenant_id = $1 AND memory_id = $2 ORDER BY tag', [tenantId, id])).rows.map(toMemoryTag),
    tagCounts: async () =>
      (
        await sql.query<{ tag: string; memories: number }>(
          `SELECT tags.tag, count(*)::int AS memories
             FROM long_term_tags AS tags JOIN long_term_memories AS memories ON memories.tenant_id = tags.tenant_id AND memories.id = tags.memory_id
            WHERE tags.tenant_id = $1 AND NOT memories.deprecated
            GROUP BY tags.tag ORDER BY tags.tag`,
          [tenantId],
        )
      ).rows.map((row) => ({ tag: row.tag, memories: Number(row.memories) })),
    // Written only when both memories are the tenant's and differ; an edge of the same memories and type is replaced.
    link: ({ edge }) =>
      sql.write(async (write) => {
        const linked = await write.query(
          `INSERT INTO long_term_edges (tenant_id, from_id, to_id, type, author, at, reason)
           SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text
            WHERE $2::text <> $3::text
              AND (SELECT count(*) FROM long_term_memories WHERE tenant_id = $1 AND id IN ($2::text, $3::text)) = 2
           ON CONFLICT (tenant_id, from_id, to_id, type) DO UPDATE SET author = excluded.author, at = excluded.at, reason = excluded.reason`,
          [tenantId, edge.fromId, edge.toId, edge.type, edge.by, edge.at, edge.reason],
        );
        return linked.rowCount !== 0;
      }),
    unlink: ({ fromId, toId, type }) =>
      sql.write(async (write) => {
        const removed = await write.query('DELETE FROM long_term_edges WHERE tenant_id = $1 AND from_id = $2 AND to_id = $3 AND type = $4', [tenantId, fromId, toId, type]);
        return removed.rowCount !== 0;
      }),
    edges: async ({ id }) =>
      (
        await sql.query<EdgeRow>(
          `SELECT from_id, to_id, type, author, at, reason FROM long_term_edges
            WHERE tenant_id = $1 AND (from_id = $2 OR to_id = $2)
            ORDER BY at, from_id, to_id, type`,
          [tenantId, id],
        )
      ).rows.map(toMemoryEdge),
  };
}
