/**
 * Counting that stays linear on hostile text. Byte-pair encoding of one pre-token costs time quadratic in
 * its length, and a run of letters without spaces ("ACGT" × 100,000, a pasted hash) is one pre-token: a
 * 512 KB message took minutes. Runs longer than `MAX_RUN` characters are counted in pieces of that length,
 * plus one token for every cut (a token may span it), so the count of such a text is an estimate that
 * errs high, never low; text without such runs is counted exactly.
 */

/** Longest run of non-space characters counted whole. */
export const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'gu');
const HAS_LONG_RUN = new RegExp(LONG_RUN.source, 'u');

/** `text` cut at the start and end of each long run and inside it every `MAX_RUN` characters (never inside a surrogate pair). */
export function piecesOfLongRuns(text: string): string[] | null {
  if (text.length <= MAX_RUN) return null;
  if (!HAS_LONG_RUN.test(text)) return null;
  const pieces: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > last) pieces.push(text.slice(last, match.index));
    const end = match.index + match[0].length;
    for (let start = match.index; start < end; ) {
      let cut = Math.min(end, start + MAX_RUN);
      if (cut < end && isHighSurrogate(text.charCodeAt(cut - 1))) cut += 1;
      pieces.push(text.slice(start, cut));
      start = cut;
    }
    last = end;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A counter that counts texts with long runs piece by piece (an estimate that errs high) and the rest with `count`. */
export function boundedCounter(count: (text: string) => number): (text: string) => number {
  return (text) => {
    const pieces = piecesOfLongRuns(text);
    if (pieces === null) return count(text);
    let total = pieces.length - 1;
    for (const piece of pieces) total += count(piece);
    return total;
  };
}
