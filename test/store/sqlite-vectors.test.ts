/**
 * The SQLite vector index beyond the contract: a session deleted by a process without sqlite-vec leaves
 * its vectors noted as orphans, and the next open with the extension removes them before any use; small
 * sessions take little room, and tables of the older layout are rebuilt without losing a vector.
 */
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createSessionRepository } from '../../src/store/sqlite/sessions.js';
import { TenantSearchIndex } from '../../src/store/sqlite/search-index.js';
import type { Store } from '../../src/store/store.js';
import { seedSession } from '../contract/store-contract.js';

const folders: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function newFile(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'strata-vectors-'));
  folders.push(folder);
  return path.join(folder, 'strata.db');
}

const EXCHANGES: ReadonlyArray<readonly [string, string]> = [
  ['The boat leaves at nine.', 'Nine it is.'],
  ['Bring the blue cooler.', 'Blue cooler, noted.'],
];

describe('SQLite vectors of deleted sessions', () => {
  it('are removed by the next open with sqlite-vec when a process without it deleted their session', async () => {
    const file = newFile();
    const first = createSqliteStore({ path: file, durability: 'normal' });
    const tenant = first.tenant('acme');
    const messages = await seedSession(tenant, 's1', EXCHANGES);
    await tenant.vectors.put({ sessionId: 's1', space: 'space-2', dimensions: 2, entries: messages.map((message, index) => ({ messageId: message.id, vector: Float32Array.from([1, index]) })) });
    await first.close();

    // A process without the extension deletes the session: the vec0 table cannot be written there.
    const raw = new Database(file);
    raw.pragma('foreign_keys = ON');
    const sessions = createSessionRepository(raw, 'acme', async (work) => work(), new TenantSearchIndex(raw, 'acme'), { loaded: false, reason: 'not installed' });
    expect(await sessions.delete({ sessionId: 's1' })).toBe(true);
    expect(raw.prepare('SELECT count(*) FROM vector_orphans').pluck().get()).toBe(messages.length);
    raw.close();

    // The same id again, with messages that may take the freed rowids: only their own vectors answer.
    const second = createSqliteStore({ path: file, durability: 'normal' });
    stores.push(second);
    const again = second.tenant('acme');
    const fresh = await seedSession(again, 's1', EXCHANGES.slice(0, 1));
    expect(await again.vectors.nearest({ sessionId: 's1', space: 'space-2', vector: Float32Array.from([1, 0]), limit: 10 })).toEqual([]);
    await again.vectors.put({ sessionId: 's1', space: 'space-2', dimensions: 2, entries: fresh.map((message) => ({ messageId: message.id, vector: Float32Array.from([0, 1]) })) });
    const found = await again.vectors.nearest({ sessionId: 's1', space: 'space-2', vector: Float32Array.from([1, 0]), limit: 10 });
    expect(found.map((hit) => hit.messageId).sort()).toEqual(fresh.map((message) => message.id).sort());
    const check = new Database(file, { readonly: true });
    try {
      expect(check.prepare('SELECT count(*) FROM vector_orphans').pluck().get()).toBe(0);
    } finally {
      check.close();
    }
  });
});

/** Bytes the pages of the tenant's vector tables take (SQLite's dbstat). */
function vectorBytes(file: string): number {
  const check = new Database(file, { readonly: true });
  try {
    return check.prepare<[], number>("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'vectors\\_%' ESCAPE '\\'").pluck().get() ?? 0;
  } finally {
    check.close();
  }
}

/** A vector of 100 numbers pointing mostly along `axis`. */
function axes(axis: number): Float32Array {
  return Float32Array.from({ length: 100 }, (_, at) => (at === axis ? 1 : 0.01));
}

/** A space of tenant acme as the previous release made it (sqlite-vec's default chunks), holding a vector per message of session s1. */
function addOlderSpace(file: string, space: string, messages: ReadonlyArray<{ id: string }>, options: { progress: boolean }): void {
  const raw = new Database(file);
  try {
    sqliteVec.load(raw);
    const spaceId = Number(raw.prepare("INSERT INTO vector_spaces (tenant_id, space, dimensions) VALUES ('acme', ?, 100)").run(space).lastInsertRowid);
    const table = `vectors_${String(spaceId)}`;
    raw.exec(`CREATE VIRTUAL TABLE ${table} USING vec0 (session_id TEXT PARTITION KEY, turn INTEGER, embedding FLOAT[100] distance_metric=cosine)`);
    const insert = raw.prepare(`INSERT INTO ${table} (rowid, session_id, turn, embedding) SELECT seq, session_id, turn, ? FROM messages WHERE id = ?`);
    messages.forEach((message, index) => insert.run(axes(index), message.id));
    if (options.progress) raw.prepare("INSERT INTO vector_progress (tenant_id, session_id, space_id, through_position) VALUES ('acme', 's1', ?, ?)").run(spaceId, messages.length);
  } finally {
    raw.close();
  }
}

describe('SQLite vector tables', () => {
  it('give a session of one exchange a few kilobytes, not a chunk of a thousand vectors', async () => {
    const file = newFile();
    const store = createSqliteStore({ path: file, durability: 'normal' });
    stores.push(store);
    const tenant = store.tenant('acme');
    for (let index = 0; index < 20; index += 1) {
      const messages = await seedSession(tenant, `s${String(index)}`, EXCHANGES.slice(0, 1));
      const vector = Float32Array.from({ length: 100 }, (_, at) => Math.sin(at + index));
      await tenant.vectors.put({ sessionId: `s${String(index)}`, space: 'words-100', dimensions: 100, entries: messages.map((message) => ({ messageId: message.id, vector })) });
    }
    // 20 sessions of 2 vectors: 16 KB of numbers. sqlite-vec's default chunks took about 8 MB.
    expect(vectorBytes(file)).toBeLessThan(20 * 32 * 1024);
  });

  it('of the older layout (chunks of 1,024) are rebuilt on the next open, with every vector and its progress', async () => {
    const file = newFile();
    const first = createSqliteStore({ path: file, durability: 'normal' });
    const tenant = first.tenant('acme');
    const messages = await seedSession(tenant, 's1', EXCHANGES);
    await first.close();
    // The table as the previous release made it, holding the session's vectors.
    addOlderSpace(file, 'space-100', messages, { progress: true });
    const before = vectorBytes(file);

    const second = createSqliteStore({ path: file, durability: 'normal' });
    stores.push(second);
    const again = second.tenant('acme');
    const found = await again.vectors.nearest({ sessionId: 's1', space: 'space-100', vector: axes(0), limit: 10 });
    expect(found.map((hit) => hit.messageId)).toEqual(messages.map((message) => message.id));
    expect(found[0]?.similarity).toBeCloseTo(1, 6);
    // Nothing is left to embed: the progress moved with the vectors.
    expect(await again.vectors.pending({ sessionId: 's1', space: 'space-100', limit: 10 })).toEqual([]);
    const check = new Database(file, { readonly: true });
    try {
      const tables = check.prepare<[], string>("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING vec0%'").pluck().all();
      expect(tables).toHaveLength(1);
      expect(tables[0]).toContain('chunk_size=32');
      expect(check.prepare('SELECT space FROM vector_spaces').pluck().all()).toEqual(['space-100']);
    } finally {
      check.close();
    }
    expect(vectorBytes(file)).toBeLessThan(before / 10);
  });

  it('keep answering in a process whose space another process rebuilt under a new id', async () => {
    const file = newFile();
    const first = createSqliteStore({ path: file, durability: 'normal' });
    stores.push(first);
    const tenant = first.tenant('acme');
    const messages = await seedSession(tenant, 's1', EXCHANGES);
    await tenant.vectors.put({ sessionId: 's1', space: 'space-100', dimensions: 100, entries: messages.map((message, index) => ({ messageId: message.id, vector: axes(index) })) });
    // An older release adds a space in the older layout; this process then uses it as it is.
    addOlderSpace(file, 'older', messages, { progress: false });
    const expected = messages.map((message) => message.id);
    expect((await tenant.vectors.nearest({ sessionId: 's1', space: 'older', vector: axes(0), limit: 10 })).map((hit) => hit.messageId)).toEqual(expected);

    // Another process of this release rebuilds it.
    const second = createSqliteStore({ path: file, durability: 'normal' });
    stores.push(second);
    await second.tenant('acme').vectors.nearest({ sessionId: 's1', space: 'older', vector: axes(0), limit: 10 });
    expect((await tenant.vectors.nearest({ sessionId: 's1', space: 'older', vector: axes(0), limit: 10 })).map((hit) => hit.messageId)).toEqual(expected);
  });
});

/** A unit vector of 100 numbers in one of `topics` directions, turned a little by `jitter` (seeded). */
function topicVector(topic: number, jitter: number): Float32Array {
  const vector = Float32Array.from({ length: 100 }, (_, at) => (at === topic ? 1 : 0) + 0.01 * Math.sin((jitter + 1) * (at + 1) * 0.37));
  return vector;
}

describe('SQLite vectors of a large session', () => {
  /** A session of `exchanges` exchanges whose messages' vectors go in in order, a batch of 32 at a time (as the indexer writes them). */
  async function largeSession(cellsFrom: number, exchanges: number, into?: { file: string; store: Store }, topicOf = (index: number): number => index % 10): Promise<{ file: string; tenant: ReturnType<Store['tenant']>; ids: string[] }> {
    const file = into?.file ?? newFile();
    const store = into?.store ?? createSqliteStore({ path: file, durability: 'normal', vectorCellsFrom: cellsFrom });
    if (into === undefined) stores.push(store);
    const tenant = store.tenant('acme');
    const messages = await seedSession(
      tenant,
      's1',
      Array.from({ length: exchanges }, (_, index) => [`Question ${String(index)}`, `Answer ${String(index)}`] as const),
    );
    for (let start = 0; start < messages.length; start += 32) {
      const entries = messages.slice(start, start + 32).map((message, offset) => ({ messageId: message.id, vector: topicVector(topicOf(start + offset), start + offset) }));
      await tenant.vectors.put({ sessionId: 's1', space: 'topics', dimensions: 100, entries });
    }
    return { file, tenant, ids: messages.map((message) => message.id) };
  }

  it('are filed in cells past the threshold, and a search still finds the nearest of them all', async () => {
    const { file, tenant, ids } = await largeSession(64, 400);
    const check = new Database(file, { readonly: true });
    try {
      // Drawn at 64 vectors and again at four times as many; later vectors went to the cells, the first stayed whole.
      const drawn = check.prepare<[], { generation: number; cells: number; drawn_at: number }>('SELECT generation, cells, drawn_at FROM vector_cells ORDER BY generation').all();
      expect(drawn.map((row) => row.generation)).toEqual([1, 2]);
      expect(drawn[0]!.drawn_at).toBeGreaterThanOrEqual(64);
      expect(drawn[1]!.drawn_at).toBeGreaterThanOrEqual(4 * drawn[0]!.drawn_at);
      expect(drawn[0]!.cells).toBe(Math.ceil(Math.sqrt(drawn[0]!.drawn_at)));
      sqliteVec.load(check);
      const partitions = check.prepare<[], string>('SELECT DISTINCT session_id FROM vectors_1').pluck().all();
      expect(partitions).toContain('s1');
      expect(partitions.filter((partition) => partition.startsWith('s1 ')).length).toBeGreaterThan(10);
    } finally {
      check.close();
    }
    // Every message of topic 3, wherever it was filed, is nearer a topic-3 query than any other message.
    const found = await tenant.vectors.nearest({ sessionId: 's1', space: 'topics', vector: topicVector(3, 0.5), limit: 80 });
    const topic3 = ids.filter((_, index) => index % 10 === 3);
    expect(found.map((hit) => hit.messageId).sort()).toEqual(topic3.sort());
    // The exact vector of a message filed late is found first, with its turn limit honoured.
    const late = ids[700]!;
    const exact = await tenant.vectors.nearest({ sessionId: 's1', space: 'topics', vector: topicVector(0, 700), limit: 1 });
    expect(exact.map((hit) => hit.messageId)).toEqual([late]);
    expect(exact[0]!.similarity).toBeCloseTo(1, 5);
    const early = await tenant.vectors.nearest({ sessionId: 's1', space: 'topics', vector: topicVector(0, 700), limit: 5, maxTurn: 100 });
    expect(early.length).toBe(5);
    expect(early.every((hit) => hit.turn <= 100)).toBe(true);
  });

  it('lose their cells with the session, and a session below the threshold has none', async () => {
    const { file, tenant } = await largeSession(64, 100);
    await seedSession(tenant, 's2', EXCHANGES);
    expect(await tenant.sessions.delete({ sessionId: 's1' })).toBe(true);
    const check = new Database(file, { readonly: true });
    try {
      expect(check.prepare('SELECT count(*) FROM vector_cells').pluck().get()).toBe(0);
    } finally {
      check.close();
    }
    const small = await largeSession(4096, 100);
    const again = new Database(small.file, { readonly: true });
    try {
      expect(again.prepare('SELECT count(*) FROM vector_cells').pluck().get()).toBe(0);
    } finally {
      again.close();
    }
  });

  it('are found by every process after their session is deleted and made again under the same id', async () => {
    const first = await largeSession(64, 300);
    const store = stores.at(-1)!;
    // This process has read the first session's drawings; the session goes, and another takes its id, its topics in another order.
    await first.tenant.vectors.nearest({ sessionId: 's1', space: 'topics', vector: topicVector(3, 0.5), limit: 5 });
    expect(await first.tenant.sessions.delete({ sessionId: 's1' })).toBe(true);
    const shuffled = (index: number): number => (index * 3 + 1) % 10;
    const again = await largeSession(64, 300, { file: first.file, store }, shuffled);
    // A process that never saw the first session finds every message of each topic of the new one.
    const other = createSqliteStore({ path: first.file, durability: 'normal', vectorCellsFrom: 64 });
    stores.push(other);
    for (let topic = 0; topic < 10; topic += 1) {
      const found = await other.tenant('acme').vectors.nearest({ sessionId: 's1', space: 'topics', vector: topicVector(topic, 0.5), limit: 60 });
      expect(found.map((hit) => hit.messageId).sort()).toEqual(again.ids.filter((_, index) => shuffled(index) === topic).sort());
    }
  });
});
