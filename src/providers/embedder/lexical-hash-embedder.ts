import { StrataError } from '../../core/errors.js';
import { STOPWORDS } from '../../core/query-terms.js';
import { words } from '../../core/text.js';
import type { Embedder, EmbedOptions, EmbedResult } from './embedder.js';

export interface LexicalHashEmbedderSettings {
  /** Vector length (default 256, between 8 and 65,536). More dimensions mean fewer hash collisions. */
  dimensions?: number;
}

const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;

/** 32-bit FNV-1a over the UTF-16 code units of a feature. */
function hash(feature: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < feature.length; index += 1) {
    value ^= feature.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

/** Content words (stopwords dropped unless nothing else is left). */
function contentWords(text: string): string[] {
  const all = words(text);
  const content = all.filter((word) => !STOPWORDS.has(word));
  return content.length > 0 ? content : all;
}

interface Feature {
  weight: number;
  count: number;
}

/** Features with their weight and count: unigrams, and bigrams of neighbouring content words. */
function features(text: string): Map<string, Feature> {
  const tokens = contentWords(text);
  const found = new Map<string, Feature>();
  const add = (feature: string, weight: number): void => {
    const known = found.get(feature);
    if (known === undefined) found.set(feature, { weight, count: 1 });
    else known.count += 1;
  };
  tokens.forEach((token, index) => {
    add(`u:${token}`, UNIGRAM_WEIGHT);
    const next = tokens[index + 1];
    if (next !== undefined) add(`b:${token} ${next}`, BIGRAM_WEIGHT);
  });
  return found;
}

function embedOne(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const [feature, { weight, count }] of features(text)) {
    const value = hash(feature);
    // Sub-linear term frequency keeps a repeated word from dominating; the hash's top bit picks the sign
    // so that collisions cancel out on average instead of piling up.
    const contribution = weight * (1 + Math.log(count));
    const slot = value % dimensions;
    vector[slot] = (vector[slot] ?? 0) + ((value & 0x80000000) === 0 ? contribution : -contribution);
  }
  let squares = 0;
  for (const component of vector) squares += component * component;
  const length = Math.sqrt(squares);
  return length === 0 ? vector : vector.map((component) => component / length);
}

/**
 * An offline embedder with no data of its own: feature hashing of normalised word unigrams and bigrams, L2-normalised.
 * Deterministic, instant and free; it captures shared wording, not meaning. A text with no words
 * embeds to the all-zero vector (cosine similarity 0 with everything).
 */
export function createLexicalHashEmbedder(settings: LexicalHashEmbedderSettings = {}): Embedder {
  const dimensions = settings.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 8 || dimensions > 65_536) {
    throw new StrataError('INVALID_CONFIG', `The lexical-hash embedder needs a whole number of dimensions between 8 and 65536, not ${String(dimensions)}.`, {
      details: { option: 'dimensions' },
    });
  }
  return {
    id: `lexical-hash-${dimensions}`,
    embed(options: EmbedOptions): Promise<EmbedResult> {
      if (options.signal?.aborted === true) {
        return Promise.reject(new StrataError('MODEL_ABORTED', 'Embedding was cancelled by the caller.', { cause: options.signal.reason }));
      }
      const vectors = options.texts.map((text) => embedOne(text, dimensions));
      return Promise.resolve({ vectors, dimensions, usage: { promptTokens: 0 } });
    },
  };
}
