/** Tokens billed for one call; 0 for offline embedders and endpoints that do not report usage. */
export interface EmbeddingUsage {
  promptTokens: number;
}

export interface EmbedOptions {
  /** Texts to embed; the result has one vector per text, in the same order. */
  texts: readonly string[];
  /** Cancels the call; it then fails with `MODEL_ABORTED`. */
  signal?: AbortSignal;
}

export interface EmbedResult {
  /** One vector per text, all of length `dimensions`. */
  vectors: number[][];
  /** Length of every vector (0 when no texts were given and the embedder does not know it in advance). */
  dimensions: number;
  usage: EmbeddingUsage;
}

/**
 * Turns texts into vectors for similarity search. Vectors from different embedders live in different
 * spaces: store `id` next to them and never compare across ids.
 */
export interface Embedder {
  /** Names the vector space, e.g. `lexical-hash-256` or `openai:text-embedding-3-small`. */
  readonly id: string;
  /**
   * Cosine similarity under which two texts are unrelated for this embedder (its noise floor): hybrid
   * recall ignores neighbours below it. Absent: every neighbour counts.
   */
  readonly unrelatedBelow?: number;
  embed(options: EmbedOptions): Promise<EmbedResult>;
}
