import { describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { createLexicalHashEmbedder } from '../../src/providers/embedder/lexical-hash-embedder.js';

function cosine(left: readonly number[], right: readonly number[]): number {
  return left.reduce((total, value, index) => total + value * (right[index] ?? 0), 0);
}

function length(vector: readonly number[]): number {
  return Math.sqrt(cosine(vector, vector));
}

describe('lexical-hash embedder', () => {
  const embedder = createLexicalHashEmbedder();

  it('defaults to 256 dimensions and names its space', async () => {
    const result = await embedder.embed({ texts: ['hello world'] });
    expect(result.dimensions).toBe(256);
    expect(result.vectors[0]).toHaveLength(256);
    expect(result.usage).toEqual({ promptTokens: 0 });
    expect(embedder.id).toBe('lexical-hash-256');
    expect(createLexicalHashEmbedder({ dimensions: 64 }).id).toBe('lexical-hash-64');
  });

  it('is deterministic across calls and instances, and insensitive to case and punctuation', async () => {
    const text = 'Deploy the API to Frankfurt on Friday.';
    const [first] = (await embedder.embed({ texts: [text] })).vectors;
    const [again] = (await createLexicalHashEmbedder().embed({ texts: [text] })).vectors;
    const [shouted] = (await embedder.embed({ texts: ['DEPLOY the api, to frankfurt on friday!'] })).vectors;
    expect(again).toEqual(first);
    expect(shouted).toEqual(first);
  });

  it('returns unit vectors', async () => {
    const { vectors } = await embedder.embed({ texts: ['one', 'a much longer text with many different words in it', 'repeat repeat repeat'] });
    for (const vector of vectors) expect(length(vector)).toBeCloseTo(1, 10);
  });

  it('puts texts that share wording closer than unrelated ones', async () => {
    const { vectors } = await embedder.embed({
      texts: [
        'The database migration failed on the staging server',
        'Staging server database migration failed again',
        'My cat likes to sleep in the sun',
      ],
    });
    const [query, similar, unrelated] = vectors as [number[], number[], number[]];
    expect(cosine(query, similar)).toBeGreaterThan(0.5);
    expect(cosine(query, similar)).toBeGreaterThan(cosine(query, unrelated) + 0.4);
  });

  it('counts word order through bigrams', async () => {
    const { vectors } = await embedder.embed({ texts: ['new york city', 'york new city', 'new york city'] });
    const [text, shuffled, same] = vectors as [number[], number[], number[]];
    expect(cosine(text, same)).toBeCloseTo(1, 10);
    expect(cosine(text, shuffled)).toBeLessThan(0.99);
    expect(cosine(text, shuffled)).toBeGreaterThan(0.5);
  });

  it('embeds text without words as the zero vector, and no texts as no vectors', async () => {
    const { vectors } = await embedder.embed({ texts: ['', '  ?! '] });
    for (const vector of vectors) expect(vector.every((value) => value === 0)).toBe(true);
    expect(await embedder.embed({ texts: [] })).toEqual({ vectors: [], dimensions: 256, usage: { promptTokens: 0 } });
  });

  it('handles text made only of stopwords and non-Latin scripts', async () => {
    const { vectors } = await embedder.embed({ texts: ['what is it', 'Кошка сидит на окне', '東京 大阪'] });
    for (const vector of vectors) expect(length(vector)).toBeCloseTo(1, 10);
  });

  it('rejects bad dimensions and honours a cancelled signal', async () => {
    expect(() => createLexicalHashEmbedder({ dimensions: 4 })).toThrow(/between 8 and 65536/u);
    expect(() => createLexicalHashEmbedder({ dimensions: 100.5 })).toThrow(/dimensions/u);
    const controller = new AbortController();
    controller.abort();
    const error = await embedder.embed({ texts: ['x'], signal: controller.signal }).catch((thrown: unknown) => thrown);
    expect(isStrataError(error, 'MODEL_ABORTED')).toBe(true);
  });
});
