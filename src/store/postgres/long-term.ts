/**
 * The PostgreSQL long-term memory repository: a tenant's memories and their versions here, their tags
 * and edges in `long-term-links.ts`. Each write is one transaction under the tenant's lock, so a check
 * made in it (is this id or name free?) still holds when it writes, and a failure changes nothing.
 */
import { StrataError } from '../../core/errors.js';
import { memoryKey, mergeSources, type LongTermMemory, type MemoryAuthor } from '../../core/long-term-memory.js';
import { MARKED_COLUMN, toLongTermMemory, toMemoryVersion, type LongTermRow, type VersionRow } from '../long-term-rows.js';
import type { LongTermRepository, NewMemory } from '../long-term-store.js';
import { createLongTermLinks } from './long-term-links.js';
import { createLongTermRuns } from './long-term-runs.js';
import { createLongTermSearch } from './long-term-search.js';
import { sqlLimit, type Sql } from './sql.js';

const COLUMNS = 'id, key, name, subject, value, version, deprecated, sources, created_at, modified_at, reviewed_at, tended_at, accessed_at';

/** MEMORY_EXISTS when another memory of the tenant than `exceptId` has this id, this name or this subject. */
async function ensureFree(write: Sql, tenantId: string, wanted: { id: string; name: string | null; subject?: string | null; exceptId?: string }): Promise<void> {
  const taken = await write.query<{ id: string; name: string | null }>(
    `SELECT id, name FROM long_term_memories WHERE tenant_id = $1 AND (id = $2 OR name = $3 OR subject = $5) AND id IS DISTINCT FROM $4
      ORDER BY id = $2 DESC, name = $3 DESC NULLS LAST LIMIT 1`,
    [tenantId, wanted.id, wanted.name, wanted.exceptId ?? null, wanted.subject ?? null],
  );
  const holder = taken.rows[0];
  if (holder === undefined) return;
  if (holder.id !== wanted.id && (wanted.name === null || holder.name !== wanted.name)) {
    throw new StrataError('MEMORY_EXISTS', `The subject "${String(wanted.subject)}" is taken by long-term memory "${holder.id}" in this tenant; revise that memory instead.`, {
      details: { subject: wanted.subject, memoryId: holder.id },
    });
  }
  if (holder.id === wanted.id) {
    throw new StrataError('MEMORY_EXISTS', `A long-term memory "${wanted.id}" exists already in this tenant; pick another id, or revise that memory instead.`, { details: { memoryId: wanted.id } });
  }
  throw new StrataError('MEMORY_EXISTS', `The name "${String(wanted.name)}" is taken by long-term memory "${holder.id}" in this tenant; pick another name, or rename that memory first.`, {
    details: { name: wanted.name, memoryId: holder.id },
  });
}

/** Make the memory at version 1, with the tenant's next key (the tenant is made when it has no row yet). */
async function insertMemory(write: Sql, tenantId: string, memory: NewMemory, change: { by: MemoryAuthor; reason: string }): Promise<LongTermMemory> {
  await ensureFree(write, tenantId, { id: memory.id, name: memory.name, subject: memory.subject ?? null });
  const counted = await write.query<{ count: number }>(
    `INSERT INTO tenants (id, created_at, memory_count) VALUES ($1, $2, 1)
     ON CONFLICT (id) DO UPDATE SET memory_count = tenants.memory_count + 1
     RETURNING memory_count::float8 AS count`,
    [tenantId, memory.at],
  );
  const key = memoryKey(Number(counted.rows[0]?.count));
  const sources = JSON.stringify(mergeSources([], memory.sources));
  const made = await write.query<LongTermRow>(
    `INSERT INTO long_term_memories (tenant_id, id, key, name, subject, value, version, deprecated, sources, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $8, $5, 1, false, $6::jsonb, $7, $7)
     RETURNING ${COLUMNS}`,
    [tenantId, memory.id, key, memory.name, memory.value, sources, memory.at, memory.subject ?? null],
  );
  await write.query('INSERT INTO long_term_versions (tenant_id, memory_id, version, value, deprecated, at, author, reason) VALUES ($1, $2, 1, $3, false, $4, $5, $6)', [
    tenantId,
    memory.id,
    memory.value,
    memory.at,
    change.by,
    change.reason,
  ]);
  return toLongTermMemory(made.rows[0] as LongTermRow);
}

type Revision = Parameters<LongTermRepository['revise']>[0];

/** The memory's next version: its row changed as `revision` says, and the version kept. */
async function reviseMemory(write: Sql, tenantId: string, revision: Revision): Promise<LongTermMemory | null> {
  const found = await write.query<LongTermRow>(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, revision.id]);
  const row = found.rows[0];
  if (row === undefined) return null;
  const current = toLongTermMemory(row);
  const value = revision.value ?? current.value;
  const deprecated = revision.deprecated ?? current.deprecated;
  const version = current.version + 1;
  const sources = JSON.stringify(mergeSources(current.sources, revision.sources ?? []));
  const changed = await write.query<LongTermRow>(
    `UPDATE long_term_memories SET value = $3, deprecated = $4, version = $5, sources = $6::jsonb, modified_at = $7
      WHERE tenant_id = $1 AND id = $2
      RETURNING ${COLUMNS}`,
    [tenantId, revision.id, value, deprecated, version, sources, revision.at],
  );
  await write.query('INSERT INTO long_term_versions (tenant_id, memory_id, version, value, deprecated, at, author, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
    tenantId,
    revision.id,
    version,
    value,
    deprecated,
    revision.at,
    revision.by,
    revision.reason,
  ]);
  return toLongTermMemory(changed.rows[0] as LongTermRow);
}

/** Give the memory `name` (or none); MEMORY_EXISTS when another memory has it, null for an unknown id. */
async function renameMemory(write: Sql, tenantId: string, id: string, name: string | null): Promise<LongTermMemory | null> {
  const known = await write.query('SELECT 1 FROM long_term_memories WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
  if (known.rowCount === 0) return null;
  if (name !== null) await ensureFree(write, tenantId, { id, name, exceptId: id });
  const renamed = await write.query<LongTermRow>(`UPDATE long_term_memories SET name = $3 WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [tenantId, id, name]);
  const row = renamed.rows[0];
  return row === undefined ? null : toLongTermMemory(row);
}

/**
 * The PostgreSQL long-term memory repository of one tenant (`LongTermRepository` in `long-term-store.ts`
 * is the spec). Every statement binds the tenant; every write is one transaction under the tenant's
 * lock, so a failure (MEMORY_EXISTS among them) changes nothing. The tenant's `memory_count` gives each
 * new memory its key and is never decremented, so a key is never given twice.
 */
export function createLongTermRepository(sql: Sql, tenantId: string): LongTermRepository {
  const memories = async (text: string, values: readonly unknown[]): Promise<LongTermMemory[]> => (await sql.query<LongTermRow>(text, values)).rows.map(toLongTermMemory);
  const one = async (text: string, values: readonly unknown[]): Promise<LongTermMemory | null> => (await memories(text, values))[0] ?? null;
  const search = createLongTermSearch(sql, tenantId, COLUMNS);
  return {
    create: ({ memory, by, reason }) => sql.write((write) => insertMemory(write, tenantId, memory, { by, reason })),
    get: ({ id }) => one(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = $1 AND id = $2`, [tenantId, id]),
    find: (options) => {
      if ('key' in options) return one(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = $1 AND key = $2`, [tenantId, options.key]);
      if ('name' in options) return one(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = $1 AND name = $2`, [tenantId, options.name]);
      return one(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = $1 AND subject = $2`, [tenantId, options.subject]);
    },
    search: ({ terms, limit }) => search(terms, limit),
    list: ({ limit, offset, deprecated }) =>
      memories(
        `SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = $1 AND ($2 OR NOT deprecated)
          ORDER BY modified_at DESC, id LIMIT $3 OFFSET $4`,
        [tenantId, deprecated === true, sqlLimit(limit), Math.max(0, Math.floor(offset ?? 0))],
      ),
    count: async () => Number((await sql.query<{ count: number }>('SELECT count(*)::float8 AS count FROM long_term_memories WHERE tenant_id = $1', [tenantId])).rows[0]?.count ?? 0),
    revise: (revision) => sql.write((write) => reviseMemory(write, tenantId, revision)),
    versions: async ({ id }) =>
      (
        await sql.query<VersionRow>('SELECT memory_id, version, value, deprecated, at, author, reason FROM long_term_versions WHERE tenant_id = $1 AND memory_id = $2 ORDER BY version', [
          tenantId,
          id,
        ])
      ).rows.map(toMemoryVersion),
    rename: ({ id, name }) => sql.write((write) => renameMemory(write, tenantId, id, name)),
    mark: async ({ ids, what, at }) => {
      if (!Object.hasOwn(MARKED_COLUMN, what)) throw new StrataError('INVALID_INPUT', `A memory is marked as reviewed, tended or accessed; got ${JSON.stringify(what)}.`);
      if (ids.length === 0) return;
      const column = MARKED_COLUMN[what];
      await sql.write((write) => write.query(`UPDATE long_term_memories SET ${column} = $3 WHERE tenant_id = $1 AND id = ANY ($2::text[])`, [tenantId, [...ids], at]));
    },
    tagged: ({ tags, limit }) => {
      const wanted = [...new Set(tags)];
      if (wanted.length === 0) return Promise.resolve([]);
      return memories(
        `SELECT ${COLUMNS} FROM long_term_memories
          WHERE tenant_id = $1 AND NOT deprecated
            AND id IN (SELECT memory_id FROM long_term_tags WHERE tenant_id = $1 AND tag = ANY ($2::text[]) GROUP BY memory_id HAVING count(DISTINCT tag) = $3)
          ORDER BY modified_at DESC, id LIMIT $4`,
        [tenantId, wanted, wanted.length, sqlLimit(limit)],
      );
    },
    ...createLongTermLinks(sql, tenantId),
    ...createLongTermRuns(sql, tenantId, COLUMNS),
  };
}
