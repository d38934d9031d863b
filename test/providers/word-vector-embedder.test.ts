import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWordVectorEmbedder } from '../../src/providers/embedder/word-vector-embedder.js';
import { encodeWordVectors, loadWordVectors } from '../../src/providers/embedder/word-vector-table.js';

function cosine(left: readonly number[], right: readonly number[]): number {
  return left.reduce((total, value, index) => total + value * (right[index] ?? 0), 0);
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function tempFile(name: string, bytes: Buffer | string): string {
  const folder = mkdtempSync(join(tmpdir(), 'strata-vectors-'));
  folders.push(folder);
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return path;
}

describe('word-vector embedder (bundled vectors)', () => {
  const embedder = createWordVectorEmbedder();

  it('names its space, gives unit vectors of 100 numbers, and costs no tokens', async () => {
    const result = await embedder.embed({ texts: ['We went camping by the lake.', 'The invoice is due on Friday.'] });
    expect(embedder.id).toBe('word-vectors-en-100d-sif');
    expect(embedder.unrelatedBelow).toBe(0.2);
    expect(result.dimensions).toBe(100);
    expect(result.usage).toEqual({ promptTokens: 0 });
    for (const vector of result.vectors) expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 5);
  });

  it('puts texts of like meaning closer than unrelated ones, with no word in common', async () => {
    const { vectors } = await embedder.embed({
      texts: ['We went camping by the lake last weekend.', 'I love hiking in the mountains.', 'The invoice total is due on Friday.', 'My kids adore the new puppy.', 'Our children love the dog.'],
    });
    const [camping, hiking, invoice, kids, children] = vectors as [number[], number[], number[], number[], number[]];
    expect(cosine(camping, hiking)).toBeGreaterThan(0.4);
    expect(cosine(camping, hiking)).toBeGreaterThan(cosine(camping, invoice) + 0.3);
    expect(cosine(kids, children)).toBeGreaterThan(cosine(kids, invoice) + 0.3);
    // Unrelated texts stay under the noise floor the embedder declares.
    expect(cosine(camping, invoice)).toBeLessThan(0.2);
  });

  it('is deterministic, ignores case and punctuation, and gives all zeros to a text with no known word', async () => {
    const [first, shouted, unknown, empty] = (await embedder.embed({ texts: ['Book the flight to Lisbon.', 'BOOK the flight, to lisbon!', 'zzqx wqpt', ''] })).vectors;
    const [again] = (await createWordVectorEmbedder().embed({ texts: ['Book the flight to Lisbon.'] })).vectors;
    expect(again).toEqual(first);
    expect(shouted).toEqual(first);
    expect(unknown?.every((value) => value === 0)).toBe(true);
    expect(empty?.every((value) => value === 0)).toBe(true);
  });

  it('refuses a cancelled call and a smoothing out of range', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed({ texts: ['hello'], signal: controller.signal })).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
    expect(() => createWordVectorEmbedder({ smoothing: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
  });
});

describe('word-vector files', () => {
  it('reads back the words and vectors it wrote, each component within its 8-bit step', () => {
    const words = ['alpha', 'beta', 'gamma'];
    const vectors = [
      [0.5, -1, 0.25],
      [2, 0, -2],
      [0, 0, 0],
    ];
    const table = loadWordVectors(tempFile('table.bin', encodeWordVectors({ words, dimensions: 3, vectors })));
    expect(table.dimensions).toBe(3);
    expect([...table.rows]).toEqual([
      ['alpha', 0],
      ['beta', 1],
      ['gamma', 2],
    ]);
    vectors.forEach((vector, row) => {
      const step = Math.max(...vector.map(Math.abs)) / 127 || 1;
      vector.forEach((value, index) => expect(Math.abs((table.vectors[row * 3 + index] ?? Number.NaN) - value)).toBeLessThanOrEqual(step / 2 + 1e-6));
    });
    expect(createWordVectorEmbedder({ table, id: 'tiny' }).id).toBe('tiny');
  });

  it('embeds a text over a table of its own: weighted words, less the direction all texts share', async () => {
    // Rare words (late rows) weigh more than frequent ones; row 0 is the most frequent.
    const words = ['common', 'apple', 'pear', 'engine'];
    const vectors = [
      [1, 1, 1],
      [1, 0.2, 0],
      [0.9, 0.3, 0],
      [0, 0, 1],
    ];
    const table = loadWordVectors(tempFile('fruit.bin', encodeWordVectors({ words, dimensions: 3, vectors })));
    const embedder = createWordVectorEmbedder({ table, id: 'fruit' });
    const [apple, pear, engine, common] = (await embedder.embed({ texts: ['apple', 'pear', 'engine', 'common'] })).vectors as [number[], number[], number[], number[]];
    expect(cosine(apple, pear)).toBeGreaterThan(0.9);
    expect(cosine(apple, engine)).toBeLessThan(cosine(apple, pear) - 0.5);
    // The common direction is taken out: the most frequent word's vector keeps little of its own.
    for (const vector of [apple, pear, engine]) expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 5);
    expect(common.every((value) => Number.isFinite(value))).toBe(true);
  });

  it('refuses a file that is not one, or that is cut short, naming the path', () => {
    const wrong = tempFile('wrong.bin', 'not a vector file at all');
    expect(() => loadWordVectors(wrong)).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringContaining(wrong) }));
    const whole = encodeWordVectors({ words: ['alpha', 'beta'], dimensions: 2, vectors: [[1, 0], [0, 1]] });
    const short = tempFile('short.bin', whole.subarray(0, 16));
    expect(() => loadWordVectors(short)).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
    expect(() => loadWordVectors(join(tmpdir(), 'no-such-strata-vectors.bin'))).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
  });
});
