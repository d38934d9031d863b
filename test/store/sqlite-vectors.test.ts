/**
 * The SQLite vector index beyond the contract: a session deleted by a process without sqlite-vec leaves
 * its vectors noted as orphans, and the next open with the extension removes them before any use.
 */
import Database from 'better-sqlite3';
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
