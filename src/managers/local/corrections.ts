/**
 * The value edits of a correction: whether a fact line holds a value, and a corrected value without the
 * old values it sets aside ("$900 a month now, not $1,200") or the change words before it ("changed
 * to", "make it").
 */
import { scopedMemo } from '../../core/memo-space.js';
import { numbersIn } from '../../core/grounding.js';
import { normalizeText } from '../../core/text.js';
import type { Specific } from './specifics.js';
import { STOP_WORDS } from './function-words.js';

/** A word without a plural "s" ("seats" → "seat", not "glass" → "glas"). */
export function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** What the matching needs to know of a text (a fact line, a key, a specific), computed once per text. */
interface TextProfile {
  /** The normalised text padded with spaces, for whole-word searches. */
  padded: string;
  /** Its normalised words. */
  words: ReadonlySet<string>;
  /** Its content words (stop words dropped), stemmed. */
  content: ReadonlySet<string>;
  /** Its numbers, canonical. */
  numbers: ReadonlySet<string>;
}

/** Profiles by text, remembered: fact lines recur turn after turn. */
const profileOf = scopedMemo((text: string): TextProfile => {
  const normalized = normalizeText(text);
  const all = normalized === '' ? [] : normalized.split(' ');
  return {
    padded: ` ${normalized} `,
    words: new Set(all),
    content: new Set(all.filter((word) => !STOP_WORDS.has(word)).map(stem)),
    numbers: new Set(/\d/u.test(text) ? numbersIn(text) : []),
  };
});

/** Whether the fact line holds the specific (its numbers, or its words for a name or a date). */
export function factHolds(factText: string, item: Specific): boolean {
  // "Abernathy's patients" speaks of Abernathy.
  const wanted = profileOf(item.text.replace(/[’']s$/u, ''));
  const numeric = item.type === 'money' || item.type === 'percent' || item.type === 'number' || item.type === 'quantity';
  if (numeric && wanted.numbers.size > 0) {
    const held = profileOf(factText).numbers;
    for (const number of wanted.numbers) if (!held.has(number)) return false;
    return true;
  }
  return wanted.padded !== '  ' && profileOf(factText).padded.includes(wanted.padded);
}

/** The value without the old values it sets aside: "$900 a month now, not $1,200" → "$900 a month now". */
export function withoutOldValues(value: string, oldValues: readonly Specific[]): string {
  let result = value;
  // "moved from 14 May at 10:30 to 13 May" → "moved to 13 May".
  const span = /\bfrom\s+(.+?)\s+to\s+/iu.exec(result);
  if (span?.[1] !== undefined && oldValues.length > 0 && oldValues.every((item) => span[1]?.includes(item.text) === true)) {
    result = `${result.slice(0, span.index)}to ${result.slice(span.index + span[0].length)}`;
  }
  for (const item of oldValues) {
    const at = result.indexOf(item.text);
    if (at < 0) continue;
    const before = result.slice(0, at);
    const after = result.slice(at + item.text.length);
    const lead = /(?:,\s*|\s+[–—-]\s*|\s+)(?:(?:and|but)\s+)?(?:not|instead of|rather than)\s+(?:\S+\s+)?$/iu.exec(before);
    if (lead !== null) {
      result = `${before.slice(0, lead.index)}${after}`;
      continue;
    }
    const from = /(?:^|\s)from\s+$/iu.exec(before);
    if (from !== null && /^\s+to\s/iu.test(after)) result = `${before.slice(0, from.index)} ${after.trimStart()}`;
  }
  return result.replace(/\s+/gu, ' ').replace(/^[\s,;:–—-]+|[\s,;:–—-]+$/gu, '').trim();
}

const CHANGE_PREFIX =
  /^(?:(?:it's|its|it is|that's|that is|is|are|was|were|will be|would be|has been|have been|has|have|now|currently|actually|instead|officially|then|so|and|but|just|to)\s+)*(?:(?:changed|change|changing|moved|move|moving|switched|switch|switching|increased|decreased|raised|lowered|cut|bumped|pushed back|pushed|postponed|updated|reduced|extended|dropped|went up|gone up|going|set|make that|make it|meant|mean)\s+(?:to|up to|down to|back to|until|till|from\s+\S+\s+to|it to|that to)?\s*)?/iu;


/** A value without a leading "changed to", "make it", "now" …. */
export function withoutChangeWords(value: string): string {
  // ("Not Aurora anymore: plain RDS" leaves "anymore:" before the new value.)
  const stripped = value.replace(/^(?:any ?more|any longer|either)\s*[:,;–—-]\s*/iu, '');
  return stripped.replace(CHANGE_PREFIX, '').replace(/[,\s]+instead$/iu, '').trim() || value;
}
