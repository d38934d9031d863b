import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/providers/embedder/embedder.js';
import { createVectorIndexer, EMBEDDED_CHARACTERS, embeddedText } from '../../src/retrieval/vector-indexer.js';
import { seedSession } from '../contract/store-contract.js';
import { createInMemoryStore } from '../support/in-memory-store.js';

const EXCHANGES: ReadonlyArray<readonly [string, string]> = [
  ['Paint the fence blue.', 'Exterior paint, then.'],
  ['The gate needs oiling.', 'Oil it on Sunday.'],
];

describe('the vector indexer', () => {
  it('stores nothing and rests when the embedder gives fewer vectors than texts, then tries again after the rest', async () => {
    const tenant = createInMemoryStore().tenant('acme');
    await seedSession(tenant, 's1', EXCHANGES);
    let short = true;
    let calls = 0;
    const embedder: Embedder = {
      id: 'short-2',
      embed: ({ texts }) => {
        calls += 1;
        const vectors = texts.map(() => [1, 0]);
        return Promise.resolve({ vectors: short ? vectors.slice(1) : vectors, dimensions: 2, usage: { promptTokens: 0 } });
      },
    };
    let now = 1_000_000;
    const embedded: number[] = [];
    const indexer = createVectorIndexer(tenant.vectors, embedder, { now: () => now, onEmbedded: (_session, count) => embedded.push(count) });
    await expect(indexer.catchUp('s1')).rejects.toMatchObject({ code: 'MODEL_OUTPUT_INVALID' });
    expect(await tenant.vectors.pending({ sessionId: 's1', space: 'short-2', limit: 10 })).toHaveLength(4);
    expect(indexer.resting()).toBe(true);
    await expect(indexer.catchUp('s1')).rejects.toMatchObject({ code: 'MODEL_FAILURE' });
    expect(calls).toBe(1);
    short = false;
    now += 30_001;
    expect(indexer.resting()).toBe(false);
    expect(await indexer.catchUp('s1')).toEqual({ embedded: 4, complete: true });
    expect(embedded).toEqual([4]);
    expect(await tenant.vectors.pending({ sessionId: 's1', space: 'short-2', limit: 10 })).toEqual([]);
  });

  it('shares one full catch-up of a session between callers, and a read that will not wait returns at once', async () => {
    const tenant = createInMemoryStore().tenant('acme');
    await seedSession(tenant, 's1', EXCHANGES);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const embedder: Embedder = {
      id: 'gated-2',
      embed: async ({ texts }) => {
        calls += 1;
        await gate;
        return { vectors: texts.map(() => [0, 1]), dimensions: 2, usage: { promptTokens: 0 } };
      },
    };
    const indexer = createVectorIndexer(tenant.vectors, embedder);
    const first = indexer.catchUp('s1');
    const second = indexer.catchUp('s1');
    expect(await indexer.catchUp('s1', { maxBatches: 1, join: false })).toEqual({ embedded: 0, complete: false });
    release();
    expect(await first).toEqual({ embedded: 4, complete: true });
    expect(await second).toEqual({ embedded: 4, complete: true });
    expect(calls).toBe(1);
  });

  it('lets the event loop turn between the batches of a long catch-up, so timers and reads are not held until it ends', async () => {
    const tenant = createInMemoryStore().tenant('acme');
    // 300 exchanges: 600 messages, three batches of at most 256.
    await seedSession(
      tenant,
      's1',
      Array.from({ length: 300 }, (_, index) => [`Question ${String(index)}`, `Answer ${String(index)}`] as const),
    );
    const embedder: Embedder = { id: 'plain-2', embed: ({ texts }) => Promise.resolve({ vectors: texts.map(() => [1, 0]), dimensions: 2, usage: { promptTokens: 0 } }) };
    const order: string[] = [];
    const indexer = createVectorIndexer(tenant.vectors, embedder, {
      onEmbedded: (_session, count) => order.push(`batch ${String(count)}`),
      pause: () => new Promise((resolve) => setImmediate(resolve)),
    });
    setImmediate(() => order.push('timer'));
    expect(await indexer.catchUp('s1')).toEqual({ embedded: 600, complete: true });
    // The timer set before the catch-up ran after its first batch, not after the last.
    expect(order).toEqual(['batch 256', 'timer', 'batch 256', 'batch 88']);
    // A read's single batch does not pause after itself.
    await seedSession(tenant, 's2', EXCHANGES);
    let paused = 0;
    const counting = createVectorIndexer(tenant.vectors, embedder, { pause: () => Promise.resolve(void (paused += 1)) });
    expect(await counting.catchUp('s2', { maxBatches: 1 })).toEqual({ embedded: 4, complete: true });
    expect(paused).toBe(0);
  });

  it("gives the embedder a long message's beginning and end, so an endpoint's input limit never holds up the session's index", async () => {
    const tenant = createInMemoryStore().tenant('acme');
    // A pasted log of 500 KB between two short exchanges.
    const log = `Here is the whole build log: ${'step ok; '.repeat(55_000)}so why does the deploy fail?`;
    await seedSession(tenant, 's1', [EXCHANGES[0] ?? ['', ''], [log, 'The last step times out.'], EXCHANGES[1] ?? ['', '']]);
    const given: string[] = [];
    const embedder: Embedder = {
      id: 'limited-2',
      // As an endpoint does: an input past its limit fails the whole call.
      embed: ({ texts }) => {
        if (texts.some((text) => text.length > EMBEDDED_CHARACTERS)) return Promise.reject(new Error('400: input too long'));
        given.push(...texts);
        return Promise.resolve({ vectors: texts.map(() => [1, 0]), dimensions: 2, usage: { promptTokens: 0 } });
      },
    };
    const indexer = createVectorIndexer(tenant.vectors, embedder);
    expect(await indexer.catchUp('s1')).toEqual({ embedded: 6, complete: true });
    const long = given.find((text) => text.startsWith('Here is the whole build log'));
    expect(long?.endsWith('so why does the deploy fail?')).toBe(true);
    expect(long?.length).toBe(EMBEDDED_CHARACTERS);
    expect(given).toContain('Paint the fence blue.');
  });

  it('cuts a long text between characters, never inside an emoji', () => {
    for (const text of ['😀'.repeat(5_000), `a${'😀'.repeat(5_000)}`, `ab${'😀'.repeat(5_000)}b`]) {
      const part = embeddedText(text);
      expect(part.length).toBeLessThanOrEqual(EMBEDDED_CHARACTERS);
      expect(part).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u);
    }
    expect(embeddedText('short')).toBe('short');
  });
});
