/**
 * The gpt adapter's count of a long text, a slice at a time. A text is cut only where its count is
 * additive: at the line breaks the line cache cuts at (line-count-cache.ts), and inside a long line
 * before whitespace that follows a word of at most `MAX_RUN` characters. The encodings' pre-tokenizer
 * ends a token at every non-whitespace character followed by whitespace other than a line break (and by
 * a line break too after a letter or a digit: only punctuation takes the line breaks after it along),
 * so such a cut splits no token; a word that short is no long run (long-runs.ts), so the cut changes no
 * piece of one either. A long run is counted piece by piece.
 */
import { isWhitespace } from '../../core/text.js';
import { splitAtSafeLineBreaks } from './line-count-cache.js';
import { MAX_RUN, piecesOfLongRuns } from './long-runs.js';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Characters counted between two yields, by default. */
const SLICE_CHARACTERS = 16_384;

/** Whether `text` may be cut before index `at`: whitespace after a word of at most `MAX_RUN` characters. */
function cutsBefore(text: string, at: number): boolean {
  const after = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  if (!isWhitespace(after) || isWhitespace(before)) return false;
  // (A line break only after a letter or a digit: half of a surrogate pair is neither, so no cut there.)
  if ((after === 10 || after === 13) && !LETTER_OR_DIGIT.test(text.charAt(at - 1))) return false;
  let start = at - 1;
  while (start > 0 && at - start <= MAX_RUN && !isWhitespace(text.charCodeAt(start - 1))) start -= 1;
  return at - start <= MAX_RUN;
}

/** `line` cut into parts of at least `length` characters (the last may be shorter), where `cutsBefore` allows only. */
export function partsOfLine(line: string, length: number): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let at = length; at < line.length; at += 1) {
    if (at - start < length || !cutsBefore(line, at)) continue;
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
