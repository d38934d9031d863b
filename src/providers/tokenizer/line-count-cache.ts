/**
 * Exact token counts of long texts from cached counts of their lines. The encodings' pre-tokenizer
 * (the regular expression that cuts text into pieces before byte-pair encoding) never joins a line
 * break to a following character that is neither whitespace nor "/", so a text cut right after such a
 * line break has exactly the tokens of its parts. A context package repeats most of its lines from
 * one call to the next, so their counts are worth keeping.
 */
import { MemoSpace } from '../../core/memo-space.js';

/** Texts shorter than this are looked up whole: splitting them costs more than it saves. */
const MIN_SPLIT_LENGTH = 256;

/** Whether `text` may be cut before index `at` (just after a line break): what follows is neither whitespace nor "/", nor the end. */
function safeBreakAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (Number.isNaN(code) || code === 47 || code === 32 || (code >= 9 && code <= 13)) return false;
  // (Other whitespace is rare in a package: the regular expression only for characters beyond ASCII.)
  return code < 128 || !/\s/u.test(text.charAt(at));
}

/**
 * Cut `text` right after every line break that is followed by a character other than whitespace or
 * "/". The pieces joined give back the text.
 */
export function splitAtSafeLineBreaks(text: string): string[] {
  const pieces: string[] = [];
  forEachSafePiece(text, (piece) => pieces.push(piece));
  return pieces;
}

/** Call `use` with each piece `splitAtSafeLineBreaks` would give, in order, without building the list. */
function forEachSafePiece(text: string, use: (piece: string) => void): void {
  let start = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index + 1 < text.length; index = text.indexOf('\n', index + 1)) {
    if (!safeBreakAt(text, index + 1)) continue;
    use(text.slice(start, index + 1));
    start = index + 1;
  }
  use(text.slice(start));
}

/**
 * A copy of `text` that does not keep alive the string it was cut from: V8 represents a slice as a
 * view of its parent, so a cached line would otherwise hold a whole rendered package in memory.
 * UTF-16 round-trips every code unit exactly.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/**
 * A counter that remembers counts in up to `maxBytes` (default 8 MiB): of short texts whole, of long
 * texts piece by piece. Facts, window messages and package lines recur from one call to the next, so
 * most counts are lookups.
 */
export function cachedLineCounter(countText: (text: string) => number, maxBytes = 8 * 1024 * 1024): (text: string) => number {
  const countPiece = new MemoSpace(maxBytes).memo(countText, { sizeOf: () => 16, storedKey: detached });
  return (text) => {
    if (text.length < MIN_SPLIT_LENGTH) return countPiece(text);
    let total = 0;
    forEachSafePiece(text, (piece) => {
      total += countPiece(piece);
    });
    return total;
  };
}
