/**
 * Word vectors in Strata's compact file format, and the bundled English table. A file holds, after the
 * magic "SWV1": the word count and the dimensions (uint32, little-endian), one float32 scale per word,
 * the vectors as int8 (a component is its byte times the word's scale), then the words in UTF-8, one per
 * line, most frequent first: a word's line number is its frequency rank.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StrataError } from '../../core/errors.js';

const MAGIC = 'SWV1';
const HEADER_BYTES = 12;
/** Where the bundled table sits, from the package's root. */
export const BUNDLED_WORD_VECTORS = 'assets/word-vectors-en.bin';

/** Words and their vectors, most frequent word first. */
export interface WordVectorTable {
  dimensions: number;
  /** Each word's row (its frequency rank, 0 for the most frequent). */
  rows: ReadonlyMap<string, number>;
  /** Row `r`'s vector is `vectors.subarray(r * dimensions, (r + 1) * dimensions)`. */
  vectors: Float32Array;
}

/** The file for `words` and their `vectors` (most frequent first). */
export function encodeWordVectors(table: { words: readonly string[]; dimensions: number; vectors: ReadonlyArray<readonly number[]> }): Buffer {
  const { words, dimensions, vectors } = table;
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(words.length, 4);
  header.writeUInt32LE(dimensions, 8);
  const scales = Buffer.alloc(words.length * 4);
  const bytes = Buffer.alloc(words.length * dimensions);
  vectors.forEach((vector, row) => {
    const largest = vector.reduce((most, value) => Math.max(most, Math.abs(value)), 0);
    const scale = largest === 0 ? 1 : largest / 127;
    scales.writeFloatLE(scale, row * 4);
    for (let index = 0; index < dimensions; index += 1) bytes.writeInt8(Math.round((vector[index] ?? 0) / scale), row * dimensions + index);
  });
  return Buffer.concat([header, scales, bytes, Buffer.from(words.join('\n'), 'utf8')]);
}

function corrupt(path: string, what: string): StrataError {
  return new StrataError('INVALID_CONFIG', `${path} is not a word-vector file (${what}); rebuild it with scripts/build-word-vectors.ts or reinstall strata-memory.`, { details: { path } });
}

/** Read a word-vector file. */
export function loadWordVectors(path: string): WordVectorTable {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (error) {
    throw new StrataError('INVALID_CONFIG', `Cannot read the word vectors at ${path}: ${(error as Error).message}.`, { cause: error, details: { path } });
  }
  if (file.length < HEADER_BYTES || file.toString('latin1', 0, 4) !== MAGIC) throw corrupt(path, 'no SWV1 header');
  const count = file.readUInt32LE(4);
  const dimensions = file.readUInt32LE(8);
  const wordsAt = HEADER_BYTES + count * 4 + count * dimensions;
  if (dimensions === 0 || file.length < wordsAt) throw corrupt(path, 'shorter than its header says');
  const words = file.toString('utf8', wordsAt).split('\n');
  if (words.length !== count) throw corrupt(path, `${words.length} words where the header says ${count}`);
  const bytes = new Int8Array(file.buffer, file.byteOffset + HEADER_BYTES + count * 4, count * dimensions);
  const vectors = new Float32Array(count * dimensions);
  for (let row = 0; row < count; row += 1) {
    const scale = file.readFloatLE(HEADER_BYTES + row * 4);
    const start = row * dimensions;
    for (let index = start; index < start + dimensions; index += 1) vectors[index] = (bytes[index] ?? 0) * scale;
  }
  return { dimensions, rows: new Map(words.map((word, row) => [word, row])), vectors };
}

/** The bundled table's path: found by walking up from this file to the package's `assets` (from `src/` and `dist/src/`). */
export function bundledWordVectorsPath(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(folder, BUNDLED_WORD_VECTORS);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(folder);
    if (parent === folder) {
      throw new StrataError('INVALID_CONFIG', `The bundled word vectors (${BUNDLED_WORD_VECTORS}) are missing from this installation of strata-memory; reinstall it, or set STRATA_EMBEDDING_MODEL to use an embedding endpoint.`);
    }
    folder = parent;
  }
}
