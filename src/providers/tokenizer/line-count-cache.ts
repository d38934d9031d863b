/**
 * Exact token counts of long texts from cached counts of their lines. The encodings' pre-tokenizer
 * (the regular expression that cuts text into pieces before byte-pair encoding) never joins a line
 * break to a following character that is neither whitespace nor "/", so a text cut right after such a
 * line break has exactly the tokens of its parts. A context package repeats most of its lines from
 * one call to the next, so their counts are worth keeping.
 */
import { boundedMemo } from '../../core/bounded-memo.js';

/** Texts shorter than this are looked up whole: splitting them costs more than it saves. */
const MIN_SPLIT_LENGTH = 256;

/** Whether a text may be cut after a line break followed by `next`: neither whitespace nor "/", nor the end. */
function safeAfterBreak(next: string | undefined): boolean {
  return next !== undefined && next !== '/' && !/\s/u.test(next);
}

/**
 * Cut `text` right after every line break that is followed by a character other than whitespace or
 * "/". The pieces joined give back the text.
 */
export function splitAtSafeLineBreaks(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (let index = text.indexOf('\n'); index >= 0 && index + 1 < text.length; index = text.indexOf('\n', index + 1)) {
    if (!safeAfterBreak(text[index + 1])) continue;
    pieces.push(text.slice(start, index + 1));
    start = index + 1;
  }
  pieces.push(text.slice(start));
  return pieces;
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
 * A counter that remembers up to `maxEntries` counts: of short texts whole, of long texts piece by piece.
 * Facts, window messages and package lines recur from one call to the next, so most counts are lookups.
 */
export function cachedLineCounter(countText: (text: string) => number, maxEntries = 50_000): (text: string) => number {
  const countPiece = boundedMemo(countText, maxEntries, detached);
  return (text) => {
    if (text.length < MIN_SPLIT_LENGTH) return countPiece(text);
    let total = 0;
    for (const piece of splitAtSafeLineBreaks(text)) total += countPiece(piece);
    return total;
  };
}

/**
 * A counter of `lines.join('\n')` from cached counts of each line with its line break, cut where
 * `splitAtSafeLineBreaks` would cut. The lines of a package are the same string objects from one call
 * to the next, so each is looked up without hashing its text again; lines that cannot be cut apart
 * (a blank line between blocks, a line starting with a space) are counted together by `count`.
 * `countLine` counts a single line with its break; pass an uncached counter when `count` caches, so a
 * line is remembered once.
 */
export function cachedJoinedLinesCounter(
  count: (text: string) => number,
  maxEntries = 50_000,
  countLine: (text: string) => number = count,
): (lines: readonly string[]) => number {
  // Keyed by the line itself: `${line}\n` would be a new string to hash on every call.
  const lineWithBreak = boundedMemo((line: string) => countLine(`${line}\n`), maxEntries);
  return (lines) => {
    let total = 0;
    let run: string[] = [];
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index] ?? '';
      const next = lines[index + 1];
      if (next === undefined) {
        total += count(run.length === 0 ? line : [...run, line].join('\n'));
      } else if (!safeAfterBreak(next[0])) {
        run.push(line);
      } else if (run.length === 0) {
        total += lineWithBreak(line);
      } else {
        total += count(`${[...run, line].join('\n')}\n`);
        run = [];
      }
    }
    return total;
  };
}
