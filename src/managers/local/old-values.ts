/**
 * Old values: the specifics a clause sets aside as no longer true ("not $1,200", "instead of 30 June",
 * "rather than MySQL", "from 14 May … to", "March 15 is off"), and a clause's specifics with a
 * "from … to …" range cut into its old and its new value.
 */
import type { AnalysedSentence } from './analysis.js';
import { COPULAS } from './function-words.js';
import type { Specific } from './specifics.js';
import type { TaggedToken } from './tagging.js';

/** Words after a value that set it aside: "March 15 is off", "the old plan is dead". */
const SET_ASIDE = new Set(['off', 'out', 'cancelled', 'canceled', 'gone', 'wrong', 'dead', 'over', 'unrealistic', 'impossible', 'obsolete', 'outdated']);

function tokenIndexAt(tokens: readonly TaggedToken[], offset: number): number {
  for (let index = 0; index < tokens.length; index += 1) if ((tokens[index]?.end ?? 0) > offset) return index;
  return -1;
}

/**
 * The specifics of a sentence (between two offsets) that the sentence sets aside as old values:
 * "not $1,200", "instead of 30 June", "rather than MySQL", "from 14 May … to", "March 15 is off".
 */
export function oldValuesIn(
  sentence: AnalysedSentence,
  startOffset = 0,
  endOffset = Number.POSITIVE_INFINITY,
  specifics: readonly Specific[] = sentence.specifics,
): Specific[] {
  const tokens = sentence.tokens;
  const clauseStart = Math.max(0, tokenIndexAt(tokens, startOffset));
  // "moved from 14 May at 10:30 to 13 May …": what stands between "from" and "to" is the old value
  // (only a change of value: a value right after "from" and right after, or around, "to"; "has to pass" is none).
  const startsValue = (index: number): boolean =>
    specifics.some((item) => {
      const at = tokens[index]?.start ?? -1;
      return item.start === at || (item.start < at && item.end > at);
    });
  let fromAt = -1;
  let toAt = -1;
  for (let index = clauseStart; index < tokens.length && (tokens[index]?.start ?? Infinity) < endOffset && toAt < 0; index += 1) {
    const lower = tokens[index]?.lower ?? '';
    if (lower === 'from' && startsValue(index + 1)) fromAt = index;
    else if (lower === 'to' && fromAt >= 0 && (startsValue(index + 1) || startsValue(index))) toAt = index;
  }
  if (toAt < 0) fromAt = -1;
  const old: Specific[] = [];
  for (const item of specifics) {
    if (item.start < startOffset || item.end > endOffset) continue;
    const first = tokenIndexAt(tokens, item.start);
    if (first < 0) continue;
    let last = first;
    while (last + 1 < tokens.length && (tokens[last + 1]?.start ?? Infinity) < item.end) last += 1;
    // One modifier may stand between the marker and the value ("instead of plain Poisson").
    const modified = tokens[first - 1]?.pos === 'adjective' || tokens[first - 1]?.pos === 'determiner' ? 1 : 0;
    const before = tokens[first - 1 - modified]?.lower ?? '';
    const before2 = tokens[first - 2 - modified]?.lower ?? '';
    const after = tokens[last + 1]?.lower ?? '';
    const after2 = tokens[last + 2]?.lower ?? '';
    // "March 15 is off": the value is what the clause is about (it opens the clause).
    const opensClause = first - clauseStart <= 1;
    const setAside =
      before === 'not' ||
      (before === 'of' && before2 === 'instead') ||
      (before === 'than' && before2 === 'rather') ||
      (fromAt >= 0 && toAt > fromAt && first > fromAt && last < toAt) ||
      (opensClause && (COPULAS.has(after) || after === 'is' || after === 'was') && SET_ASIDE.has(after2));
    if (setAside) old.push(item);
  }
  return old;
}

const RANGE_IN_TEXT = /^(.+?)\s+to\s+(.+)$/u;

/**
 * Specifics of a clause, with "from … to …" ranges that a change cut in two ("from 14 May at 10:30 to 13 May"
 * is an old and a new date, however the date parser grouped the words).
 */
export function clauseSpecifics(sentence: AnalysedSentence, startOffset: number, endOffset: number): Specific[] {
  const inClause = sentence.specifics.filter((item) => item.start >= startOffset && item.end <= endOffset);
  if (!inClause.some((item) => item.type === 'date') || !sentence.tokens.some((token) => token.lower === 'from' && token.start >= startOffset && token.end <= endOffset)) return inClause;
  return inClause.flatMap((item) => {
    const match = item.type === 'date' ? RANGE_IN_TEXT.exec(item.text) : null;
    const first = match?.[1];
    const second = match?.[2];
    if (match === null || first === undefined || second === undefined || !/\bfrom\s/iu.test(sentence.text.slice(startOffset, item.start))) return [item];
    return [
      { ...item, text: first, end: item.start + first.length, resolved: null },
      { ...item, text: second, start: item.end - second.length, resolved: null },
    ];
  });
}
