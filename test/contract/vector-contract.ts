/**
 * The store contract for the vector index: run by every adapter's test file beside `describeStoreContract`.
 * Its reference is an exact scan computed here: on small data every adapter must return the same
 * neighbours, in the same order, as comparing the query with every stored vector.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/types.js';
import type { TenantStore } from '../../src/store/store.js';
import { seedSession, type OpenStore } from './store-contract.js';

const SPACE = 'test-space-8';
const DIMENSIONS = 8;

/** A deterministic pseudo-random vector (xorshift over the seed). */
function vectorFor(seed: number): Float32Array {
  let state = (seed * 2654435761) >>> 0 || 1;
  return Float32Array.from({ length: DIMENSIONS }, () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 0xffffffff) * 2 - 1;
  });
}

function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let a = 0;
  let b = 0;
  left.forEach((value, index) => {
    const other = right[index] ?? 0;
    dot += value * other;
    a += value * value;
    b += other * other;
  });
  return dot / Math.sqrt(a * b);
}

const EXCHANGES: ReadonlyArray<readonly [string, string]> = Array.from({ length: 12 }, (_, index) => [
  `Question ${index + 1} about the garden shed order.`,
  `Answer ${index + 1}: the shed arrives in week ${index + 10}.`,
] as const);

export function describeVectorContract(name: string, openStore: OpenStore): void {
  describe(`Store contract, vectors: ${name}`, () => {
    let tenant: TenantStore;
    let cleanup: () => Promise<void>;
    let messages: Message[];

    beforeEach(async () => {
      const opened = await openStore();
      cleanup = opened.cleanup;
      tenant = opened.store.tenant('tenant-alpha');
      messages = await seedSession(tenant, 's-vec', EXCHANGES);
    });

    afterEach(async () => {
      await cleanup();
    });

    const putAll = async (sessionId: string, list: readonly Message[], seedOffset = 0): Promise<void> => {
      await tenant.vectors.put({
        sessionId,
        space: SPACE,
        dimensions: DIMENSIONS,
        entries: list.map((message) => ({ messageId: message.id, vector: vectorFor(message.position + 1 + seedOffset) })),
      });
    };

    it('is available, and lists every message as pending, in position order, until it is embedded', async () => {
      expect(tenant.vectors.available).toBe(true);
      const pending = await tenant.vectors.pending({ sessionId: 's-vec', space: SPACE, limit: 5 });
      expect(pending).toEqual(messages.slice(0, 5).map((message) => ({ messageId: message.id, position: message.position, text: message.content })));
      await putAll('s-vec', messages.slice(0, 7));
      const rest = await tenant.vectors.pending({ sessionId: 's-vec', space: SPACE, limit: 100 });
      expect(rest.map((entry) => entry.messageId)).toEqual(messages.slice(7).map((message) => message.id));
      // A message with nothing to embed (a null vector) is no longer pending, and never found.
      await tenant.vectors.put({ sessionId: 's-vec', space: SPACE, dimensions: DIMENSIONS, entries: [{ messageId: messages[7]!.id, vector: null }] });
      expect((await tenant.vectors.pending({ sessionId: 's-vec', space: SPACE, limit: 1 }))[0]?.messageId).toBe(messages[8]!.id);
      const everything = await tenant.vectors.nearest({ sessionId: 's-vec', space: SPACE, vector: vectorFor(1), limit: 100 });
      expect(everything.map((hit) => hit.messageId).sort()).toEqual(messages.slice(0, 7).map((message) => message.id).sort());
      // Another space has its own progress.
      expect(await tenant.vectors.pending({ sessionId: 's-vec', space: 'other-space', limit: 100 })).toHaveLength(messages.length);
    });

    it('returns the same neighbours, in the same order, as an exact scan, within the turns asked for', async () => {
      await putAll('s-vec', messages);
      for (const seed of [101, 202, 303, 404]) {
        const query = vectorFor(seed);
        for (const maxTurn of [undefined, 5]) {
          const eligible = messages.filter((message) => maxTurn === undefined || message.turn <= maxTurn);
          const exact = eligible
            .map((message) => ({ message, similarity: cosine(vectorFor(message.position + 1), query) }))
            .sort((a, b) => b.similarity - a.similarity || a.message.position - b.message.position)
            .slice(0, 6);
          const found = await tenant.vectors.nearest({ sessionId: 's-vec', space: SPACE, vector: query, limit: 6, ...(maxTurn === undefined ? {} : { maxTurn }) });
          expect(found.map((hit) => hit.messageId)).toEqual(exact.map((entry) => entry.message.id));
          found.forEach((hit, index) => {
            expect(hit.turn).toBe(exact[index]?.message.turn);
            expect(hit.similarity).toBeCloseTo(exact[index]?.similarity ?? Number.NaN, 4);
          });
        }
      }
    });

    it('keeps sessions apart, replaces a vector stored again, and drops a session\'s vectors with it', async () => {
      const other = await seedSession(tenant, 's-other', EXCHANGES.slice(0, 3));
      await putAll('s-vec', messages);
      await putAll('s-other', other);
      const query = vectorFor(messages[3]!.position + 1);
      const own = await tenant.vectors.nearest({ sessionId: 's-vec', space: SPACE, vector: query, limit: 100 });
      expect(own).toHaveLength(messages.length);
      expect(own[0]).toMatchObject({ messageId: messages[3]!.id });
      expect(own[0]!.similarity).toBeCloseTo(1, 5);
      expect(new Set(own.map((hit) => hit.messageId))).toEqual(new Set(messages.map((message) => message.id)));
      // Stored again with other vectors: the new ones answer.
      await putAll('s-vec', messages, 1000);
      const replaced = await tenant.vectors.nearest({ sessionId: 's-vec', space: SPACE, vector: vectorFor(messages[3]!.position + 1001), limit: 1 });
      expect(replaced[0]).toMatchObject({ messageId: messages[3]!.id });
      expect(await tenant.vectors.nearest({ sessionId: 's-vec', space: SPACE, vector: query, limit: 100 })).toHaveLength(messages.length);
      expect(await tenant.sessions.delete({ sessionId: 's-vec' })).toBe(true);
      expect(await tenant.vectors.nearest({ sessionId: 's-vec', space: SPACE, vector: query, limit: 100 })).toEqual([]);
      expect(await tenant.vectors.nearest({ sessionId: 's-other', space: SPACE, vector: query, limit: 100 })).toHaveLength(other.length);
    });

    it('refuses a vector of another length or for a message of another session, storing nothing of the call', async () => {
      await putAll('s-vec', messages.slice(0, 2));
      const wrongLength = tenant.vectors.put({ sessionId: 's-vec', space: SPACE, dimensions: 4, entries: [{ messageId: messages[2]!.id, vector: new Float32Array(4) }] });
      await expect(wrongLength).rejects.toMatchObject({ code: 'STORE_FAILURE' });
      const foreign = tenant.vectors.put({
        sessionId: 's-vec',
        space: SPACE,
        dimensions: DIMENSIONS,
        entries: [
          { messageId: messages[2]!.id, vector: vectorFor(3) },
          { messageId: 'no-such-message', vector: vectorFor(4) },
        ],
      });
      await expect(foreign).rejects.toMatchObject({ code: 'STORE_FAILURE' });
      const pending = await tenant.vectors.pending({ sessionId: 's-vec', space: SPACE, limit: 1 });
      expect(pending[0]?.messageId).toBe(messages[2]!.id);
      // An empty space or another tenant answers nothing.
      expect(await tenant.vectors.nearest({ sessionId: 's-vec', space: 'empty-space', vector: vectorFor(1), limit: 5 })).toEqual([]);
    });
  });
}
