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

  it('answers lexically, logs and counts when the embedder fails, rests before asking it again, and catches up once it works', async () => {
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
    let clock = Date.parse('2026-03-01T09:00:00.000Z');
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock);
    cleanups.push(async () => now.mockRestore());
    const { memory, sessionId, logs } = await tripSession({ embedder: flaky });
    const session = await memory.sessions.open(sessionId);
    await vi.waitFor(async () => expect((await memory.stats({ sessionId })).embeddingFailures).toBeGreaterThan(0));
    // Resting after the failure: reads are lexical and do not call the embedder.
    const asked = calls.length;
    const lexical = await session.context({ budget: 2000, query: QUESTION });
    expect(recalledTexts(lexical).some((text) => text.includes('camping by the lake'))).toBe(false);
    await session.record({ user: 'One more office note: the plants go by the windows.', assistant: 'Noted.' });
    expect(calls.length).toBe(asked);
    expect(warnings(logs).some((entry) => entry.message.includes('embedding messages failed'))).toBe(true);
    // Once the rest is over and the embedder works, the next read embeds and recalls by meaning.
    failing = false;
    clock += 31_000;
    const recovered = await session.context({ budget: 2000, query: QUESTION });
    expect(recalledTexts(recovered).some((text) => text.includes('camping by the lake'))).toBe(true);
    // Every message was embedded once it worked, oldest first.
    expect(calls.find((texts) => texts.length > 1 && !failing && texts[0] === TRIP)).toBeDefined();
  });

  it('embeds at most a batch itself on a read, leaving a long backlog to the background', async () => {
    const batches: number[] = [];
    const counting: Embedder = {
      id: 'counting-2',
      embed: ({ texts }) => {
        batches.push(texts.length);
        return Promise.resolve({ vectors: texts.map((text) => (/camping|hiking/iu.test(text) ? [1, 0] : [0, 1])), dimensions: 2, usage: { promptTokens: 0 } });
      },
    };
    const fixture = testMemory({ recall: 'lexical' });
    cleanups.push(fixture.cleanup);
    const lines = Array.from({ length: 700 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: index === 0 ? TRIP : `Office note ${index}: the movers come on Tuesday.` }));
    const { sessionId } = await fixture.memory.sessions.import({ data: lines, title: 'Backlog' });
    // A hybrid memory on the same file, on which nothing is embedded yet.
    const hybrid = testMemory({ path: fixture.path, embedder: counting });
    cleanups.push(hybrid.cleanup);
    const session = await hybrid.memory.sessions.open(sessionId);
    await session.context({ budget: 2000, query: QUESTION });
    // The read's own batch (256 texts) and the query; the rest comes in the background.
    expect(batches.slice(0, 2)).toEqual([256, 1]);
    await vi.waitFor(async () => expect((await hybrid.memory.stats({ sessionId })).messagesEmbedded).toBe(700));
    expect(batches.filter((size) => size > 1).reduce((sum, size) => sum + size, 0)).toBe(700);
  });

  it('counts no failure when a session is deleted while its messages are being embedded', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Embedder = {
      id: 'slow-2',
      embed: async ({ texts }) => {
        await gate;
        return { vectors: texts.map(() => [1, 0]), dimensions: 2, usage: { promptTokens: 0 } };
      },
    };
    const fixture = testMemory({ embedder: slow });
    cleanups.push(fixture.cleanup);
    const session = await fixture.memory.sessions.create({ title: 'Short-lived' });
    await session.record({ user: 'A note to forget.', assistant: 'Forgotten soon.' });
    await session.delete();
    release();
    // Closing waits for the background work: by then it has found the session gone.
    await fixture.memory.close();
    expect(warnings(fixture.logs)).toEqual([]);
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
      await expect(vectors.put({ sessionId: 's', space: 'x', dimensions: 2, entries: [] })).rejects.toMatchObject({ code: 'STORE_FAILURE' });
      await expect(vectors.nearest({ sessionId: 's', space: 'x', vector: Float32Array.from([1, 0]), limit: 1 })).rejects.toMatchObject({ code: 'STORE_FAILURE' });
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
  const filler = 'We went over the shipping schedule again today, checked each pallet against the manifest, and agreed to meet the carrier at the dock early.';

  /** The first turn still inside a window of `window` tokens, counting each message up to 5 % of it. */
  function firstInside(messages: ReadonlyArray<{ turn: number; tokens: { tier3: number } }>, window: number): number {
    let spent = 0;
    const lastTurn = messages.at(-1)?.turn ?? 0;
    for (let turn = lastTurn; turn >= 1; turn -= 1) {
      spent += messages.filter((message) => message.turn === turn).reduce((sum, message) => sum + Math.min(window * 0.05, message.tokens.tier3), 0);
      if (spent > window) return turn + 1;
    }
    return 1;
  }

  it('leaves turns beyond the window out of the history as archived, from the right turn, and recall still finds them', async () => {
    const fixture = testMemory({ contextWindowTokens: 1000 });
    cleanups.push(fixture.cleanup);
    const session = await fixture.memory.sessions.create({ title: 'Long' });
    await session.record({ user: 'The storage unit code is 5521 and the unit is number 14 on the second floor.', assistant: 'Noted.' });
    for (let turn = 2; turn <= 60; turn += 1) await session.record({ user: `Day ${turn}: ${filler}`, assistant: `Logged day ${turn}.` });
    const boundary = firstInside(await session.messages(), 1000);
    expect(boundary).toBeGreaterThan(20);
    for (const budget of [20_000, 600]) {
      const plain = await session.context({ budget });
      const archived = plain.omitted.find((omission) => omission.reason.startsWith('archived:'));
      const history = plain.sections.find((section) => section.name === 'history')?.items ?? [];
      if (budget === 20_000) {
        // Room for everything: history stops exactly at the window's edge.
        expect(archived?.reason).toContain('contextual window (1,000 tokens');
        expect(archived?.turns).toEqual({ from: 1, to: boundary - 1 });
        expect(Math.min(...history.map((item) => item.turn ?? Number.POSITIVE_INFINITY))).toBe(boundary);
      } else {
        // A budget that runs out first: the turns left out did not fit, they are not called archived.
        expect(archived).toBeUndefined();
        expect(plain.omitted.some((omission) => omission.reason.startsWith('budget: turns 1–'))).toBe(true);
      }
      expect(history.some((item) => item.text.includes('5521'))).toBe(false);
    }
    // Still stored, exported and found.
    expect((await session.messages())[0]?.content).toContain('5521');
    const asked = await session.context({ budget: 20_000, query: 'storage unit code' });
    expect(recalledTexts(asked).some((text) => text.includes('5521'))).toBe(true);
  });

  it('counts one long pasted message as a small part of the window, so it does not archive everything before it', async () => {
    const fixture = testMemory({ contextWindowTokens: 30_000 });
    cleanups.push(fixture.cleanup);
    const session = await fixture.memory.sessions.create({ title: 'Paste' });
    for (let turn = 1; turn <= 30; turn += 1) await session.record({ user: `Decision ${turn}: ${filler}`, assistant: `Agreed on ${turn}.` });
    const log = Array.from({ length: 3000 }, (_, line) => `2026-03-01 10:${String(line % 60).padStart(2, '0')} worker-${line % 7} processed batch ${line} in ${line % 90} ms`).join('\n');
    await session.record({ user: `Here is the log:\n${log}`, assistant: 'Thanks, reading it.' });
    for (let turn = 32; turn <= 38; turn += 1) await session.record({ user: `Follow-up ${turn}.`, assistant: 'Okay.' });
    expect((await session.messages()).find((message) => message.content.startsWith('Here is the log'))?.tokens.tier3).toBeGreaterThan(30_000);
    const pkg = await session.context({ budget: 8000 });
    expect(pkg.omitted.some((omission) => omission.reason.startsWith('archived:'))).toBe(false);
    const history = pkg.sections.find((section) => section.name === 'history')?.items ?? [];
    expect(history.some((item) => item.text.includes('Decision 1:'))).toBe(true);
  });
});
