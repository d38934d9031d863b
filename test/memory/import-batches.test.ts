/**
 * Imports are written batch by batch into a session hidden until the last batch: other writers wait for
 * one batch at most, a failed import leaves nothing, and one a stopped process left is removed later.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createLocalMemoryManager } from '../../src/managers/local/index.js';
import type { MemoryManager } from '../../src/managers/memory-manager.js';
import type { Store, TenantRepositories } from '../../src/store/store.js';
import { temporaryFolder } from '../support/memory-fixtures.js';

const memories: Memory[] = [];
const cleanups: Array<() => void> = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function open(options: Parameters<typeof createMemory>[0] = {}): Memory {
  const memory = createMemory({ path: ':memory:', env: { STRATA_LOG_LEVEL: 'silent', STRATA_IMPORT_WORKER: 'false' }, ...options });
  memories.push(memory);
  return memory;
}

/** A plain conversation of `turns` exchanges about a renovation. */
function conversation(turns: number): Array<{ role: string; content: string }> {
  return Array.from({ length: turns }, (_, index) => [
    { role: 'user', content: `Turn ${index + 1}: the tiler quoted £${1000 + index} for the bathroom floor, and the plumber comes on day ${index + 1}.` },
    { role: 'assistant', content: `Noted the tiler's £${1000 + index} quote and the plumber on day ${index + 1}.` },
  ]).flat();
}

function tempFile(): string {
  const folder = temporaryFolder();
  cleanups.push(folder.cleanup);
  return join(folder.path, 'strata.db');
}

describe('imports written in batches', () => {
  it('keeps the session out of every list until its last batch is stored, then shows it whole', async () => {
    const memory = open();
    const seen: number[] = [];
    const listed: Promise<void>[] = [];
    const imported = await memory.sessions.import({
      data: conversation(450),
      onProgress: ({ done }) => {
        if (done % 150 === 0) listed.push(memory.sessions.list().then((sessions) => void seen.push(sessions.length)));
      },
    });
    await Promise.all(listed);
    expect(seen).toEqual([0, 0, 0]);
    expect((await memory.sessions.list()).map((session) => [session.id, session.turnCount, session.messageCount])).toEqual([[imported.sessionId, 450, 900]]);
    const session = await memory.sessions.open(imported.sessionId);
    expect((await session.turns()).every((turn) => turn.status === 'summarised')).toBe(true);
  });

  it('lets another session record while a long import runs, instead of waiting for all of it', async () => {
    const memory = open();
    const other = await memory.sessions.create({ title: 'Live chat' });
    const order: string[] = [];
    let started = false;
    const importing = memory.sessions
      .import({
        data: conversation(800),
        onProgress: () => {
          if (started) return;
          started = true;
          void other.record({ user: 'Is the plumber still coming on Friday?', assistant: 'Yes, Friday morning.' }).then(() => order.push('record'));
        },
      })
      .then(() => order.push('import'));
    await importing;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['record', 'import']);
  });

  it('a store failure in the middle of an import leaves no session and no message behind', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    let transactions = 0;
    const failing: Store = {
      ...store,
      tenant(tenantId) {
        const tenant = store.tenant(tenantId);
        return {
          ...tenant,
          async transaction<T>(work: (repositories: TenantRepositories) => Promise<T>, options?: { durable?: boolean }): Promise<T> {
            transactions += 1;
            if (transactions === 2) throw new Error('disk I/O error');
            return tenant.transaction(work, options);
          },
        };
      },
    };
    const memory = open({ store: failing });
    await expect(memory.sessions.import({ data: conversation(450) })).rejects.toThrow(/disk I\/O error/u);
    expect(await memory.sessions.list()).toEqual([]);
    expect(await store.tenant('default').search.documentCount()).toBe(0);
    await memory.close();
    await store.close();
  });

  it('promotes an import to long-term memory with the transaction that shows it: a failure there leaves no session and no memory', async () => {
    const topics = (
      'tea coffee email trains cats jazz Python tabs vim markdown sushi pasta cycling podcasts audiobooks spreadsheets ' +
      'oatmeal yoghurt lentils quinoa tofu salmon figs plums cherries mangoes kiwis apricots walnuts almonds cashews ' +
      'hiking rowing chess sudoku crosswords origami pottery knitting baking gardening birdwatching kayaking ' +
      'linen wool denim velvet tweed corduroy cashmere silk hemp bamboo marble granite'
    ).split(' ');
    const preferences = topics.flatMap((topic) => [
      { role: 'user', content: `I prefer ${topic} to everything else, always.` },
      { role: 'assistant', content: 'Noted.' },
    ]);
    // A store whose long-term writes (new memories and new versions) fail at the `failAt`-th; counts them.
    const counting = (failAt: number): { store: Store; sqlite: Store; calls: () => number } => {
      const sqlite = createSqliteStore({ path: ':memory:' });
      let calls = 0;
      const counted = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
        calls += 1;
        if (calls === failAt) throw new Error('disk I/O error during promotion');
        return write(...args);
      };
      const withCounts = (repositories: TenantRepositories): TenantRepositories => ({
        ...repositories,
        longTerm: { ...repositories.longTerm, create: counted(repositories.longTerm.create), revise: counted(repositories.longTerm.revise) },
      });
      const store: Store = {
        ...sqlite,
        tenant(tenantId) {
          const tenant = sqlite.tenant(tenantId);
          return { ...tenant, transaction: (work, options) => tenant.transaction((repositories) => work(withCounts(repositories)), options) };
        },
      };
      return { store, sqlite, calls: () => calls };
    };
    const healthy = counting(0);
    const whole = open({ store: healthy.store });
    await whole.sessions.import({ data: preferences });
    expect((await whole.memories.list({ limit: 1_000 })).length).toBeGreaterThan(0);
    // The last long-term write fails: the events before it span several slices of the promotion.
    const writes = healthy.calls();
    expect(writes).toBeGreaterThan(40);
    const { store: failing, sqlite: store } = counting(writes);
    const memory = open({ store: failing });
    await expect(memory.sessions.import({ data: preferences })).rejects.toThrow(/during promotion/u);
    expect(await memory.sessions.list()).toEqual([]);
    expect(await memory.memories.list({ limit: 1_000 })).toEqual([]);
    await memory.close();
    await store.close();
  });

  it('removes, on the next start, the hidden session of an import whose process stopped, once its deadline has passed', async () => {
    const path = tempFile();
    const store = createSqliteStore({ path });
    const tenant = store.tenant('default');
    const time = '2026-03-01T10:00:00.000Z';
    await tenant.sessions.create({ session: { id: 'stopped', title: 'Half imported', instructions: '', createdAt: time, updatedAt: time, messageCount: 0, turnCount: 0, tokenCount: 0 }, importUntil: '2026-03-01T10:10:00.000Z' });
    await store.close();

    const memory = open({ path, clock: () => new Date('2026-03-01T11:00:00.000Z') });
    expect(await memory.sessions.list()).toEqual([]);
    await memory.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(0);
    raw.close();
  });

  it('a slow import keeps its session: another process opening the tenant meanwhile does not take it for abandoned', async () => {
    const path = tempFile();
    let time = Date.parse('2026-03-01T10:00:00.000Z');
    const clock = (): Date => new Date(time);
    const local = createLocalMemoryManager();
    // A memory model taking 3.5 s a turn: a batch of 200 turns takes longer than the ten-minute lease.
    const slow: MemoryManager = { name: 'slow', processTurn: async (options) => ((time += 3_500), local.processTurn(options)) };
    const memory = open({ path, manager: slow, clock });
    const opened: Promise<unknown>[] = [];
    const imported = await memory.sessions.import({
      data: conversation(400),
      onProgress: ({ done }) => {
        if (done !== 190 && done !== 390) return;
        const other = open({ path, clock });
        opened.push(other.sessions.list().then(() => other.close()));
      },
    });
    await Promise.all(opened);
    expect((await memory.sessions.list()).map((session) => [session.id, session.turnCount])).toEqual([[imported.sessionId, 400]]);
  });

  it('stores an export whose messages are listed out of order as the conversation went: equal hits are found oldest first', async () => {
    const memory = open();
    const session = await memory.sessions.create({ title: 'Same words' });
    for (let turn = 1; turn <= 4; turn += 1) await session.record({ user: 'Where did we leave the kayak paddles?', assistant: 'In the shed behind the bikes.' });
    const exported = JSON.parse(await session.export({ format: 'json' })) as { messages: unknown[] };
    exported.messages.reverse();
    const copy = await memory.sessions.open((await memory.sessions.import({ data: exported, newIds: true, title: 'Copy' })).sessionId);
    const turnOf = new Map((await copy.messages()).map((message) => [message.id, message.turn]));
    const hits = await copy.search({ query: 'kayak paddles', limit: 2 });
    expect(hits.map((hit) => turnOf.get(hit.messageId))).toEqual([1, 2]);
    expect((await copy.messages()).map((message) => message.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
