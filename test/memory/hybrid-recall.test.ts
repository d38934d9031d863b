/**
 * Hybrid recall in the engine: older messages found by meaning as well as by words, vectors kept up to
 * date behind the writes, an embedding endpoint used when one is set, failures that fall back to the
 * lexical index, and the archive beyond the contextual window.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContextPackage } from '../../src/context/context-package.js';
import type { Embedder } from '../../src/providers/embedder/embedder.js';
import Database from 'better-sqlite3';
import type { Store } from '../../src/store/store.js';
import { migrate } from '../../src/store/sqlite/migrate.js';
import { createMessageVectors } from '../../src/store/sqlite/vectors.js';
import { createInMemoryStore } from '../support/in-memory-store.js';
import { startScriptedServer, type RecordedRequest } from '../support/scripted-openai-server.js';
import { testMemory } from '../support/memory-fixtures.js';
import { warnings } from '../support/recording-logger.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The camping trip is told in words the question never uses; the rest is about the office move. */
const TRIP = 'We went camping by the lake last weekend with the kids.';
const QUESTION = 'Did we ever go hiking in the mountains?';
const OFFICE = [
  'The movers bring the desks to the new office on the third floor next Tuesday.',
  'Facilities say the new badge readers are installed at the main entrance.',
  'The printer lease for the new office starts in March and costs $120 a month.',
  'IT will run network cables under the raised floor before the desks arrive.',
  'The old office keys go back to the landlord at the end of the month.',
  'Reception wants a list of visitors for the first week in the new building.',
  'The kitchen on the new floor gets a second coffee machine.',
  'Parking permits for the new garage are handed out by facilities on Monday.',
];

function recalledTexts(pkg: ContextPackage): string[] {
  return pkg.sections.find((section) => section.name === 'recalled')?.items.map((item) => item.text) ?? [];
}

async function tripSession(options: Parameters<typeof testMemory>[0] = {}): Promise<ReturnType<typeof testMemory> & { sessionId: string }> {
  const fixture = testMemory(options);
  cleanups.push(fixture.cleanup);
  const session = await fixture.memory.sessions.create({ title: 'Office move' });
  await session.record({ user: TRIP, assistant: 'That sounds lovely.' });
  for (const line of OFFICE) await session.record({ user: line, assistant: 'Noted.' });
  return { ...fixture, sessionId: session.id };
}

describe('hybrid recall', () => {
  it('recalls a message that shares no word with the question, which lexical recall misses', async () => {
    const hybrid = await tripSession();
    const session = await hybrid.memory.sessions.open(hybrid.sessionId);
    const pkg = await session.context({ budget: 2000, query: QUESTION });
    expect(recalledTexts(pkg).some((text) => text.includes('camping by the lake'))).toBe(true);
    expect((await session.search({ query: QUESTION, limit: 3 })).some((hit) => hit.content === TRIP)).toBe(true);

    const lexical = await tripSession({ recall: 'lexical' });
    const plain = await lexical.memory.sessions.open(lexical.sessionId);
    expect(recalledTexts(await plain.context({ budget: 2000, query: QUESTION })).some((text) => text.includes('camping by the lake'))).toBe(false);
    expect((await plain.search({ query: QUESTION, limit: 3 })).some((hit) => hit.content === TRIP)).toBe(false);
  });

  it('embeds each write in the background and counts it; a query about nothing in the session recalls nothing', async () => {
    const { memory, sessionId } = await tripSession();
    await vi.waitFor(async () => expect((await memory.stats({ sessionId })).messagesEmbedded).toBe(2 * (OFFICE.length + 1)));
    const session = await memory.sessions.open(sessionId);
    expect(recalledTexts(await session.context({ budget: 2000, query: 'zebra xylophone quasar' }))).toEqual([]);
    expect((await memory.stats()).embeddingFailures).toBe(0);
  });

  it('answers lexically, logs and counts when the embedder fails, and catches up once it works again', async () => {
    let failing = true;
    const calls: string[][] = [];
    const flaky: Embedder = {
      id: 'flaky-2',
      embed: ({ texts }) => {
        calls.push([...texts]);
        if (failing) return Promise.reject(new Error('embedding endpoint unreachable'));
        return Promise.resolve({ vectors: texts.map((text) => (/camping|hiking/iu.test(text) ? [1, 0] : [0, 1])), dimensions: 2, usage: { promptTokens: 0 } });
      },
    };
    const { memory, sessionId, logs } = await tripSession({ embedder: flaky });
    const session = await memory.sessions.open(sessionId);
    await vi.waitFor(async () => expect((await memory.stats({ sessionId })).embeddingFailures).toBeGreaterThan(0));
    // The read itself never fails for want of vectors: it is the lexical package.
    const lexical = await session.context({ budget: 2000, query: QUESTION });
    expect(recalledTexts(lexical).some((text) => text.includes('camping by the lake'))).toBe(false);
    expect(warnings(logs).some((entry) => entry.message.includes('vector recall failed'))).toBe(true);
    expect(warnings(logs).some((entry) => entry.message.includes('embedding new messages failed'))).toBe(true);
    failing = false;
    const recovered = await session.context({ budget: 2000, query: QUESTION });
    expect(recalledTexts(recovered).some((text) => text.includes('camping by the lake'))).toBe(true);
    // Every message was embedded once it worked, in one batch, oldest first.
    const lastBatch = calls.filter((texts) => texts.length > 1).at(-1);
    expect(lastBatch?.[0]).toBe(TRIP);
  });

  it('never calls the embedder with lexical recall', async () => {
    const embed = vi.fn<Embedder['embed']>();
    const { memory, sessionId } = await tripSession({ recall: 'lexical', embedder: { id: 'unused', embed } });
    const session = await memory.sessions.open(sessionId);
    await session.context({ budget: 2000, query: QUESTION });
    await session.search({ query: QUESTION });
    expect(embed).not.toHaveBeenCalled();
  });

  it('uses the STRATA_EMBEDDING_* endpoint when it is set, in batches, for messages and queries', async () => {
    const answer = (request: RecordedRequest): { vectors: number[][] } => {
      const input = (request.body as { input: string[] }).input;
      return { vectors: input.map((text) => (/camping|hiking/iu.test(text) ? [0.9, 0.1, 0] : [0, 0.2, 0.9])) };
    };
    const server = await startScriptedServer({ script: Array.from({ length: 40 }, () => answer) });
    cleanups.push(() => server.close());
    const { memory, sessionId } = await tripSession({ env: { STRATA_EMBEDDING_MODEL: 'scripted-embedder', STRATA_EMBEDDING_BASE_URL: server.baseUrl } });
    const session = await memory.sessions.open(sessionId);
    const pkg = await session.context({ budget: 2000, query: QUESTION });
    expect(recalledTexts(pkg).some((text) => text.includes('camping by the lake'))).toBe(true);
    const embeddings = server.requests.filter((request) => request.path === '/v1/embeddings');
    const inputs = embeddings.map((request) => (request.body as { input: string[]; model: string }).input);
    expect(embeddings.every((request) => (request.body as { model: string }).model === 'scripted-embedder')).toBe(true);
    // Every message went to the endpoint exactly once; the query went too.
    const sent = inputs.flat();
    expect(sent.filter((text) => text === TRIP)).toHaveLength(1);
    expect(sent).toContain(QUESTION);
    expect(server.problems).toEqual([]);
  });
});

describe('a store that keeps no vectors', () => {
  it('says why its vector calls fail (SQLite without sqlite-vec)', async () => {
    const db = new Database(':memory:');
    migrate(db, '2026-03-01T09:00:00.000Z');
    try {
      const vectors = createMessageVectors(db, 'acme', async (work) => work(), { loaded: false, reason: 'Cannot find module sqlite-vec' });
      expect(vectors.available).toBe(false);
      await expect(vectors.pending({ sessionId: 's', space: 'x', limit: 1 })).rejects.toMatchObject({ code: 'STORE_FAILURE', message: expect.stringContaining('sqlite-vec') });
    } finally {
      db.close();
    }
  });

  it('gives lexical recall, with one warning that says how to get vectors', async () => {
    const inner = createInMemoryStore();
    const store: Store = {
      ...inner,
      tenant: (tenantId) => {
        const tenant = inner.tenant(tenantId);
        const none = (): Promise<never> => Promise.reject(new Error('no vectors here'));
        return { ...tenant, vectors: { available: false, pending: none, put: none, nearest: none } };
      },
    };
    const { memory, sessionId, logs } = await tripSession({ store });
    const session = await memory.sessions.open(sessionId);
    expect(recalledTexts(await session.context({ budget: 2000, query: QUESTION })).some((text) => text.includes('camping by the lake'))).toBe(false);
    const found = warnings(logs).filter((entry) => entry.message.includes('keeps no vectors'));
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain('sqlite-vec');
    expect((await memory.stats()).embeddingFailures).toBe(0);
  });
});

describe('the archive beyond the contextual window', () => {
  it('leaves turns beyond the window out of the history as archived, and recall still finds them', async () => {
    const fixture = testMemory({ contextWindowTokens: 1000 });
    cleanups.push(fixture.cleanup);
    const session = await fixture.memory.sessions.create({ title: 'Long' });
    await session.record({ user: 'The storage unit code is 5521 and the unit is number 14 on the second floor.', assistant: 'Noted.' });
    const filler = 'We went over the shipping schedule again today, checked each pallet against the manifest, and agreed to meet the carrier at the dock early.';
    for (let turn = 2; turn <= 60; turn += 1) await session.record({ user: `Day ${turn}: ${filler}`, assistant: `Logged day ${turn}.` });
    const plain = await session.context({ budget: 20_000 });
    const archived = plain.omitted.find((omission) => omission.reason.startsWith('archived:'));
    expect(archived?.reason).toContain('contextual window (1,000 tokens');
    expect(archived?.turns?.from).toBe(1);
    const history = plain.sections.find((section) => section.name === 'history')?.items ?? [];
    expect(history.some((item) => item.text.includes('5521'))).toBe(false);
    // Still stored, exported and found.
    expect((await session.messages())[0]?.content).toContain('5521');
    const asked = await session.context({ budget: 20_000, query: 'storage unit code' });
    expect(recalledTexts(asked).some((text) => text.includes('5521'))).toBe(true);
  });
});
