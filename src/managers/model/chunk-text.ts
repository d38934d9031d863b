/**
 * Splitting a message too long for one call: on paragraph boundaries first, then lines, sentences and
 * words, and only as a last resort inside a word. Every piece keeps the white space after it, so the
 * chunks joined give the text back.
 */
import type { Tokenizer } from '../../providers/tokenizer/tokenizer.js';

/** Boundaries from coarse to fine: after a blank line, after a line break, after a sentence, after a word. */
const BOUNDARIES: readonly RegExp[] = [/(?<=\n[ \t]*\n)(?=[ \t]*\S)/u, /(?<=\n)(?=[ \t]*\S)/u, /(?<=[.!?…]["')\]]*\s+)(?=\S)/u, /(?<=\s)(?=\S)/u];

/** The longest prefixes of at most `maxTokens` tokens, one after another (a cut inside a word). */
function hardCut(text: string, maxTokens: number, tokenizer: Tokenizer): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest !== '') {
    const cut = tokenizer.truncate(rest, maxTokens);
    // A single character can count more than the limit; take it anyway so the loop ends.
    const piece = cut === '' ? String.fromCodePoint(rest.codePointAt(0) ?? 0) : cut;
    pieces.push(piece);
    rest = rest.slice(piece.length);
  }
  return pieces;
}

/** Pieces of at most `maxTokens` tokens each, split at the coarsest boundary that makes them fit. */
function pieces(text: string, maxTokens: number, tokenizer: Tokenizer, level: number): string[] {
  if (tokenizer.count(text) <= maxTokens) return [text];
  const boundary = BOUNDARIES[level];
  if (boundary === undefined) return hardCut(text, maxTokens, tokenizer);
  const parts = text.split(boundary);
  if (parts.length === 1) return pieces(text, maxTokens, tokenizer, level + 1);
  return parts.flatMap((part) => pieces(part, maxTokens, tokenizer, level + 1));
}

/**
 * Split `text` into chunks of at most `maxTokens` tokens, packing whole paragraphs (else lines,
 * sentences, words) greedily. Chunks joined give `text` back; a chunk of white space only is dropped.
 */
export function splitText(text: string, maxTokens: number, tokenizer: Tokenizer): string[] {
  const limit = Math.max(1, Math.floor(maxTokens));
  const chunks: string[] = [];
  let current = '';
  let currentTokens = 0;
  for (const piece of pieces(text, limit, tokenizer, 0)) {
    const tokens = tokenizer.count(piece);
    // Pieces are counted one by one: joining text never costs more tokens than its parts in practice,
    // and each chunk is checked once more below.
    if (current !== '' && currentTokens + tokens > limit) {
      chunks.push(current);
      current = '';
      currentTokens = 0;
    }
    current += piece;
    currentTokens += tokens;
  }
  if (current !== '') chunks.push(current);
  return chunks
    .flatMap((chunk) => (tokenizer.count(chunk) <= limit ? [chunk] : hardCut(chunk, limit, tokenizer)))
    .filter((chunk) => chunk.trim() !== '');
}
