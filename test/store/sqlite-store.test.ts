import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StrataError, isStrataError } from '../../src/core/errors.js';
import { memoryKey } from '../../src/core/long-term-memory.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Message } from '../../src/core/types.js';
import type { Store } from '../../src/store/store.js';
import { searchArchive } from '../../src/store/archive-query.js';
import {
  FactScript,
  at,
  describeStoreContract,
  makeExchange,
  makeMessage,
  makeRetry,
  makeSession,
  makeTurnSummary,
  makeVersion,
  seedSession,
} from '../contract/store-contract.js';
import { describeApiKeyContract } from '../contract/api-key-contract.js';
import { describeTierRaiseContract } from '../contract/tier-raise-contract.js';
import { describeTurnChangesContract } from '../contract/turn-changes-contract.js';
import { describeLongTermContract } from '../contract/long-term-contract.js';
import { describeVectorContract } from '../contract/vector-contract.js';

const MIGRATED_AT = '2025-03-01T08:00:00.000Z';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'strata-'));
}

describeStoreContract('sqlite (file)', async () => {
  const dir = tempDir();
  const store = createSqliteStore({ path: path.join(dir, 'strata.db'), busyTimeoutMs: 2000, now: () => MIGRATED_AT });
  return {
    store,
    cleanup: async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeStoreContract('sqlite (:memory:)', async () => {
  const store = createSqliteStore({ path: ':memory:', durability: 'normal' });
  return { store, cleanup: () => store.close() };
});

describeTierRaiseContract('sqlite (:memory:)', async () => {
  const store = createSqliteStore({ path: ':memory:', durability: 'normal' });
  return { store, cleanup: () => store.close() };
});

describeTurnChangesContract('sqlite (:memory:)', async () => {
  const store = createSqliteStore({ path: ':memory:', durability: 'normal' });
  return { store, cleanup: () => store.close() };
});

describeLongTermContract('sqlite (:memory:)', async () => {
  const store = createSqliteStore({ path: ':memory:', durability: 'normal' });
  return { store, cleanup: () => store.close() };
});

describeVectorContract('sqlite (:memory:)', async () => {
  const store = createSqliteStore({ path: ':memory:', durability: 'normal' });
  return { store, cleanup: () => store.close() };
});

describeApiKeyContract('sqlite (:memory:)', async () => {
  const store = createSqliteStore({ path: ':memory:', durability: 'normal' });
  return { store, cleanup: () => store.close() };
});

/** Capture the rejection (or synchronous throw) of `action`. */
async function failureOf(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('SQLite store', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];

  const newPath = (): string => {
    const dir = tempDir();
    dirs.push(dir);
    return path.join(dir, 'strata.db');
  };
  const open = (file: string, now = MIGRATED_AT): Store => {
    const store = createSqliteStore({ path: file, now: () => now });
    stores.push(store);
    return store;
  };

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a path in a folder that does not exist with an error naming the path and the folder', () => {
    const missing = path.join(os.tmpdir(), `strata-no-such-folder-${process.pid}`, 'memory.db');
    let thrown: unknown;
    try {
      createSqliteStore({ path: missing });
    } catch (error) {
      thrown = error;
    }
    expect(isStrataError(thrown, 'INVALID_CONFIG')).toBe(true);
    expect(String((thrown as Error).message)).toContain(missing);
    expect(String((thrown as Error).message)).toContain(`its folder ${path.dirname(missing)} does not exist`);
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
  });

  it('keeps data across close and reopen', async () => {
    const file = newPath();
    const first = open(file);
    const tenant = first.tenant('acme');
    const messages = await seedSession(tenant, 's1', [
      ['We are painting the kitchen sage green.', 'Sage green pairs well with oak cabinets.'],
      ['The budget is 400 euros.', 'Noted: 400 euros for paint and supplies.'],
    ]);
    await tenant.turns.upsert({
      summary: {
        sessionId: 's1',
        turn: 1,
        messageIds: [messages[0]!.id, messages[1]!.id],
        userSummary: 'Painting the kitchen sage green.',
        assistantSummary: 'Sage pairs with oak.',
        depth: 'short',
        status: 'summarised',
        windowExtension: 0,
        tokens: 20,
        createdAt: at(11),
      },
    });
    const script = new FactScript('s1').add(2, 'fact-001', 'budget', 'budget: 400 euros', 'constraint', [messages[2]!.id]);
    await tenant.facts.apply(script.flush());
    const version = await tenant.artifacts.addVersion({
      sessionId: 's1',
      artifactId: 'art-1',
      name: 'shopping.md',
      kind: 'draft',
      language: 'markdown',
      version: makeVersion(2, messages[3]!.id, '- sage green paint\n- rollers'),
    });
    await tenant.turns.upsert({ summary: makeTurnSummary('s1', 2, { status: 'pending-retry' }) });
    const retry = makeRetry('s1', 2, { attempts: 2, nextAttemptAt: at(40), reason: 'unavailable', lastError: 'connect ECONNREFUSED' });
    await tenant.retries.put({ retry });
    const before = {
      session: await tenant.sessions.get({ sessionId: 's1' }),
      turns: await tenant.turns.list({ sessionId: 's1' }),
      events: await tenant.facts.listEvents({ sessionId: 's1' }),
    };
    await first.close();

    const second = open(file);
    const reopened = second.tenant('acme');
    expect(await reopened.sessions.get({ sessionId: 's1' })).toEqual(before.session);
    // Messages stored before sent times existed were stored at the time they were sent.
    expect(await reopened.messages.list({ sessionId: 's1' })).toEqual(messages.map((message) => ({ ...message, sentAt: message.createdAt })));
    expect(await reopened.turns.list({ sessionId: 's1' })).toEqual(before.turns);
    expect(await reopened.facts.list({ sessionId: 's1' })).toEqual(script.current());
    expect(await reopened.facts.listEvents({ sessionId: 's1' })).toEqual(before.events);
    expect((await reopened.artifacts.list({ sessionId: 's1' }))[0]?.versions).toEqual([version]);
    expect(await reopened.retries.list({ sessionId: 's1' })).toEqual([retry]);
    expect(await reopened.retries.listDue({ now: at(40), limit: 10 })).toEqual([retry]);
    expect(await reopened.retries.nextDue()).toBe(at(40));
    const hits = await searchArchive(reopened.search, { sessionId: 's1', query: 'painted kitchen', limit: 5 });
    expect(hits.map((hit) => hit.messageId)).toContain(messages[0]!.id);
  });

  it('records migrations in schema_migrations and does not re-run them on reopen', async () => {
    const file = newPath();
    await open(file, MIGRATED_AT).close();
    await open(file, '2030-01-01T00:00:00.000Z').close();

    const raw = new Database(file, { readonly: true });
    try {
      const rows = raw.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all();
      expect(rows).toEqual(MIGRATIONS.map((migration) => ({ version: migration.version, name: migration.name, applied_at: MIGRATED_AT })));
      expect(rows.length).toBeGreaterThan(0);
      const tables = raw
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((row) => (row as { name: string }).name);
      expect(tables).toEqual(expect.arrayContaining(['tenants', 'sessions', 'messages', 'turns', 'facts', 'fact_events', 'artifacts', 'artifact_versions', 'memory_retries']));
      expect(tables).not.toContain('messages_fts');
    } finally {
      raw.close();
    }
  });

  it('moves a version-2 database to one search index per tenant, keeping every message searchable', async () => {
    const file = newPath();
    const raw = new Database(file);
    raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
    for (const migration of MIGRATIONS.slice(0, 2)) {
      if (typeof migration.change === 'string') raw.exec(migration.change);
      raw.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(migration.version, migration.name, MIGRATED_AT);
    }
    for (const tenant of ['acme', 'globex']) {
      raw.prepare('INSERT INTO tenants VALUES (?, ?)').run(tenant, MIGRATED_AT);
      raw.prepare("INSERT INTO sessions (tenant_id, id, title, created_at, updated_at, message_count) VALUES (?, 's1', 'old', ?, ?, 1)").run(tenant, MIGRATED_AT, MIGRATED_AT);
      raw
        .prepare(`INSERT INTO messages (tenant_id, session_id, id, turn, position, role, content, tier1, tier2, tier1_tokens, tier2_tokens, tier3_tokens, required_tier, created_at)
          VALUES (?, 's1', ?, 1, 0, 'user', ?, '', '', 0, 0, 5, 3, ?)`)
        .run(tenant, `${tenant}-m1`, `the ${tenant} warehouse moved to Rotterdam`, MIGRATED_AT);
    }
    raw.close();

    const store = open(file);
    try {
      for (const tenant of ['acme', 'globex']) {
        const hits = await searchArchive(store.tenant(tenant).search, { sessionId: 's1', query: 'warehouse Rotterdam', limit: 5 });
        expect(hits.map((hit) => hit.messageId)).toEqual([`${tenant}-m1`]);
      }
      expect(await searchArchive(store.tenant('acme').search, { sessionId: 's1', query: 'globex', limit: 5 })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('upgrades a version-20 database to memory subjects and search, its memories searchable at once', async () => {
    const file = newPath();
    const previous = open(file);
    const memories = previous.tenant('acme').longTerm;
    const city = await memories.create({ memory: { id: 'lt-1', name: 'home-city', value: 'Lives in Frankfurt.', sources: [], at: at(1) }, by: 'user', reason: 'told' });
    await memories.create({ memory: { id: 'lt-2', name: null, value: 'Used to live in Bonn.', sources: [], at: at(2) }, by: 'user', reason: 'told' });
    await memories.revise({ id: 'lt-2', deprecated: true, by: 'user', reason: 'old', at: at(3) });
    await previous.close();
    const raw = new Database(file);
    raw.exec(`DROP TRIGGER long_term_search_insert; DROP TRIGGER long_term_search_update; DROP TRIGGER long_term_search_delete; DROP TRIGGER long_term_search_tag; DROP TRIGGER long_term_search_untag;
      DROP TABLE long_term_runs; DROP INDEX long_term_by_tended; DROP TABLE vector_cells;
      DROP TABLE long_term_search; DROP TABLE long_term_rows; DROP INDEX long_term_by_subject; ALTER TABLE long_term_memories DROP COLUMN subject;
      DELETE FROM schema_migrations WHERE version > 20;`);
    raw.close();

    const upgraded = open(file);
    try {
      const reopened = upgraded.tenant('acme').longTerm;
      expect(await reopened.search({ terms: ['frankfurt', 'bonn', 'city'], limit: 5 })).toEqual([{ ...city, subject: null }]);
      expect(await reopened.search({ terms: ['home'], limit: 5 })).toHaveLength(1);
    } finally {
      await upgraded.close();
    }
  });

  it('upgrades a version-3 database to the memory-retry queue, the stale-memory mark, sent times, doubted facts, a search index that knows sessions, hidden imports, API keys, undo links, facts in store order, tool messages, raised tiers, vectors, retry claims, turn revisions and long-term memories, keeping its data', async () => {
    const file = newPath();
    const previous = open(file);
    const tenant = previous.tenant('acme');
    const messages = await seedSession(tenant, 's1', [
      ['The staging server is in Frankfurt.', 'Noted: staging runs in Frankfurt.'],
      ['Deploys happen on Tuesdays.', 'Tuesday deploys, understood.'],
    ]);
    for (const turn of [1, 2]) await tenant.turns.upsert({ summary: makeTurnSummary('s1', turn, { status: turn === 2 ? 'pending-retry' : 'summarised' }) });
    const before = { session: await tenant.sessions.get({ sessionId: 's1' }), turns: await tenant.turns.list({ sessionId: 's1' }) };
    await previous.close();

    // Bring the file back to what the previous build (schema version 3) left behind.
    const raw = new Database(file);
    // Its messages table knew two roles and no tool calls (made again, as SQLite cannot change a check in place).
    const messagesSql = raw.prepare<[], string>("SELECT sql FROM sqlite_schema WHERE name = 'messages'").pluck().get()!;
    const oldMessagesSql = messagesSql
      .replace("CHECK (role IN ('user', 'assistant', 'tool'))", "CHECK (role IN ('user', 'assistant'))")
      // (The line of the tool columns also holds the columns added since: raised tiers.)
      .replace(/\s*tool_calls TEXT[^\n]*\n\s*tool_call_id TEXT[^\n]*\n/u, '\n')
      .replace(/CREATE TABLE "?messages"?/u, 'CREATE TABLE messages_old');
    expect(oldMessagesSql).not.toMatch(/tool/u);
    raw.exec(`${oldMessagesSql};
      INSERT INTO messages_old SELECT seq, tenant_id, session_id, id, turn, position, role, speaker, content, tier1, tier2, tier1_tokens, tier2_tokens,
        tier3_tokens, required_tier, created_at, external_id, sent_at FROM messages;
      DROP TABLE messages; ALTER TABLE messages_old RENAME TO messages;
      CREATE UNIQUE INDEX messages_id ON messages (tenant_id, id);
      CREATE UNIQUE INDEX messages_position ON messages (tenant_id, session_id, position);
      CREATE INDEX messages_turn ON messages (tenant_id, session_id, turn, position, id);`);
    raw.exec(`DROP TABLE memory_retries; ALTER TABLE turns DROP COLUMN stale_memory; ALTER TABLE messages DROP COLUMN sent_at;
      ALTER TABLE turns DROP COLUMN detail_requests;
      ALTER TABLE fact_events DROP COLUMN may_replace; ALTER TABLE fact_events DROP COLUMN undoes;
      DROP INDEX sessions_importing; ALTER TABLE sessions DROP COLUMN import_until; DROP TABLE api_keys;
      DROP TABLE vector_cells; DROP TABLE vector_orphans; DROP TABLE vector_progress; DROP TABLE vector_spaces; DROP TABLE retry_claims; DROP TABLE turn_changes; ALTER TABLE tenants DROP COLUMN turn_revision;
      DROP TABLE long_term_runs; DROP TABLE long_term_edges; DROP TABLE long_term_tags; DROP TABLE long_term_versions; DROP TABLE long_term_memories; DROP TABLE long_term_rows; DROP TABLE long_term_search; ALTER TABLE tenants DROP COLUMN memory_count;
      DELETE FROM schema_migrations WHERE version > 3;`);
    // Its facts were keyed by tenant and id, with an index by session.
    raw.exec(`CREATE TABLE facts_old (
        tenant_id TEXT NOT NULL, session_id TEXT NOT NULL, id TEXT NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('fact', 'constraint', 'goal', 'preference', 'exception')), pinned INTEGER NOT NULL,
        source_message_ids TEXT NOT NULL, created_turn INTEGER NOT NULL, updated_turn INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, id), FOREIGN KEY (tenant_id, session_id) REFERENCES sessions (tenant_id, id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      INSERT INTO facts_old SELECT tenant_id, session_id, id, key, text, kind, pinned, source_message_ids, created_turn, updated_turn, created_at, updated_at FROM facts;
      DROP TABLE facts; ALTER TABLE facts_old RENAME TO facts; CREATE INDEX facts_session ON facts (tenant_id, session_id);`);
    // Its search index had no session column.
    const index = `search_tenant_${String(raw.prepare("SELECT rowid FROM tenants WHERE id = 'acme'").pluck().get())}`;
    raw.exec(`DROP TABLE ${index};
      CREATE VIRTUAL TABLE ${index} USING fts5 (speaker, content, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO ${index} (rowid, speaker, content) SELECT seq, coalesce(speaker, ''), content FROM messages;`);
    raw.close();

    const upgraded = open(file, '2026-01-01T00:00:00.000Z');
    const reopened = upgraded.tenant('acme');
    expect(await reopened.sessions.get({ sessionId: 's1' })).toEqual(before.session);
    // Messages stored before sent times existed were stored at the time they were sent.
    expect(await reopened.messages.list({ sessionId: 's1' })).toEqual(messages.map((message) => ({ ...message, sentAt: message.createdAt })));
    expect(await reopened.turns.list({ sessionId: 's1' })).toEqual(before.turns);
    expect((await searchArchive(reopened.search, { sessionId: 's1', query: 'Frankfurt', limit: 5 })).map((hit) => hit.messageId).sort()).toEqual([messages[0]!.id, messages[1]!.id]);
    expect(await reopened.retries.count()).toBe(0);
    expect(await upgraded.keys.list()).toEqual([]);
    // Tool calls and their results can be stored now, beside the messages kept.
    const toolTurn: Message[] = [
      { ...makeMessage('s1', { turn: 3, position: 4, role: 'assistant', content: '' }), toolCalls: [{ id: 'call_9', name: 'check_region', arguments: '{}' }] },
      { ...makeMessage('s1', { turn: 3, position: 5, role: 'tool', content: 'eu-central-1' }), toolCallId: 'call_9' },
    ];
    await reopened.messages.append({ sessionId: 's1', messages: toolTurn, updatedAt: at(50) });
    expect((await reopened.messages.list({ sessionId: 's1' })).slice(4)).toEqual(toolTurn);
    await reopened.retries.put({ retry: makeRetry('s1', 2) });
    expect(await reopened.retries.listDue({ now: at(100), limit: 10 })).toEqual([makeRetry('s1', 2)]);
    // A message kept from before can be raised on request, and returns to its tier later.
    expect((await reopened.messages.raiseTier({ sessionId: 's1', messageId: messages[0]!.id, tier: 3, turn: 4 }))?.requiredTier).toBe(3);
    expect(await reopened.messages.lowerTiers({ sessionId: 's1', raisedBefore: 9 })).toEqual([messages[0]!.turn]);
    // Those writes are turn changes another process can learn of.
    expect((await reopened.turns.changes({ sessionId: 's1', after: 0 })).turns).toEqual([messages[0]!.turn]);
    // The tenant kept from before can hold long-term memories, keyed from the first.
    const remembered = await reopened.longTerm.create({ memory: { id: 'lt-1', name: 'home-city', value: 'Lives in Frankfurt.', sources: [], at: at(60) }, by: 'user', reason: 'told' });
    expect(remembered.key).toBe(memoryKey(1));
    expect(await reopened.longTerm.search({ terms: ['frankfurt'], limit: 5 })).toEqual([remembered]);
    // Messages kept from before are waiting to be embedded, and once embedded are found by vector.
    const waiting = await reopened.vectors.pending({ sessionId: 's1', space: 'upgrade-space', limit: 100 });
    expect(waiting.map((entry) => entry.messageId)).toEqual([...messages, ...toolTurn].map((message) => message.id));
    await reopened.vectors.put({ sessionId: 's1', space: 'upgrade-space', dimensions: 2, entries: waiting.map((entry, index) => ({ messageId: entry.messageId, vector: Float32Array.from([1, index]) })) });
    expect((await reopened.vectors.nearest({ sessionId: 's1', space: 'upgrade-space', vector: Float32Array.from([1, 0]), limit: 1 }))[0]?.messageId).toBe(messages[0]!.id);
    await upgraded.close();

    const check = new Database(file, { readonly: true });
    try {
      expect(check.prepare('SELECT version, applied_at FROM schema_migrations WHERE version >= 3 ORDER BY version').all()).toEqual([
        { version: 3, applied_at: MIGRATED_AT },
        { version: 4, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 5, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 6, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 7, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 8, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 9, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 10, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 11, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 12, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 13, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 14, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 15, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 16, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 17, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 18, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 19, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 20, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 21, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 22, applied_at: '2026-01-01T00:00:00.000Z' },
        { version: 23, applied_at: '2026-01-01T00:00:00.000Z' },
      ]);
      expect(MIGRATIONS[MIGRATIONS.length - 1]!.version).toBe(23);
      expect(check.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'facts' AND sql IS NOT NULL").pluck().all()).toEqual(['facts_id']);
    } finally {
      check.close();
    }
  });

  /** SQLite's plan for a query on a new database, one step a line. */
  async function planOf(query: string, ...parameters: string[]): Promise<string> {
    const file = newPath();
    await open(file).close();
    const raw = new Database(file, { readonly: true });
    try {
      return raw
        .prepare(`EXPLAIN QUERY PLAN ${query}`)
        .all(...parameters)
        .map((row) => (row as { detail: string }).detail)
        .join('\n');
    } finally {
      raw.close();
    }
  }

  it('finds the earliest next attempt through the memory_retries_due index', async () => {
    expect(await planOf('SELECT min(next_attempt_at) FROM memory_retries WHERE tenant_id = ?', 'acme')).toContain('memory_retries_due');
  });

  it("dates a turn from the index alone, reading no message row", async () => {
    const plan = await planOf(
      'SELECT sent_at FROM messages WHERE tenant_id = ? AND session_id = ? AND turn = ? AND sent_at IS NOT NULL ORDER BY position LIMIT 1',
      'acme',
      's1',
      '3',
    );
    expect(plan).toBe('SEARCH messages USING COVERING INDEX messages_turn (tenant_id=? AND session_id=? AND turn=?)');
  });

  it("reads a session's facts as one range of the table's key, in order, not every fact of the tenant", async () => {
    const plan = await planOf('SELECT * FROM facts WHERE tenant_id = ? AND session_id = ? ORDER BY created_turn, id', 'acme', 's1');
    expect(plan).toBe('SEARCH facts USING PRIMARY KEY (tenant_id=? AND session_id=?)');
    // A fact is found by its id through the unique index; deleting a session finds its facts by the key.
    expect(await planOf('SELECT * FROM facts WHERE tenant_id = ? AND id = ?', 'acme', 'f1')).toBe('SEARCH facts USING INDEX facts_id (tenant_id=? AND id=?)');
    expect(await planOf('SELECT 1 FROM facts WHERE tenant_id = ? AND session_id = ?', 'acme', 's1')).toContain('PRIMARY KEY (tenant_id=? AND session_id=?)');
  });

  it('refuses a database whose schema is newer than this build, saying to upgrade', async () => {
    const file = newPath();
    await open(file).close();
    const raw = new Database(file);
    const newest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(newest + 1, 'from the future', MIGRATED_AT);
    raw.close();

    const error = await failureOf(() => open(file));
    expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
    expect((error as StrataError).message).toMatch(/upgrade/iu);
    expect((error as StrataError).message).toContain(String(newest + 1));
  });

  it.each([
    ['an application table', ['CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)', "INSERT INTO users (email) VALUES ('a@example.com')"]],
    ['a schema_migrations of another framework', ['CREATE TABLE schema_migrations (version TEXT PRIMARY KEY)', "INSERT INTO schema_migrations VALUES ('20240101000000')", 'CREATE TABLE sessions (id TEXT)']],
    ['the empty schema_migrations an older Strata left beside a clashing table', ['CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT', 'CREATE TABLE tenants (name TEXT)']],
  ])("refuses another application's database (%s), naming its tables, and leaves the file byte-identical", async (_, statements) => {
    const file = newPath();
    const raw = new Database(file);
    for (const statement of statements) raw.exec(statement);
    raw.close();
    const before = fs.readFileSync(file);

    const error = await failureOf(() => open(file));
    expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
    expect((error as StrataError).message).toContain(file);
    expect((error as StrataError).message).toMatch(/another application's database .*untouched/u);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['strata.db']);
  });

  it('opens an empty file as a new database', async () => {
    const file = newPath();
    fs.writeFileSync(file, '');
    const store = open(file);
    await store.tenant('t').sessions.create({ session: makeSession('s1') });
    expect(await store.tenant('t').sessions.get({ sessionId: 's1' })).not.toBeNull();
  });

  it('reports a file that is not a database as STORE_FAILURE naming the path', async () => {
    const file = newPath();
    fs.writeFileSync(file, Buffer.from('this is definitely not an SQLite database, just garbage bytes\n'.repeat(128), 'utf8'));

    const error = await failureOf(() => open(file));
    expect(error).toBeInstanceOf(StrataError);
    expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
    expect((error as StrataError).message).toContain(file);
  });

  it.runIf(process.platform === 'linux')('does not keep the file open after a failed open', async () => {
    const file = newPath();
    fs.writeFileSync(file, Buffer.alloc(8192, 0x5a));
    const openHandles = (): number =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(path.join('/proc/self/fd', fd)) === file;
        } catch {
          return false;
        }
      }).length;

    const baseline = openHandles();
    for (let attempt = 0; attempt < 3; attempt += 1) await failureOf(() => open(file));
    expect(openHandles()).toBe(baseline);
  });

  it('uses WAL journaling and enforces foreign keys', async () => {
    const file = newPath();
    const store = open(file);
    const tenant = store.tenant('acme');
    await tenant.sessions.create({ session: makeSession('s1') });

    // journal_mode=WAL is persistent: any connection to the file sees it.
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
    expect(fs.existsSync(`${file}-wal`)).toBe(true);

    // foreign_keys is per connection, so check it through the store: a message for a session
    // that does not exist is refused, and deleting a session cascades.
    const orphan = await failureOf(() =>
      tenant.messages.append({ sessionId: 'no-such-session', messages: makeExchange('no-such-session', 1, 'hello', 'hi'), updatedAt: at(1) }),
    );
    expect(isStrataError(orphan, 'STORE_FAILURE')).toBe(true);
    expect((orphan as StrataError).details['code']).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(await tenant.messages.list({ sessionId: 'no-such-session' })).toEqual([]);

    // A retry entry needs its turn's summary; the message says to store the turn first.
    const unqueued = await failureOf(() => tenant.retries.put({ retry: makeRetry('s1', 1) }));
    expect(isStrataError(unqueued, 'STORE_FAILURE')).toBe(true);
    expect((unqueued as StrataError).details['code']).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect((unqueued as StrataError).message).toMatch(/turn 1 of session "s1".*turns\.upsert/u);
  });

  it('reports a lock held by another process as STORE_FAILURE (SQLITE_BUSY) after the busy timeout', async () => {
    const file = newPath();
    const store = createSqliteStore({ path: file, busyTimeoutMs: 50, now: () => MIGRATED_AT });
    stores.push(store);
    const tenant = store.tenant('acme');
    await tenant.sessions.create({ session: makeSession('s1') });

    const other = new Database(file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const error = await failureOf(() => tenant.sessions.update({ sessionId: 's1', title: 'blocked', updatedAt: at(1) }));
      expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
      expect((error as StrataError).details['code']).toBe('SQLITE_BUSY');
      expect((error as StrataError).message).toMatch(/busyTimeoutMs/u);
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
    expect(await tenant.sessions.update({ sessionId: 's1', title: 'free', updatedAt: at(2) })).toBe(true);
  });

  it('rejects calls after close() with a StrataError', async () => {
    const file = newPath();
    const store = open(file);
    const tenant = store.tenant('acme');
    await tenant.sessions.create({ session: makeSession('s1') });
    await store.close();
    await store.close(); // closing twice is harmless

    for (const call of [
      () => tenant.sessions.get({ sessionId: 's1' }),
      () => tenant.sessions.list({ limit: 10 }),
      () => tenant.messages.append({ sessionId: 's1', messages: makeExchange('s1', 1, 'a', 'b'), updatedAt: at(1) }),
      () => searchArchive(tenant.search, { sessionId: 's1', query: 'hello', limit: 5 }),
      () => tenant.transaction(async (repositories) => repositories.sessions.get({ sessionId: 's1' })),
    ]) {
      const error = await failureOf(call);
      expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
    }

    // A tenant first asked for after close fails the same way, not with a driver error.
    const late = await failureOf(() => store.tenant('latecomer').sessions.get({ sessionId: 's1' }));
    expect(isStrataError(late, 'STORE_FAILURE')).toBe(true);
  });

  it('close() waits for an open transaction to finish', async () => {
    const file = newPath();
    const store = open(file);
    const tenant = store.tenant('acme');
    await tenant.sessions.create({ session: makeSession('s1') });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((done) => {
      release = done;
    });
    const transaction = tenant.transaction(async (repositories) => {
      await gate;
      return repositories.sessions.update({ sessionId: 's1', title: 'last word', updatedAt: at(3) });
    });
    const closing = store.close();
    release();
    expect(await transaction).toBe(true);
    await closing;

    const reopened = open(file);
    expect((await reopened.tenant('acme').sessions.get({ sessionId: 's1' }))?.title).toBe('last word');
  });

  it("rejects a tenant id of '' (or only spaces)", () => {
    const store = open(newPath());
    for (const id of ['', '   ']) {
      let caught: unknown;
      try {
        store.tenant(id);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(StrataError);
      expect(isStrataError(caught, 'INVALID_INPUT')).toBe(true);
    }
  });

  it('on a large index, scores a long query by its ten rarest terms', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    stores.push(store);
    const tenant = store.tenant('acme');
    // 1,000 turns of filler: past the size from which terms are counted and pruned.
    const exchanges: Array<[string, string]> = Array.from({ length: 1000 }, (_, index) => [`Status update ${index} for the team.`, 'Thanks, noted.']);
    // Twelve query words; "alpha" … "juliet" appear once each, "garden" and "harbour" five times each.
    const rare = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
    rare.forEach((word, index) => {
      exchanges[index * 10] = [`The ${word} plan is ready.`, 'Thanks, noted.'];
    });
    for (let index = 0; index < 5; index += 1) {
      exchanges[100 + index] = ['The garden plan is ready.', 'Thanks, noted.'];
      exchanges[200 + index] = ['The harbour plan is ready.', 'Thanks, noted.'];
    }
    await seedSession(tenant, 's1', exchanges);
    const hits = await searchArchive(tenant.search, { sessionId: 's1', query: `${rare.join(' ')} garden harbour`, limit: 50 });
    const turns = hits.map((hit) => hit.turn).sort((a, b) => a - b);
    expect(turns).toEqual([1, 11, 21, 31, 41, 51, 61, 71, 81, 91]);
    // A shorter query keeps every term that is not common.
    const short = await searchArchive(tenant.search, { sessionId: 's1', query: 'alpha garden', limit: 50 });
    expect(short.map((hit) => hit.turn).sort((a, b) => a - b)).toEqual([1, 101, 102, 103, 104, 105]);
  });

  it('on a large index, leaves out commoner terms once the rarer ones match a thousand messages', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    stores.push(store);
    const tenant = store.tenant('acme');
    // 3,000 messages: no term below is common (in more than a fifth of them).
    const exchanges: Array<[string, string]> = Array.from({ length: 1500 }, (_, index) => [`Status update ${index} for the team.`, 'Thanks, noted.']);
    // "orchid" once, "tulip" in 300 messages, "maple" in 500, "cedar" in 550: the three rarest match 801.
    exchanges[0] = ['The orchid plan is ready.', 'Thanks, noted.'];
    for (let index = 0; index < 300; index += 1) exchanges[1 + index] = [`Tulip note ${index}.`, 'Thanks, noted.'];
    for (let index = 0; index < 500; index += 1) exchanges[301 + index] = [`Maple note ${index}.`, 'Thanks, noted.'];
    for (let index = 0; index < 550; index += 1) exchanges[801 + index] = [`Cedar note ${index}.`, 'Thanks, noted.'];
    await seedSession(tenant, 's1', exchanges);

    const hits = await searchArchive(tenant.search, { sessionId: 's1', query: 'cedar maple tulip orchid', limit: 3000 });
    const turns = hits.map((hit) => hit.turn);
    expect(hits).toHaveLength(801);
    // The rarest term still ranks first; no message that only "cedar" matches is scored.
    expect(turns[0]).toBe(1);
    expect(turns.every((turn) => turn <= 801)).toBe(true);

    // Whatever rows they match, the two rarest terms are scored.
    const two = await searchArchive(tenant.search, { sessionId: 's1', query: 'cedar maple', limit: 3000 });
    expect(two).toHaveLength(1050);
  });

  it('works with :memory:', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    stores.push(store);
    const tenant = store.tenant('acme');
    await seedSession(tenant, 's1', [['hello there', 'general kenobi']]);
    expect((await tenant.sessions.get({ sessionId: 's1' }))?.messageCount).toBe(2);
  });
});
