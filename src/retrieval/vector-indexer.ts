/**
 * Keeps a tenant's vector index up to date: a session's messages not yet embedded are embedded in
 * batches, oldest first, and stored with the embedder's space. Work on one session is shared by whoever
 * asks while it runs (a turn just stored and a read wanting fresh vectors), so no message is embedded
 * twice by one memory.
 */
import type { Embedder } from '../providers/embedder/embedder.js';
import type { MessageVectors } from '../store/store.js';

/** Messages embedded per call to the embedder. */
const BATCH = 256;

export interface VectorIndexer {
  readonly embedder: Embedder;
  /** Embed and store what the session lacks; resolves with how many messages were embedded. */
  catchUp(sessionId: string, options?: { signal?: AbortSignal }): Promise<number>;
}

function isZero(vector: readonly number[]): boolean {
  return vector.every((value) => value === 0);
}

/** Told how many messages of a session were embedded and stored, batch by batch. */
export type EmbeddedListener = (sessionId: string, count: number) => void;

export function createVectorIndexer(vectors: MessageVectors, embedder: Embedder, onEmbedded?: EmbeddedListener): VectorIndexer {
  const running = new Map<string, Promise<number>>();

  const run = async (sessionId: string, signal: AbortSignal | undefined): Promise<number> => {
    let embedded = 0;
    for (;;) {
      const pending = await vectors.pending({ sessionId, space: embedder.id, limit: BATCH });
      if (pending.length === 0) return embedded;
      const result = await embedder.embed({ texts: pending.map((message) => message.text), ...(signal === undefined ? {} : { signal }) });
      await vectors.put({
        sessionId,
        space: embedder.id,
        dimensions: result.dimensions,
        entries: pending.map((message, index) => {
          const vector = result.vectors[index] ?? [];
          return { messageId: message.messageId, position: message.position, vector: isZero(vector) ? null : Float32Array.from(vector) };
        }),
      });
      embedded += pending.length;
      onEmbedded?.(sessionId, pending.length);
    }
  };

  return {
    embedder,
    catchUp(sessionId, options = {}) {
      const known = running.get(sessionId);
      if (known !== undefined) return known;
      const work = run(sessionId, options.signal).finally(() => running.delete(sessionId));
      running.set(sessionId, work);
      return work;
    },
  };
}
