/** The tags and edges of the SQLite long-term memory repository. */
import type Database from 'better-sqlite3';
import type { MemoryEdge } from '../../core/long-term-memory.js';
import { toLongTermMemory, toMemoryEdge, toMemoryTag, type EdgeRow, type LongTermRow, type TagRow } from '../long-term-rows.js';
import type { LongTermRepository } from '../long-term-store.js';
import { immediately, type Run } from './run.js';

type Links = Pick<LongTermRepository, 'tag' | 'untag' | 'tags' | 'tagged' | 'tagCounts' | 'link' | 'unlink' | 'edges'>;

const MEMORY_COLUMNS = 'm.id, m.key, m.name, m.subject, m.value, m.version, m.deprecated, m.sources, m.created_at, m.modified_at, m.reviewed_at, m.tended_at, m.accessed_at';

export function createLongTermLinks(db: Database.Database, tenantId: string, run: Run): Links {
  const statements = {
    exists: db.prepare<[string, string], number>('SELECT 1 FROM long_term_memories WHERE tenant_id = ? AND id = ?').pluck(),
    tag: db.prepare('INSERT INTO long_term_tags (tenant_id, memory_id, tag, author, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING'),
    untag: db.prepare('DELETE FROM long_term_tags WHERE tenant_id = ? AND memory_id = ? AND tag IN (SELECT value FROM json_each(?))'),
    tags: db.prepare<[string, string], TagRow>('SELECT memory_id, tag, author, at FROM long_term_tags WHERE tenant_id = ? AND memory_id = ? ORDER BY tag'),
    // From the tag index: the memories holding every wanted tag, then their rows.
    tagged: db.prepare<[string, string, number, string, number], LongTermRow>(
      `SELECT ${MEMORY_COLUMNS} FROM (
          SELECT memory_id FROM long_term_tags WHERE tenant_id = ? AND tag IN (SELECT value FROM json_each(?)) GROUP BY memory_id HAVING count(*) = ?
        ) AS holding JOIN long_term_memories m ON m.tenant_id = ? AND m.id = holding.memory_id
        WHERE m.deprecated = 0 ORDER BY m.modified_at DESC, m.id LIMIT ?`,
    ),
    tagCounts: db.prepare<[string], { tag: string; memories: number }>(
      `SELECT t.tag, count(*) AS memories FROM long_term_tags t JOIN long_term_memories m ON m.tenant_id = t.tenant_id AND m.id = t.memory_id
        WHERE t.tenant_id = ? AND m.deprecated = 0 GROUP BY t.tag ORDER BY t.tag`,
    ),
    link: db.prepare(`INSERT INTO long_term_edges (tenant_id, from_id, to_id, type, author, at, reason) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (tenant_id, from_id, to_id, type) DO UPDATE SET author = excluded.author, at = excluded.at, reason = excluded.reason`),
    unlink: db.prepare('DELETE FROM long_term_edges WHERE tenant_id = ? AND from_id = ? AND to_id = ? AND type = ?'),
    // Two index reads, from the memory and to it (an OR of the two would scan the tenant's edges; without
    // INDEXED BY, SQLite reads the second by the primary key's tenant prefix, every edge of the tenant).
    edges: db.prepare<[string, string, string, string], EdgeRow>(
      `SELECT from_id, to_id, type, author, at, reason FROM long_term_edges WHERE tenant_id = ? AND from_id = ?
       UNION
       SELECT from_id, to_id, type, author, at, reason FROM long_term_edges INDEXED BY long_term_edges_to WHERE tenant_id = ? AND to_id = ?
       ORDER BY at, from_id, to_id, type`,
    ),
  };
  const exists = (id: string): boolean => statements.exists.get(tenantId, id) !== undefined;

  const tag = immediately(db, (id: string, tags: readonly string[], by: string, at: string): boolean => {
    if (!exists(id)) return false;
    for (const name of new Set(tags)) statements.tag.run(tenantId, id, name, by, at);
    return true;
  });
  const link = immediately(db, (edge: MemoryEdge): boolean => {
    if (edge.fromId === edge.toId || !exists(edge.fromId) || !exists(edge.toId)) return false;
    statements.link.run(tenantId, edge.fromId, edge.toId, edge.type, edge.by, edge.at, edge.reason);
    return true;
  });

  return {
    tag: ({ id, tags, by, at }) => run(() => tag(id, tags, by, at)),
    untag: ({ id, tags }) =>
      run(() => {
        statements.untag.run(tenantId, id, JSON.stringify(tags));
      }),
    tags: ({ id }) => run(() => statements.tags.all(tenantId, id).map(toMemoryTag)),
    tagged: ({ tags, limit }) =>
      run(() => {
        const wanted = [...new Set(tags)];
        if (wanted.length === 0) return [];
        return statements.tagged.all(tenantId, JSON.stringify(wanted), wanted.length, tenantId, Math.max(0, limit)).map(toLongTermMemory);
      }),
    tagCounts: () => run(() => statements.tagCounts.all(tenantId)),
    link: ({ edge }) => run(() => link(edge)),
    unlink: ({ fromId, toId, type }) => run(() => statements.unlink.run(tenantId, fromId, toId, type).changes > 0),
    edges: ({ id }) => run(() => statements.edges.all(tenantId, id, tenantId, id).map(toMemoryEdge)),
  };
}
