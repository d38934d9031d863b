import { StrataError } from '../../core/errors.js';
import { words } from '../../core/text.js';
import type { Embedder, EmbedOptions, EmbedResult } from './embedder.js';
import { bundledWordVectorsPath, loadWordVectors, type WordVectorTable } from './word-vector-table.js';

const UNRELATED_BELOW = 0.2;

export interface WordVectorEmbedderSettings {
  /** The word vectors (default: the bundled English table, 50,000 words of 100 dimensions, read on first use). */
  table?: WordVectorTable;
  /** Names the vector space (default `word-vectors-en-100d-sif`; give another with another table). */
  id?: string;
  /** Smooth inverse frequency's `a` (default 0.001): a word of probability p weighs a / (a + p). */
  smoothing?: number;
}

let bundled: WordVectorTable | undefined;

/**
 * The bundled table, read once per process: it is immutable data (about 25 MB in memory), like a
 * tokenizer's vocabulary, so every memory of the process shares it.
 */
function bundledTable(): WordVectorTable {
  bundled ??= loadWordVectors(bundledWordVectorsPath());
  return bundled;
}

/** A word's probability, estimated from its frequency rank by Zipf's law over a vocabulary of `size` words. */
function zipfProbability(rank: number, size: number): number {
  const harmonic = Math.log(size) + 0.5772;
  return 1 / ((rank + 1) * harmonic);
}

interface Weighted {
  table: WordVectorTable;
  /** Each row's weight, a / (a + p). */
  weights: Float32Array;
  /** The unit direction every sentence shares (removed from each embedding), or null when there is none. */
  common: Float32Array | null;
}

function normalise(vector: Float32Array): Float32Array {
  let squares = 0;
  for (const value of vector) squares += value * value;
  const length = Math.sqrt(squares);
  if (length > 0) for (let index = 0; index < vector.length; index += 1) vector[index] = (vector[index] ?? 0) / length;
  return vector;
}

/**
 * The weights, and the common direction: the expected weighted vector of one word of running text
 * (each row weighted by its probability too), which otherwise dominates every sentence's sum.
 */
function weigh(table: WordVectorTable, smoothing: number): Weighted {
  const size = table.rows.size;
  const { dimensions, vectors } = table;
  const weights = new Float32Array(size);
  const common = new Float32Array(dimensions);
  for (let row = 0; row < size; row += 1) {
    const probability = zipfProbability(row, size);
    const weight = smoothing / (smoothing + probability);
    weights[row] = weight;
    for (let index = 0; index < dimensions; index += 1) common[index] = (common[index] ?? 0) + weight * probability * (vectors[row * dimensions + index] ?? 0);
  }
  const direction = normalise(common);
  return { table, weights, common: direction.some((value) => value !== 0) ? direction : null };
}

/** The text's weighted sum of word vectors without the common direction, unit length; all zeros when no word is known. */
function embedText(text: string, { table, weights, common }: Weighted): number[] {
  const { dimensions, rows, vectors } = table;
  const sum = new Float32Array(dimensions);
  let known = 0;
  for (const word of words(text)) {
    const row = rows.get(word);
    if (row === undefined) continue;
    known += 1;
    const weight = weights[row] ?? 0;
    for (let index = 0; index < dimensions; index += 1) sum[index] = (sum[index] ?? 0) + weight * (vectors[row * dimensions + index] ?? 0);
  }
  if (known === 0) return Array.from(sum);
  if (common !== null) {
    let projection = 0;
    for (let index = 0; index < dimensions; index += 1) projection += (sum[index] ?? 0) * (common[index] ?? 0);
    for (let index = 0; index < dimensions; index += 1) sum[index] = (sum[index] ?? 0) - projection * (common[index] ?? 0);
  }
  return Array.from(normalise(sum));
}

/**
 * The offline default embedder: pre-trained word vectors (GloVe-based, bundled) averaged with smooth
 * inverse-frequency weights, without the direction all sentences share (Arora, Liang and Ma, 2017).
 * It carries meaning a lexical match misses ("hiking" is near "camping", "kids" near "children"); words
 * it does not know (most names, codes) add nothing, which the lexical index covers. A text with no known
 * word embeds to all zeros.
 */
export function createWordVectorEmbedder(settings: WordVectorEmbedderSettings = {}): Embedder {
  const smoothing = settings.smoothing ?? 0.001;
  if (!(smoothing > 0 && smoothing <= 1)) {
    throw new StrataError('INVALID_CONFIG', `The word-vector embedder's smoothing must be above 0 and at most 1, not ${String(smoothing)}.`, { details: { option: 'smoothing' } });
  }
  let weighted: Weighted | undefined;
  const ready = (): Weighted => (weighted ??= weigh(settings.table ?? bundledTable(), smoothing));
  return {
    id: settings.id ?? 'word-vectors-en-100d-sif',
    // Unrelated texts score between about -0.2 and 0.2 here (they share function words at most); on
    // LoCoMo's dev split, ignoring neighbours under 0.2 kept nearly all of hybrid recall's gain.
    unrelatedBelow: UNRELATED_BELOW,
    embed(options: EmbedOptions): Promise<EmbedResult> {
      if (options.signal?.aborted === true) {
        return Promise.reject(new StrataError('MODEL_ABORTED', 'Embedding was cancelled by the caller.', { cause: options.signal.reason }));
      }
      try {
        const parts = ready();
        return Promise.resolve({ vectors: options.texts.map((text) => embedText(text, parts)), dimensions: parts.table.dimensions, usage: { promptTokens: 0 } });
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
