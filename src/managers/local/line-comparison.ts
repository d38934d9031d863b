/**
 * How consolidation compares two fact lines: one repeats another when the other holds it whole or shares
 * nearly all its words (Sørensen–Dice of their word sets, stop words aside, at least 0.8). Each line's
 * form is worked out once; `mayRepeat` is a cheap test that never rules out a pair `repeats` would accept,
 * so most pairs of a large document are dismissed without comparing their words.
 */
import { compareText, normalizeText } from '../../core/text.js';
import { STOP_WORDS } from './function-words.js';

/** Least share of words (Sørensen–Dice) two lines must have in common to be one fact said twice. */
export const NEAR_DUPLICATE = 0.8;

/**
 * A fact's value as compared: normalised and padded with spaces, its words without stop words, those
 * words ranked by the line alone (the longest first), and a 64-bit summary of them (`low`, `high`):
 * each word sets one bit, so a bit of one line missing from another stands for at least one word the
 * other lacks.
 */
export interface Compared {
  padded: string;
  words: ReadonlySet<string>;
  ranked: readonly string[];
  low: number;
  high: number;
}

/** The bit (0–63) a word sets in a line's summary: FNV-1a of its characters. */
function bitOf(word: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < word.length; index += 1) hash = Math.imul(hash ^ word.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % 64;
}

export function compareForm(text: string): Compared {
  const colon = text.indexOf(':');
  const value = normalizeText(colon > 0 ? text.slice(colon + 1) : text);
  const words = new Set(value.split(' ').filter((word) => word !== '' && !STOP_WORDS.has(word)));
  const ranked = [...words].sort((a, b) => b.length - a.length || compareText(a, b));
  let low = 0;
  let high = 0;
  for (const word of words) {
    const bit = bitOf(word);
    if (bit < 32) low |= 1 << bit;
    else high |= 1 << (bit - 32);
  }
  return { padded: value === '' ? '' : ` ${value} `, words, ranked, low, high };
}

/** The first words of a ranking two lines sharing 80 % of their words must have one of in common (see `likelyRepeats`). */
export function prefixOf(ranked: readonly string[]): readonly string[] {
  return ranked.slice(0, ranked.length - Math.ceil((2 * ranked.length) / 3) + 1);
}

/** Whether sets of these sizes can reach the near-duplicate share: Dice is at most 2 * fewer / (fewer + more). */
export function sizesAllowDice(left: number, right: number): boolean {
  const [fewer, more] = left <= right ? [left, right] : [right, left];
  return fewer > 0 && 2 * fewer >= NEAR_DUPLICATE * (fewer + more);
}

/** Sørensen–Dice coefficient of two word sets. */
function dice(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return (2 * shared) / (left.size + right.size);
}

/** Whether `other` says all that `fact` says: the same line, a line holding it whole, or nearly the same words. */
export function repeats(fact: Compared, other: Compared): boolean {
  if (fact.padded === '' || other.padded === '') return false;
  if (fact.padded.length <= other.padded.length && other.padded.includes(fact.padded)) return true;
  return sizesAllowDice(fact.words.size, other.words.size) && dice(fact.words, other.words) >= NEAR_DUPLICATE;
}

/** Set bits of a 32-bit number. */
function bitCount(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** At least how many words of `left` `right` lacks: the bits of `left` that `right` does not set. */
function lacking(left: Compared, right: Compared): number {
  return bitCount(left.low & ~right.low) + bitCount(left.high & ~right.high);
}

/**
 * Whether either line may repeat the other (`repeats` one way or the other): false only for pairs it
 * would reject both ways. A line held whole by another has all its words in it; two lines of Dice 0.8
 * share at most as many words as each has less those the other surely lacks.
 */
export function mayRepeat(a: Compared, b: Compared): boolean {
  if (a.padded === '' || b.padded === '') return false;
  const aLacks = lacking(a, b);
  const bLacks = lacking(b, a);
  if ((aLacks === 0 && a.padded.length <= b.padded.length) || (bLacks === 0 && b.padded.length <= a.padded.length)) return true;
  if (!sizesAllowDice(a.words.size, b.words.size)) return false;
  const shared = Math.min(a.words.size - aLacks, b.words.size - bLacks);
  return (2 * shared) / (a.words.size + b.words.size) >= NEAR_DUPLICATE;
}
