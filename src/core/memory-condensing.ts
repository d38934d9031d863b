/**
 * The local condenser's rule: a verbose memory loses its filler ("basically", "to be honest", "in order
 * to") and any sentence that says nothing an earlier one does not (every word and number of it, the same
 * way), and is kept shorter only when every name, day and number it held is still there. Hedges ("I
 * think", "kind of", "really") stay: they say how sure the statement is. Offline and deterministic. Pure.
 */
import { denies, numbersOf, statementWords } from './memory-comparison.js';
import { aboutWords } from './promotion.js';

/** Values longer than this, in characters, are verbose enough to condense. */
export const CONDENSE_FROM = 160;

/** A condensed value must be at most this share of the original to be worth a version. */
const WORTH = 0.85;

/** Filler and roundabout phrases, and what each becomes. */
const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:you know|to be honest|by the way|as i said|as mentioned(?: before)?|at the end of the day|if that makes sense)\b,?\s*/giu, ''],
  [/\b(?:basically|literally|honestly)\b,?\s*/giu, ''],
  [/\bin order to\b/giu, 'to'],
  [/\bdue to the fact that\b/giu, 'because'],
  [/\bat this point in time\b/giu, 'now'],
  [/\bfor the purpose of\b/giu, 'for'],
  [/\b(?:is|are) able to\b/giu, 'can'],
  [/\bin the event that\b/giu, 'if'],
  [/\ba (?:large|great) number of\b/giu, 'many'],
  [/\bthe majority of\b/giu, 'most'],
];

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function tidy(sentence: string): string {
  let text = sentence;
  for (const [phrase, becomes] of PHRASES) text = text.replace(phrase, becomes);
  text = text
    .replace(/\s+([,.;:!?])/gu, '$1')
    .replace(/,\s*([.;:!?])/gu, '$1')
    .replace(/^[,;:\s]+/u, '')
    .replace(/\s{2,}/gu, ' ')
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether `sentence` says nothing `other` does not: its every word and number, the same way. */
function saysNothingMore(sentence: string, other: string): boolean {
  const within = (inner: ReadonlySet<string>, outer: ReadonlySet<string>): boolean => [...inner].every((word) => outer.has(word));
  return denies(sentence) === denies(other) && within(statementWords(sentence), statementWords(other)) && within(numbersOf(sentence), numbersOf(other));
}

/** The specific words of a text (names, days, numbers). */
function specificWords(text: string): Set<string> {
  return aboutWords(text).specific;
}

/**
 * The value condensed and why, or null when it is short already, nothing could go, or going would lose a
 * name, a day or a number.
 */
export function condense(value: string): { value: string; reason: string } | null {
  if ([...value].length <= CONDENSE_FROM) return null;
  const kept: string[] = [];
  let repeated = 0;
  for (const sentence of sentencesOf(value).map(tidy)) {
    if (sentence === '' || /^[.!?;]+$/u.test(sentence)) continue;
    const earlier = kept.find((other) => saysNothingMore(sentence, other));
    if (earlier === undefined) kept.push(sentence);
    else repeated += 1;
  }
  const condensed = kept.join(' ');
  if (condensed === '' || condensed.length > value.length * WORTH) return null;
  const lost = [...specificWords(value)].filter((word) => !specificWords(condensed).has(word) && !condensed.toLowerCase().includes(word));
  if (lost.length > 0) return null;
  const what = repeated > 0 ? `filler and ${String(repeated)} repeated sentence${repeated === 1 ? '' : 's'}` : 'filler';
  return { value: condensed, reason: `condensed from ${String(value.length)} to ${String(condensed.length)} characters (${what} left out; every name, day and number kept)` };
}
