/**
 * Statement values: a fact line's value is the clause's predicate verbatim (with its subject when that
 * is neither the key nor a pronoun), without words that only announce it, name its key or open a
 * correction, cut to a length; and whether it says anything specific.
 */
import { countWords } from '../../core/text.js';
import { META_NOUNS, NUMBER_WORDS, STOP_WORDS, UNIT_WORDS } from './function-words.js';
import type { Specific } from './specifics.js';
import type { StatementKey } from './statement-key.js';
import { isPronounSubject, type StatementParts } from './statement-parts.js';
import type { TaggedToken } from './tagging.js';
import { sliceTokens } from './tokens.js';

/** Words that only introduce a correction and carry no content of their own. */
const CORRECTION_OPENERS =
  /^(?:(?:(?:actually|correction|scratch that|on second thoughts?|i meant?)\b[,:;!.]?|(?:no|wait|sorry|oops|update|ok|okay|so|well|hmm)\b[,:;!.])\s*)+/iu;

/** Content words that make a value say something even without a number, a date or a name. */
function isSubstantive(token: TaggedToken): boolean {
  if (token.pos !== 'noun' && token.pos !== 'proper') return false;
  const lower = token.lower.replace(/[’']s$/u, '');
  if (lower.length < 2 || STOP_WORDS.has(lower) || META_NOUNS.has(lower) || NUMBER_WORDS.has(lower) || UNIT_WORDS.has(lower)) return false;
  return !TIME_NOUNS.has(lower);
}

const TIME_NOUNS = new Set(['morning', 'afternoon', 'evening', 'night', 'week', 'weekend', 'month', 'year', 'day', 'days', 'weeks', 'months', 'years', 'today', 'tonight', 'tomorrow', 'yesterday', 'now', 'moment', 'while']);

/**
 * Whether tokens `from`..`to` say something specific: a number, an amount, a date, a name that is not
 * merely the person doing something ("Femi checked"), or a substantive noun ("moved too, by the way" does not).
 */
function isInformative(tokens: readonly TaggedToken[], from: number, to: number, specifics: readonly Specific[]): boolean {
  const startOffset = tokens[from]?.start ?? 0;
  const endOffset = tokens[to - 1]?.end ?? 0;
  let person = false;
  for (const item of specifics) {
    if (item.start < startOffset || item.end > endOffset) continue;
    if (item.type !== 'name' || item.entity !== 'person') return true;
    person = true;
  }
  let content = 0;
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (isSubstantive(token) && token.entity !== 'person') return true;
    if (!STOP_WORDS.has(token.lower) && token.pos !== 'proper' && token.entity !== 'person') content += 1;
  }
  return person && content >= 2;
}

/** Punctuation or whitespace at either end, or whitespace that is not a single space. */
const UNTIDY = /^[\s,;:–—-]|[\s,;:–—-]$|\s\s|[^\S ]/u;

export function trimValue(text: string, maxWords: number): string {
  // Sentences are already tidy (single spaces): most values need no cleaning.
  if (!UNTIDY.test(text) && countWords(text) <= maxWords) return text;
  const cleaned = text.replace(/^[\s,;:–—-]+|[\s,;:–—-]+$/gu, '').trim();
  const parts = cleaned.split(/\s+/u).filter((part) => part !== '');
  if (parts.length <= maxWords) return parts.join(' ');
  return `${parts.slice(0, maxWords).join(' ')} …`;
}

export interface StatementValue {
  value: string;
  /** The value starts at the predicate (the subject is the key or a pronoun), so `key: value` reads as a sentence. */
  predicateValue: boolean;
  /** The value holds something specific: a number, a date, a name or a substantive noun. */
  informative: boolean;
}

/** Where the value starts, and whether the subject holds a value of its own and so stays in the line. */
function valueStartOf(parts: StatementParts, keyed: StatementKey): { start: number; subjectHoldsValue: boolean } {
  const { tokens, from, to, subjectStart, subjectEnd } = parts;
  const { colon, announcer, isSubject } = keyed;
  // The predicate, verbatim; the subject stays when it is neither the key nor a pronoun.
  const subjectIsKeyOrPronoun = isSubject || isPronounSubject(tokens, subjectStart, subjectEnd) || keyed.subjectIsPerson;
  // A subject holding a value of its own stays in the line ("A downtime of up to 2 hours is fine …").
  const subjectOffsets: [number, number] = [tokens[subjectStart]?.start ?? 0, tokens[subjectEnd - 1]?.end ?? 0];
  const subjectHoldsValue = keyed.source === 'subject' && colon < 0 && parts.specifics.some((item) => item.start >= subjectOffsets[0] && item.end <= subjectOffsets[1] && item.entity !== 'person');
  let start = subjectIsKeyOrPronoun && !subjectHoldsValue ? keyed.valueFrom : subjectHoldsValue ? subjectStart : from;
  // Words that only announce ("Looking further ahead: …") or name the key ("Budget: …") are no part of the value.
  if (announcer > start && announcer < to) start = announcer;
  if (colon >= 0 && start <= colon && colon + 1 < to) start = colon + 1;
  // "budget: $45,000", not "budget: is $45,000".
  if (isSubject && tokens[start]?.pos === 'copula' && start + 1 < to) start += 1;
  if (start >= to) start = from;
  return { start, subjectHoldsValue };
}

/** The statement's value (see `StatementValue`); null when nothing is left of it. */
export function statementValue(parts: StatementParts, keyed: StatementKey, maxWords: number): StatementValue | null {
  const { tokens, from, to, subjectStart, subjectEnd, specifics } = parts;
  const { start, subjectHoldsValue } = valueStartOf(parts, keyed);
  let value = trimValue(sliceTokens(parts.sentence.text, tokens, start, to - 1), maxWords);
  if (parts.correction !== null || parts.removal !== null) value = value.replace(CORRECTION_OPENERS, '').trim() || value;
  if (value === '') return null;
  // The value must say something; a correction or removal may still act on a fact it names.
  const informative =
    isInformative(tokens, Math.max(start, subjectEnd > start && subjectEnd < to ? subjectEnd : start), to, specifics) ||
    (subjectHoldsValue && isInformative(tokens, subjectStart, subjectEnd, specifics));
  return { value, predicateValue: start !== from || keyed.isSubject, informative };
}

/** The clause from its subject on (openers and announcing words dropped), for a line whose key comes from elsewhere. */
export function clauseTextOf(parts: StatementParts, announcer: number, maxWords: number): string {
  return trimValue(sliceTokens(parts.sentence.text, parts.tokens, Math.max(parts.subjectStart, announcer), parts.to - 1), maxWords).replace(CORRECTION_OPENERS, '');
}
