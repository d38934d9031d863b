/**
 * Keeps a tenant's vector index up to date: a session's messages not yet embedded are embedded in
 * batches, oldest first, and stored with the embedder's space. One catch-up of a session runs at a time
 * in a memory, so no message is embedded twice by it: a full one is shared by whoever asks for one while
 * it runs, and goes on after a read's batch; a read asks for at most a batch of its own and never waits
 * for another catch-up. After a failure the indexer rests before it
 * calls the embedder again (30 s, doubling to 10 minutes), so an endpoint that is down is not asked on
 * every write and read, and a paid one is not sent the same texts over and over.
 */
import { StrataError } from '../core/errors.js';
import { cutBetweenCharacters } from '../core/text.js';
import type { Embedder } from '../providers/embedder/embedder.js';
import type { MessageVectors } from '../store/store.js';

/** Messages embedded per call to the embedder. */
const BATCH = 256;
const FIRST_REST_MS = 30_000;
const LONGEST_REST_MS = 10 * 60_000;

export interface CatchUpOptions {
  /** Stop after this many batches (default: until nothing is left). */
  maxBatches?: number;
  /** When a catch-up of the session is running: wait for it (true, default) or return at once. */
  join?: boolean;
}

export interface CatchUpResult {
  embedded: number;
  /** Whether the session has nothing left to embed (as far as this call knows). */
  complete: boolean;
}

export interface VectorIndexer {
  readonly embedder: Embedder;
  /** Embed and store what the session lacks (see `CatchUpOptions`). Fails while resting after a failure. */
  catchUp(sessionId: string, options?: CatchUpOptions): Promise<CatchUpResult>;
  /** True while the indexer rests after a failure: the embedder is not called. */
  resting(): boolean;
}

/** Told how many messages of a session were embedded and stored, batch by batch. */
export type EmbeddedListener = (sessionId: string, count: number) => void;

export interface VectorIndexerOptions {
  onEmbedded?: EmbeddedListener;
  /**
   * Awaited between two batches of a catch-up (default: none). With the offline embedder and SQLite a
   * batch is synchronous work on the calling thread, so a catch-up that never lets the event loop turn
   * holds every timer and request until it ends: a 100,000-message backlog blocked the first read of
   * its session for 7.5-10.7 s. The engine passes one turn of the event loop.
   */
  pause?: () => Promise<void>;
  /** Milliseconds now (default `Date.now`). */
  now?: () => number;
}

/** Whether a vector is all zeros: the embedder knew no word of its text, and it is like nothing. */
export function isZeroVector(vector: readonly number[]): boolean {
  return vector.every((value) => value === 0);
}

const ignore = (): void => undefined;

/**
 * Characters of a text an embedder is given at most: a message's beginning and its end. Embedding
 * endpoints refuse inputs past their limit (8,191 tokens for OpenAI's), so a pasted log or file would
 * fail its batch every time and hold up the session's index; the offline embedder spent about 110 ms on
 * a 500 KB message. 4,000 characters stay under 8,000 tokens even as emoji or combining marks, and carry
 * what a message is about.
 */
export const EMBEDDED_CHARACTERS = 4_000;

/** The part of `text` an embedder is given (see `EMBEDDED_CHARACTERS`): all of it when short enough. */
export function embeddedText(text: string): string {
  if (text.length <= EMBEDDED_CHARACTERS) return text;
  // Three quarters from the beginning, a quarter from the end (where a long paste often says what it is for).
  const head = text.slice(0, cutBetweenCharacters(text, EMBEDDED_CHARACTERS * 0.75, -1));
  return `${head}\n…\n${text.slice(cutBetweenCharacters(text, text.length - EMBEDDED_CHARACTERS / 4 + 3, 1))}`;
}

/**
 * An indexer over `vectors`. The embedder may be given as a function, called on first use (a memory
 * that never searches nor writes never makes it); when it fails, `resting()` and `embedder` throw.
 */
export function createVectorIndexer(vectors: MessageVectors, source: Embedder | (() => Embedder), options: VectorIndexerOptions = {}): VectorIndexer {
  const now = options.now ?? Date.now;
  let made = typeof source === 'function' ? undefined : source;
  const embedderNow = (): Embedder => (made ??= (source as () => Embedder)());
  /** The catch-up running for each session, and whether it goes until nothing is left. */
  const running = new Map<string, { work: Promise<CatchUpResult>; full: boolean }>();
  let restUntil = 0;
  let rest = 0;

  const embedBatch = async (sessionId: string): Promise<number> => {
    const embedder = embedderNow();
    const pending = await vectors.pending({ sessionId, space: embedder.id, limit: BATCH });
    if (pending.length === 0) return 0;
    const result = await embedder.embed({ texts: pending.map((message) => embeddedText(message.text)) });
    if (result.vectors.length !== pending.length || result.vectors.some((vector) => vector.length !== result.dimensions)) {
      throw new StrataError('MODEL_OUTPUT_INVALID', `The embedder "${embedder.id}" gave ${result.vectors.length} vectors for ${pending.length} texts, or vectors of another length than ${result.dimensions}; nothing was stored.`);
    }
    await vectors.put({
      sessionId,
      space: embedder.id,
      dimensions: result.dimensions,
      entries: pending.map((message, index) => {
        const vector = result.vectors[index] ?? [];
        return { messageId: message.messageId, vector: isZeroVector(vector) ? null : Float32Array.from(vector) };
      }),
    });
    options.onEmbedded?.(sessionId, pending.length);
    return pending.length;
  };

  const run = async (sessionId: string, catchUp: CatchUpOptions): Promise<CatchUpResult> => {
    // A store that found no vector support when it connected has nothing to catch up (see MessageVectors.available).
    if (!vectors.available) return { embedded: 0, complete: true };
    if (now() < restUntil) throw new StrataError('MODEL_FAILURE', `Embedding rests after a failure until ${new Date(restUntil).toISOString()}.`);
    let embedded = 0;
    try {
      for (let batch = 0; batch < (catchUp.maxBatches ?? Number.POSITIVE_INFINITY); batch += 1) {
        const count = await embedBatch(sessionId);
        embedded += count;
        if (count < BATCH) {
          rest = 0;
          return { embedded, complete: true };
        }
        if (batch + 1 < (catchUp.maxBatches ?? Number.POSITIVE_INFINITY)) await options.pause?.();
      }
      rest = 0;
      return { embedded, complete: false };
    } catch (error) {
      rest = Math.min(LONGEST_REST_MS, rest === 0 ? FIRST_REST_MS : rest * 2);
      restUntil = now() + rest;
      throw error;
    }
  };

  return {
    get embedder() {
      return embedderNow();
    },
    resting: () => {
      embedderNow();
      return now() < restUntil;
    },
    catchUp(sessionId, catchUp = {}) {
      const full = catchUp.maxBatches === undefined;
      const known = running.get(sessionId);
      if (known !== undefined && catchUp.join === false) return Promise.resolve({ embedded: 0, complete: false });
      if (known !== undefined && (known.full || !full)) return known.work;
      // (A full catch-up asked for while a read's batch runs goes on after it.)
      const before = known === undefined ? Promise.resolve() : known.work.then(ignore, ignore);
      const entry = { work: before.then(() => run(sessionId, catchUp)), full };
      entry.work = entry.work.finally(() => {
        if (running.get(sessionId) === entry) running.delete(sessionId);
      });
      running.set(sessionId, entry);
      return entry.work;
    },
  };
}
