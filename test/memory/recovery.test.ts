import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type SessionHandle } from '../../src/memory/create-memory.js';
import { createLocalMemoryManager } from '../../src/managers/local/index.js';
import type { MemoryManager } from '../../src/managers/memory-manager.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store, TenantStore } from '../../src/store/store.js';
import { join } from 'node:path';
import { createOpenAiChatModel } from '../../src/providers/openai/openai-chat-model.js';
import { sequentialIds, steppingClock, temporaryFolder } from '../support/memory-fixtures.js';
import { startScriptedServer } from '../support/scripted-openai-server.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A store whose next transactions fail as a full disk would, after `failAfter` successful ones. */
function failingStore(path: string): { store: Store; failFrom: (count: number) => void } {
  const inner = createSqliteStore({ path });
  let remaining = Number.POSITIVE_INFINITY;
  const wrapped = new Map<string, TenantStore>();
  return {
    failFrom: (count) => {
      remaining = count;
    },
    store: {
      kind: 'failing-sqlite',
      keys: inner.keys,
      close: () => inner.close(),
      tenant(tenantId) {
        const existing = wrapped.get(tenantId);
        if (existing !== undefined) return existing;
        const tenant = inner.tenant(tenantId);
        const store: TenantStore = {
          ...tenant,
          transaction: async (work, options) => {
            if (remaining <= 0) throw new Error('SQLITE_FULL: database or disk is full');
            remaining -= 1;
            return tenant.transaction(work, options);
          },
        };
        wrapped.set(tenantId, store);
        return store;
      },
    },
  };
}

describe('turns whose memory was not written', () => {
  it('keep their raw messages and are derived before the next turn, also after a restart', async () => {
    const folder = temporaryFolder();
    cleanups.push(folder.cleanup);
    const path = join(folder.path, 'strata.db');
    const failing = failingStore(path);
    const first = createMemory({ store: failing.store, env: {}, clock: steppingClock(), newId: sequentialIds('a') });
    const session = await first.sessions.create({ title: 'Disk trouble' });
    failing.failFrom(1);
    const result = await session.record({ user: 'We must never deploy on Fridays. The budget is $40,000.', assistant: 'Understood: no Friday deploys, $40,000.' });
    expect(result.status).toBe('pending-retry');
    expect(result.problem).toMatch(/stored but its memory was not.*SQLITE_FULL/u);
    expect((await session.messages()).map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(await session.facts()).toEqual([]);
    await first.close();

    const second = createMemory({ path, env: {}, clock: steppingClock('2026-04-01T00:00:00.000Z'), newId: sequentialIds('b') });
    cleanups.push(() => second.close());
    const reopened = await second.sessions.open(session.id);
    const pkg = await reopened.context({ budget: 400 });
    expect((await reopened.turns()).map((turn) => [turn.turn, turn.status])).toEqual([[1, 'summarised']]);
    const facts = await reopened.facts();
    expect(facts.some((fact) => fact.pinned && /fridays/iu.test(fact.text))).toBe(true);
    expect(pkg.sections.find((section) => section.name === 'pinned')?.items.length).toBeGreaterThan(0);
    const next = await reopened.record({ user: 'Next step?', assistant: 'Staging.' });
    expect(next.turn).toBe(2);
  });

  it('are derived before the first chat turn of the next run builds its package', async () => {
    const folder = temporaryFolder();
    cleanups.push(folder.cleanup);
    const path = join(folder.path, 'strata.db');
    const failing = failingStore(path);
    const first = createMemory({ store: failing.store, env: {}, clock: steppingClock(), newId: sequentialIds('a') });
    const session = await first.sessions.create({ title: 'Disk trouble, then chat' });
    failing.failFrom(1);
    expect((await session.record({ user: 'We must never deploy on Fridays.', assistant: 'Understood: no Friday deploys.' })).status).toBe('pending-retry');
    await first.close();

    const server = await startScriptedServer({ script: [{ reply: 'Staging first, on a Monday.' }] });
    cleanups.push(() => server.close());
    const chatModel = createOpenAiChatModel({ baseUrl: server.baseUrl, model: 'scripted-chat', role: 'chat', maxRetries: 0, fetch });
    const second = createMemory({ path, env: {}, chatModel, clock: steppingClock('2026-04-01T00:00:00.000Z'), newId: sequentialIds('b') });
    cleanups.push(() => second.close());
    const reopened = await second.sessions.open(session.id);
    const result = await reopened.chat('When do we deploy?');
    expect(result.turn).toBe(2);
    // The package the model got already held the rule derived from the earlier run's turn.
    const sent = JSON.stringify(server.requests[0]?.body);
    expect(sent).toMatch(/Pinned exceptions[^"]*Fridays/u);
    await result.memory;
    expect((await reopened.turns()).map((turn) => turn.status)).toEqual(['summarised', 'summarised']);
  });
});

describe('a session deleted while its turns are in flight', () => {
  it('answers those records SESSION_NOT_FOUND (never a store failure), and leaves nothing of the session', async () => {
    const local = createLocalMemoryManager();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The manager holds the first turn's memory until the session is deleted.
    const manager: MemoryManager = { name: 'held', processTurn: async (options) => (await held, local.processTurn(options)) };
    const memory = createMemory({ path: ':memory:', manager, env: { STRATA_LOG_LEVEL: 'silent' } });
    cleanups.push(() => memory.close());
    const session = await memory.sessions.create();
    const records = [1, 2, 3].map((index) => session.record({ user: `The budget is $${index},000 now.`, assistant: 'Noted.' }));
    await session.delete();
    release();
    const results = await Promise.allSettled(records);
    expect(results.map((result) => (result.status === 'rejected' ? (result.reason as { code?: string }).code : 'stored'))).toEqual(['SESSION_NOT_FOUND', 'SESSION_NOT_FOUND', 'SESSION_NOT_FOUND']);
    expect(await memory.sessions.list()).toEqual([]);
  });
});

/** A database file two memories share, as two processes would, removed after the test. */
function sharedFile(): string {
  const folder = temporaryFolder();
  cleanups.push(folder.cleanup);
  return join(folder.path, 'strata.db');
}

/** A promise the test resolves when it is ready. */
function latch(): { held: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/**
 * Two memories on one database file, as two processes would have: A with the local manager, B with one
 * that holds its first answer until `release()`. A has recorded the budget in a session B has open.
 */
async function twoWriters(): Promise<{ inA: SessionHandle; inB: SessionHandle; release: () => void; calls: () => number }> {
  const path = sharedFile();
  const local = createLocalMemoryManager();
  const { held, release } = latch();
  let calls = 0;
  const slow: MemoryManager = { name: 'local', processTurn: async (options) => ((calls += 1) === 1 ? (await held, local.processTurn(options)) : local.processTurn(options)) };
  const env = { STRATA_LOG_LEVEL: 'silent' };
  const a = createMemory({ path, env });
  const b = createMemory({ path, env, manager: slow });
  cleanups.push(() => a.close(), () => b.close());
  const inA = await a.sessions.create();
  await inA.record({ user: 'Our budget is $3,000.', assistant: 'Noted.' });
  return { inA, inB: await b.sessions.open(inA.id), release, calls: () => calls };
}

describe('two processes writing one session', () => {
  it('a turn derived on facts another process changed meanwhile is not written on them: the turn stands as the facts now have it', async () => {
    const { inA, inB, release, calls } = await twoWriters();
    const second = inB.record({ user: 'The deadline moved to March 9.', assistant: 'Noted.' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await inA.record({ user: 'Actually the budget changed to $4,000.', assistant: 'Noted.' });
    release();
    expect(await second).toMatchObject({ status: 'summarised', problem: null });
    // A derived the turn B left pending before its own, in turn order; B's answer, built on older facts, is not written.
    expect(calls()).toBe(1);
    expect((await inA.facts()).map((fact) => fact.text).sort()).toEqual(['budget: $4,000', 'deadline: March 9']);
    expect((await inA.factEvents()).map((event) => [event.sequence, event.turn, event.op])).toEqual([[1, 1, 'add'], [2, 2, 'add'], [3, 3, 'update']]);
  });

  it('a turn whose facts a user changed in another process meanwhile is derived again on the facts as they are', async () => {
    const { inA, inB, release, calls } = await twoWriters();
    const second = inB.record({ user: 'The deadline moved to March 9.', assistant: 'Noted.' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await inA.facts.add({ text: 'venue: the Old Mill', reason: 'booked it by phone' });
    release();
    expect(await second).toMatchObject({ status: 'summarised', problem: null });
    expect(calls()).toBe(2);
    expect((await inA.factEvents()).map((event) => [event.sequence, event.turn, event.op, event.actor])).toEqual([
      [1, 1, 'add', 'local'],
      [2, 2, 'add', 'user'],
      [3, 2, 'add', 'local'],
    ]);
  });

  it('a consolidation answered after another process changed the facts is dropped, and the change stands', async () => {
    const path = sharedFile();
    const local = createLocalMemoryManager();
    const { held, release } = latch();
    const { held: started, release: consolidating } = latch();
    // A's consolidation drops the oldest fact, but answers only once B has changed the facts.
    const dropping: MemoryManager = {
      name: 'local',
      processTurn: (options) => local.processTurn(options),
      consolidate: async ({ facts }) => {
        consolidating();
        await held;
        const oldest = facts[0];
        if (oldest === undefined) return { outcome: 'accepted', changes: [] };
        return { outcome: 'accepted', changes: [{ op: 'consolidate', factId: oldest.id, key: oldest.key, kind: oldest.kind, oldText: oldest.text, newText: null, reason: 'tidied', sourceMessageIds: oldest.sourceMessageIds }] };
      },
    };
    const env = { STRATA_LOG_LEVEL: 'silent', STRATA_CONSOLIDATE_EVERY_TURNS: '1' };
    const a = createMemory({ path, env, manager: dropping });
    const b = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent' } });
    cleanups.push(() => a.close(), () => b.close());
    const inA = await a.sessions.create();
    const recorded = inA.record({ user: 'Our budget is $3,000.', assistant: 'Noted.' });
    await started;
    const inB = await b.sessions.open(inA.id);
    const budget = (await inB.facts()).find((fact) => fact.key === 'budget');
    await inB.facts.edit({ fact: budget?.id ?? '', text: 'budget: $3,500', reason: 'finance raised it' });
    release();
    await recorded;
    expect((await inA.facts()).map((fact) => fact.text)).toEqual(['budget: $3,500']);
    expect((await inA.factEvents()).map((event) => event.op)).toEqual(['add', 'update']);
  });
});
