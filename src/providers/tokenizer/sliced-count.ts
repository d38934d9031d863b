/**
 * The gpt adapter's count of a long text, a slice at a time. A text is cut only where its count is
 * additive: at the line breaks the line cache cuts at (line-count-cache.ts), and inside a long line
 * before a space that follows a short word. The encodings' pre-tokenizer ends a token at every
 * non-whitespace character followed by a space, so such a cut splits no token; a short word is no long
 * run (long-runs.ts), so the cut changes no piece of one either. A long run is counted piece by piece.
 */
import { isWhitespace } from '../../core/text.js';
import { splitAtSafeLineBreaks } from './line-count-cache.js';
import { MAX_RUN, piecesOfLongRuns } from './long-runs.js';

/** Longest word after which a line may be cut before a space (shorter than a long run). */
export const ADDITIVE_WORD_LENGTH = 64;

/** Characters counted between two yields, by default. */
const SLICE_CHARACTERS = 16_384;

/** Whether `text` may be cut before index `at`: a space after a word of at most `ADDITIVE_WORD_LENGTH` characters. */
function spaceAfterShortWord(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 32 || isWhitespace(text.charCodeAt(at - 1))) return false;
  let start = at - 1;
  while (start > 0 && at - start <= ADDITIVE_WORD_LENGTH && !isWhitespace(text.charCodeAt(start - 1))) start -= 1;
  return at - start <= ADDITIVE_WORD_LENGTH;
}

/** `line` cut into parts of at least `length` characters (the last may be shorter), before spaces after short words only. */
export function partsOfLine(line: string, length: number): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let at = length; at < line.length; at += 1) {
    if (at - start < length || !spaceAfterShortWord(line, at)) continue;
    parts.push(line.slice(start, at));
    start = at;
  }
  parts.push(line.slice(start));
  return parts;
}

/**
 * The adapter's count of `text` (see createGptTokenizer: `countPlain` is the encoding's own count, for
 * text without long runs), yielding after about every `sliceCharacters` characters counted.
 */
export function* countingInSlices(text: string, countPlain: (text: string) => number, sliceCharacters = SLICE_CHARACTERS): Generator<void, number, void> {
  let total = 0;
  let since = 0;
  for (const line of splitAtSafeLineBreaks(text)) {
    for (const part of line.length <= MAX_RUN ? [line] : partsOfLine(line, sliceCharacters)) {
      const pieces = piecesOfLongRuns(part) ?? [part];
      total += pieces.length - 1;
      for (const piece of pieces) {
        total += countPlain(piece);
        since += piece.length;
        if (since < sliceCharacters) continue;
        since = 0;
        yield;
      }
    }
  }
  return total;
}
