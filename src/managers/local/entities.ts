/**
 * Specifics of a sentence: amounts of money, percentages, quantities, versions, names, dates (read by
 * `dates.ts`), e-mail addresses and links — the details a memory must keep verbatim.
 */
import { categoryOf } from './categories.js';
import { dateSpecifics, type DateReference } from './dates.js';
import { SMALL_TALK_WORDS, STOP_WORDS, WEEKDAYS } from './function-words.js';
import { specific, type Specific, type SpecificType } from './specifics.js';
import type { EntityType, TaggedToken } from './tagging.js';
import { endsClause } from './tokens.js';

const URL_PATTERN = /\bhttps?:\/\/[^\s)>\]]+|\bwww\.[^\s)>\]]+/giu;
const EMAIL_PATTERN = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu;
const MONEY_PATTERN =
  /(?:[$€£¥]|\b(?:usd|eur|gbp|chf|cad|aud|sek|nok|dkk|jpy)\s?)\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|million|billion|thousand)\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:k|m)?\s?(?:usd|eur|gbp|chf|dollars?|euros?|pounds?|francs?|bucks)\b/giu;
const MAY_BE_MONEY = /[$€£¥]|usd|eur|gbp|chf|cad|aud|sek|nok|dkk|jpy|dollar|pound|franc|buck|\d\s?[km]\b/iu;
const MAY_BE_PERCENT = /percent/iu;
const MAY_BE_VERSION = /v\d|\d\.\d+\./iu;
const PERCENT_PATTERN = /\b\d+(?:[.,]\d+)?\s?(?:%|percent\b)/giu;
const VERSION_PATTERN = /\bv\d+(?:\.\d+){0,3}\b|\b\d+(?:\.\d+){2,3}\b/giu;
const NUMBER_PATTERN = /\b\d[\d,]*(?:\.\d+)?(?:[a-z]{1,3}\b)?/giu;

const TYPE_RANK: Readonly<Record<SpecificType, number>> = {
  url: 9,
  email: 9,
  money: 8,
  percent: 8,
  date: 7,
  version: 6,
  name: 5,
  quantity: 4,
  number: 3,
};


function regexSpecifics(sentence: string, pattern: RegExp, type: SpecificType): Specific[] {
  const found: Specific[] = [];
  for (const match of sentence.matchAll(pattern)) {
    const text = match[0].replace(/[.,]+$/u, '');
    if (text !== '') found.push(specific(type, text, match.index));
  }
  return found;
}

/** "2010–2011", "2012-22": years, not a count of what follows ("the 2010–2011 admissions"). */
const YEAR_RANGE = /^(?:19|20)\d\d\s?[–—-]\s?(?:(?:19|20)\d\d|\d\d)$/u;

/** Plain numbers, and numbers with the word they count ("3 weeks", "500 users", "16 GB"). */
function numberSpecifics(sentence: string, tokens: readonly TaggedToken[]): Specific[] {
  const found: Specific[] = [];
  for (const match of sentence.matchAll(NUMBER_PATTERN)) {
    const text = match[0].replace(/[.,]+$/u, '');
    const start = match.index;
    const end = start + text.length;
    // "(1) 28 °C is far too high", "4) our causal language": the number of an item in a list.
    if (text.length <= 2 && sentence[end] === ')' && (start === 0 || /[\s(]/u.test(sentence[start - 1] ?? ''))) continue;
    const tokenIndex = tokens.findIndex((token) => token.start <= start && token.end >= end);
    const token = tokens[tokenIndex];
    const next = tokens[tokenIndex + 1];
    // "25 °C", "180°C", "98.6 °F": a temperature is a measure of its own.
    const degrees = /^\s?°\s?[CFcf]?(?!\p{L})/u.exec(sentence.slice(end));
    if (degrees !== null) {
      found.push(specific('quantity', sentence.slice(start, end + degrees[0].length), start));
    } else if (token !== undefined && next !== undefined && !endsClause(token) && /^\p{L}+$/u.test(next.text) && !STOP_WORDS.has(next.lower) && !YEAR_RANGE.test(token.text)) {
      found.push(specific('quantity', sentence.slice(start, next.end), start));
    } else {
      found.push(specific('number', text, start));
    }
  }
  return found;
}

const COUNT_WORDS = new Set([
  'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen',
  'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'dozen',
]);

/**
 * Counts written in words that say what they count: "thirteen of us", "twelve on the books",
 * "two kids" (not "two of them", nor a lone "twelve").
 */
function countWordSpecifics(sentence: string, tokens: readonly TaggedToken[]): Specific[] {
  const found: Specific[] = [];
  tokens.forEach((token, index) => {
    if (!COUNT_WORDS.has(token.lower) || endsClause(token)) return;
    const next = tokens[index + 1];
    const after = tokens[index + 2];
    if (next === undefined) return;
    const idiom = (next.lower === 'of' && after?.lower === 'us') || (next.lower === 'on' && after?.lower === 'the' && tokens[index + 3]?.lower === 'books');
    if (idiom) {
      const last = next.lower === 'of' ? after : tokens[index + 3];
      found.push(specific('quantity', sentence.slice(token.start, last?.end ?? next.end), token.start));
    } else if ((next.pos === 'noun' || next.pos === 'adjective') && !STOP_WORDS.has(next.lower) && /^\p{L}+$/u.test(next.text)) {
      found.push(specific('quantity', sentence.slice(token.start, next.end), token.start));
    }
  });
  return found;
}

/** Identifiers with a digit: "eu-central-1", "db.t4g.large", "gpt-4o" (a capitalised one is a name). */
const IDENTIFIER = /^\p{Ll}[\p{L}\d]*(?:[-_.][\p{L}\d]+)+$/u;

function identifierSpecifics(tokens: readonly TaggedToken[]): Specific[] {
  const found: Specific[] = [];
  for (const token of tokens) {
    if (token.hasDigit && !token.capitalised && IDENTIFIER.test(token.text)) found.push(specific('version', token.text, token.start));
  }
  return found;
}

/** Runs of capitalised words that are names ("Caroline", "New York", "PostgreSQL 16"). */
function nameSpecifics(sentence: string, tokens: readonly TaggedToken[]): Specific[] {
  const found: Specific[] = [];
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index];
    if (token === undefined || !isNameToken(token, index, tokens[index - 1])) {
      index += 1;
      continue;
    }
    let last = index;
    let entity: EntityType | null = token.entity;
    while (last + 1 < tokens.length) {
      const current = tokens[last];
      const next = tokens[last + 1];
      if (current === undefined || next === undefined || /[)"”]/u.test(current.trailing)) break;
      // "St. Mary's": an abbreviation's dot does not end the name.
      if (endsClause(current) && !(current.trailing === '.' && /^(?:st|dr|mr|mrs|ms|mt|prof|jr|sr)$/u.test(current.lower))) break;
      if (!isNameToken(next, last + 1, current)) break;
      entity ??= next.entity;
      last += 1;
    }
    const first = tokens[index];
    const final = tokens[last];
    if (first === undefined || final === undefined) break;
    // A version number right after a product name belongs to it ("Node 20", "Python 3.12").
    const following = tokens[last + 1];
    let end = final.end;
    if (following !== undefined && entity !== 'person' && !endsClause(final) && /^v?\d+(?:\.\d+)*$/u.test(following.text)) {
      end = following.end;
    }
    const text = sentence.slice(first.start, end).replace(/[’']s$/u, '');
    found.push(specific('name', text, first.start, { entity, category: categoryOf(first.text) }));
    index = last + 1;
  }
  return found;
}

/** Units written in capitals after a number ("10 GB", "5 MB", "3 TB") are not names. */
const UNITS = new Set(['kb', 'mb', 'gb', 'tb', 'pb', 'kbps', 'mbps', 'gbps', 'ms', 'km', 'kg', 'mg', 'ml', 'hz', 'mhz', 'ghz', 'usd', 'eur', 'gbp', 'cpu', 'cpus', 'vcpu', 'rpm', 'rps', 'qps']);

function isNameToken(token: TaggedToken, index: number, previous?: TaggedToken): boolean {
  if (previous !== undefined && previous.hasDigit && UNITS.has(token.lower)) return false;
  if (!token.capitalised || token.lower === 'i' || token.lower.startsWith("i'")) return false;
  if (token.pos === 'date' || token.pos === 'pronoun' || token.pos === 'determiner' || token.pos === 'question') return false;
  if (SMALL_TALK_WORDS.has(token.lower) && token.entity === null) return false;
  if (index > 0) return token.pos === 'proper' || token.entity !== null || /\p{Lu}.*\p{Lu}/u.test(token.text);
  // The first word of a sentence is a name only when the lexicon says so or its shape does ("PostgreSQL").
  return token.entity !== null || /.\p{Lu}/u.test(token.text) || (token.pos === 'proper' && categoryOf(token.text) !== null);
}

export interface SpecificOptions {
  /** Look for dates: the sentence may hold one (`mayHaveDate`) and is within the analysis budget. */
  dates: boolean;
  reference: DateReference;
}

/** Every specific of a sentence, without overlaps (the more telling type wins), in order. */
export function findSpecifics(sentence: string, tokens: readonly TaggedToken[], options: SpecificOptions): Specific[] {
  const hasDigit = tokens.some((token) => token.hasDigit);
  const candidates: Specific[] = [];
  if (sentence.includes('http') || sentence.includes('www.')) candidates.push(...regexSpecifics(sentence, URL_PATTERN, 'url'));
  if (sentence.includes('@')) candidates.push(...regexSpecifics(sentence, EMAIL_PATTERN, 'email'));
  if (hasDigit) {
    // Cheap tests first: most sentences with digits hold no amount, percentage or version.
    if (MAY_BE_MONEY.test(sentence)) candidates.push(...regexSpecifics(sentence, MONEY_PATTERN, 'money'));
    if (sentence.includes('%') || MAY_BE_PERCENT.test(sentence)) candidates.push(...regexSpecifics(sentence, PERCENT_PATTERN, 'percent'));
    if (MAY_BE_VERSION.test(sentence)) candidates.push(...regexSpecifics(sentence, VERSION_PATTERN, 'version'));
    candidates.push(...numberSpecifics(sentence, tokens));
    candidates.push(...identifierSpecifics(tokens));
  }
  if (tokens.some((token) => COUNT_WORDS.has(token.lower))) candidates.push(...countWordSpecifics(sentence, tokens));
  if (options.dates) candidates.push(...dateSpecifics(sentence, tokens, options.reference));
  candidates.push(...nameSpecifics(sentence, tokens));
  // Weekdays and months the date parser left alone ("on Fridays", "every June") are dates too.
  for (const token of tokens) {
    if (token.pos === 'date' && (token.capitalised || WEEKDAYS.has(token.lower))) candidates.push(specific('date', token.text, token.start));
  }
  candidates.sort((a, b) => TYPE_RANK[b.type] - TYPE_RANK[a.type] || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Specific[] = [];
  for (const candidate of candidates) {
    const overlapping = kept.find((other) => candidate.start < other.end && other.start < candidate.end);
    if (overlapping === undefined) {
      kept.push(candidate);
      continue;
    }
    // A name that swallows a version keeps its full span ("Node v20" over "v20").
    const swallowed = overlapping.type === 'number' || overlapping.type === 'version';
    if (candidate.type === 'name' && swallowed && candidate.start <= overlapping.start && candidate.end >= overlapping.end) {
      kept.splice(kept.indexOf(overlapping), 1, candidate);
    }
  }
  return splitChanges(sentence, kept).sort((a, b) => a.start - b.start);
}

const RANGE = /^(.+?)\s+(?:to|until|till)\s+(.+)$/u;
const CHANGED_FROM = /\b(?:moved|moving|moves|changed|changing|changes|pushed|shifted|switched|rescheduled|postponed|brought|bumped|went|goes|gone)\b[^.!?]{0,40}?\bfrom\s+$/iu;

/**
 * "moved from 14 May at 10:30 to 13 May at 15:00" is a change of date, not a range: the old and the
 * new date are two specifics.
 */
function splitChanges(sentence: string, specifics: Specific[]): Specific[] {
  if (!/from/iu.test(sentence) || !specifics.some((item) => item.type === 'date')) return specifics;
  return specifics.flatMap((item) => {
    if (item.type !== 'date' || !CHANGED_FROM.test(sentence.slice(0, item.start))) return [item];
    const match = RANGE.exec(item.text);
    const first = match?.[1];
    const second = match?.[2];
    if (match === null || first === undefined || second === undefined) return [item];
    return [specific('date', first, item.start), specific('date', second, item.start + item.text.length - second.length)];
  });
}

