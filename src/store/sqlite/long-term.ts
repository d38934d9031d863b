/**
 * The SQLite long-term memory repository: memories and their versions here, tags and edges in
 * `long-term-links.ts`. Each write is one transaction; keys come from the tenant's memory count.
 */
import type Database from 'better-sqlite3';
import { StrataError } from '../../core/errors.js';
import { memoryKey, mergeSources, type LongTermMemory, type MemorySource } from '../../core/long-term-memory.js';
import { MARKED_COLUMN, toLongTermMemory, toMemoryVersion, type LongTermRow, type VersionRow } from '../long-term-rows.js';
import type { LongTermRepository, MemoryChange, NewMemory } from '../long-term-store.js';
import { createLongTermLinks } from './long-term-links.js';
import { createLongTermRuns } from './long-term-runs.js';
import { createLongTermSearch } from './long-term-search.js';
import { immediately, type Run } from './run.js';

const COLUMNS = 'id, key, name, subject, value, version, deprecated, sources, created_at, modified_at, reviewed_at, tended_at, accessed_at';

function taken(what: string, details: Record<string, unknown>): StrataError {
  return new StrataError('MEMORY_EXISTS', `This tenant already has a long-term memory with ${what}; choose another, or change the memory that has it.`, { details });
}

export function createLongTermRepository(db: Database.Database, tenantId: string, run: Run): LongTermRepository {
  const statements = {
    ensureTenant: db.prepare('INSERT INTO tenants (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING'),
    count: db.prepare<[string], number>('UPDATE tenants SET memory_count = memory_count + 1 WHERE id = ? RETURNING memory_count').pluck(),
    byId: db.prepare<[string, string], LongTermRow>(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = ? AND id = ?`),
    byKey: db.prepare<[string, string], LongTermRow>(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = ? AND key = ?`),
    byName: db.prepare<[string, string], LongTermRow>(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = ? AND name = ?`),
    bySubject: db.prepare<[string, string], LongTermRow>(`SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = ? AND subject = ?`),
    nameHolder: db.prepare<[string, string], string>('SELECT id FROM long_term_memories WHERE tenant_id = ? AND name = ?').pluck(),
    subjectHolder: db.prepare<[string, string], string>('SELECT id FROM long_term_memories WHERE tenant_id = ? AND subject = ?').pluck(),
    insert: db.prepare(`INSERT INTO long_term_memories (tenant_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, NULL, NULL, NULL)`),
    version: db.prepare('INSERT INTO long_term_versions (tenant_id, memory_id, version, value, deprecated, at, author, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    update: db.prepare('UPDATE long_term_memories SET value = ?, deprecated = ?, version = ?, sources = ?, modified_at = ? WHERE tenant_id = ? AND id = ?'),
    rename: db.prepare('UPDATE long_term_memories SET name = ? WHERE tenant_id = ? AND id = ?'),
    versions: db.prepare<[string, string], VersionRow>('SELECT memory_id, version, value, deprecated, at, author, reason FROM long_term_versions WHERE tenant_id = ? AND memory_id = ? ORDER BY version'),
    list: db.prepare<[string, number, number, number], LongTermRow>(
      `SELECT ${COLUMNS} FROM long_term_memories WHERE tenant_id = ? AND (deprecated = 0 OR ? = 1) ORDER BY modified_at DESC, id LIMIT ? OFFSET ?`,
    ),
    total: db.prepare<[string], number>('SELECT count(*) FROM long_term_memories WHERE tenant_id = ?').pluck(),
  };
  const marks = {
    reviewed: db.prepare(`UPDATE long_term_memories SET ${MARKED_COLUMN.reviewed} = ? WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))`),
    tended: db.prepare(`UPDATE long_term_memories SET ${MARKED_COLUMN.tended} = ? WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))`),
    accessed: db.prepare(`UPDATE long_term_memories SET ${MARKED_COLUMN.accessed} = ? WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))`),
  };
  const search = createLongTermSearch(db, tenantId, COLUMNS);
  const read = (row: LongTermRow | undefined): LongTermMemory | null => (row === undefined ? null : toLongTermMemory(row));

  const create = immediately(db, (memory: NewMemory, change: Omit<MemoryChange, 'at'>): LongTermMemory => {
    if (statements.byId.get(tenantId, memory.id) !== undefined) throw taken(`the id "${memory.id}"`, { memoryId: memory.id });
    if (memory.name !== null && statements.nameHolder.get(tenantId, memory.name) !== undefined) throw taken(`the name "${memory.name}"`, { name: memory.name });
    const subject = memory.subject ?? null;
    if (subject !== null && statements.subjectHolder.get(tenantId, subject) !== undefined) throw taken(`the subject "${subject}"`, { subject });
    statements.ensureTenant.run(tenantId, memory.at);
    const key = memoryKey(statements.count.get(tenantId) ?? 0);
    statements.insert.run(tenantId, memory.id, key, memory.name, subject, memory.value, JSON.stringify(mergeSources([], memory.sources)), memory.at, memory.at);
    statements.version.run(tenantId, memory.id, 1, memory.value, 0, memory.at, change.by, change.reason);
    return toLongTermMemory(statements.byId.get(tenantId, memory.id) as LongTermRow);
  });

  const revise = immediately(db, (id: string, value: string | undefined, deprecated: boolean | undefined, sources: readonly MemorySource[], change: MemoryChange): LongTermMemory | null => {
    const current = read(statements.byId.get(tenantId, id));
    if (current === null) return null;
    const next = { value: value ?? current.value, deprecated: deprecated ?? current.deprecated, version: current.version + 1 };
    statements.update.run(next.value, next.deprecated ? 1 : 0, next.version, JSON.stringify(mergeSources(current.sources, sources)), change.at, tenantId, id);
    statements.version.run(tenantId, id, next.version, next.value, next.deprecated ? 1 : 0, change.at, change.by, change.reason);
    return read(statements.byId.get(tenantId, id));
  });

  const rename = immediately(db, (id: string, name: string | null): LongTermMemory | null => {
    if (statements.byId.get(tenantId, id) === undefined) return null;
    const holder = name === null ? undefined : statements.nameHolder.get(tenantId, name);
    if (holder !== undefined && holder !== id) throw taken(`the name "${String(name)}"`, { name });
    statements.rename.run(name, tenantId, id);
    return read(statements.byId.get(tenantId, id));
  });

  return {
    create: ({ memory, by, reason }) => run(() => create(memory, { by, reason })),
    get: ({ id }) => run(() => read(statements.byId.get(tenantId, id))),
    find: (options) =>
      run(() => {
        if ('key' in options) return read(statements.byKey.get(tenantId, options.key));
        return read('name' in options ? statements.byName.get(tenantId, options.name) : statements.bySubject.get(tenantId, options.subject));
      }),
    search: ({ terms, limit }) => run(() => search(terms, limit)),
    list: ({ limit, offset, deprecated }) => run(() => statements.list.all(tenantId, deprecated === true ? 1 : 0, Math.max(0, limit), Math.max(0, offset ?? 0)).map(toLongTermMemory)),
    count: () => run(() => statements.total.get(tenantId) ?? 0),
    revise: ({ id, value, deprecated, sources, by, reason, at }) => run(() => revise(id, value, deprecated, sources ?? [], { by, reason, at })),
    versions: ({ id }) => run(() => statements.versions.all(tenantId, id).map(toMemoryVersion)),
    rename: ({ id, name }) => run(() => rename(id, name)),
    mark: ({ ids, what, at }) =>
      run(() => {
        marks[what].run(at, tenantId, JSON.stringify(ids));
      }),
    ...createLongTermLinks(db, tenantId, run),
    ...createLongTermRuns(db, tenantId, run, COLUMNS),
  };
}
