/**
 * Specifics of a sentence: amounts of money, percentages, quantities, versions, dates, names,
 * e-mail addresses and links — the details a memory must keep verbatim.
 */
import type * as ChronoModule from 'chrono-node';
import type { ParsedResult } from 'chrono-node';

import { categoryOf } from './categories.js';
import { DATE_UNITS, DATE_WORDS, MONTHS, RELATIVE_DATE_WORDS, SMALL_TALK_WORDS, STOP_WORDS, WEEKDAYS } from './function-words.js';
import type { EntityType, TaggedToken } from './tagging.js';
import { endsClause } from './tokens.js';
import type { Token } from './tokens.js';

export type SpecificType = 'money' | 'percent' | 'quantity' | 'number' | 'version' | 'date' | 'name' | 'email' | 'url';

export interface Specific {
  type: SpecificType;
  /** The specific as written in the sentence. */
  text: string;
  /** Offsets in the sentence. */
  start: number;
  end: number;
  /** For names: person, place or organization when known. */
  entity: EntityType | null;
  /** For names of known products: their category ("database"). */
  category: string | null;
  /** For dates relative to the message time ("yesterday"): the calendar date, e.g. "7 May 2023". */
  resolved: string | null;
}

/** The instant relative dates are resolved against, and its UTC offset in minutes. */
export interface DateReference {
  instant: Date;
  timezone: number;
  /** False when the turn has no valid timestamp: dates are found but not resolved. */
  resolvable: boolean;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Build the reference for relative dates from the turn's ISO timestamp. */
export function dateReference(timestamp: string): DateReference {
  const instant = new Date(timestamp);
  if (Number.isNaN(instant.getTime())) return { instant: new Date(0), timezone: 0, resolvable: false };
  const offset = /([+-])(\d{2}):?(\d{2})$/u.exec(timestamp);
  const timezone = offset === null ? 0 : (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  return { instant, timezone, resolvable: true };
}

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

function specific(type: SpecificType, text: string, start: number, extra: Partial<Specific> = {}): Specific {
  return { type, text, start, end: start + text.length, entity: null, category: null, resolved: null, ...extra };
}

function regexSpecifics(sentence: string, pattern: RegExp, type: SpecificType): Specific[] {
  const found: Specific[] = [];
  for (const match of sentence.matchAll(pattern)) {
    const text = match[0].replace(/[.,]+$/u, '');
    if (text !== '') found.push(specific(type, text, match.index));
  }
  return found;
}

/** Plain numbers, and numbers with the word they count ("3 weeks", "500 users", "16 GB"). */
function numberSpecifics(sentence: string, tokens: readonly TaggedToken[]): Specific[] {
  const found: Specific[] = [];
  for (const match of sentence.matchAll(NUMBER_PATTERN)) {
    const text = match[0].replace(/[.,]+$/u, '');
    const start = match.index;
    const end = start + text.length;
    const tokenIndex = tokens.findIndex((token) => token.start <= start && token.end >= end);
    const token = tokens[tokenIndex];
    const next = tokens[tokenIndex + 1];
    if (token !== undefined && next !== undefined && !endsClause(token) && /^\p{L}+$/u.test(next.text) && !STOP_WORDS.has(next.lower)) {
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

/** Digits shaped like a date or a time: 12/03, 2024-05-01, 1999, 3pm, 10:30, 3rd. */
const DATE_DIGITS = /^\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?$|^(?:19|20)\d{2}s?$|^\d{1,2}(?::\d{2})?(?:am|pm|a\.m|p\.m)?$|^\d{1,2}(?:st|nd|rd|th)$/u;
const RELATIVE_OPENERS = new Set(['next', 'last', 'this', 'coming', 'past', 'every']);

/** Whether the token starts or anchors a date expression. */
function isDateAnchor(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index];
  if (token === undefined) return false;
  const lower = token.lower;
  const next = tokens[index + 1];
  if (DATE_WORDS.has(lower)) return true;
  if (RELATIVE_OPENERS.has(lower)) return next !== undefined && DATE_UNITS.has(next.lower);
  if (MONTHS.has(lower)) return token.capitalised && (lower !== 'may' || next?.hasDigit === true || index > 0);
  if (WEEKDAYS.has(lower)) return token.capitalised || lower.length > 4;
  if (token.hasDigit && DATE_DIGITS.test(lower)) {
    // A bare number counts only next to a time word ("3 pm"); other shapes are dates or times themselves.
    if (!/^\d{1,2}$/u.test(lower)) return true;
    return next !== undefined && (next.lower === 'am' || next.lower === 'pm' || next.lower === "o'clock");
  }
  return false;
}

/** Whether the sentence may contain a date worth the date parser's time (a date word, or digits shaped like a date). */
export function mayHaveDate(tokens: readonly Token[]): boolean {
  for (let index = 0; index < tokens.length; index += 1) if (isDateAnchor(tokens, index)) return true;
  return false;
}

/** Token windows around the date anchors of a sentence: the date parser's cost grows with its input. */
function dateWindows(tokens: readonly Token[]): [number, number][] {
  const windows: [number, number][] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    if (!isDateAnchor(tokens, index)) continue;
    const from = Math.max(0, index - 3);
    const to = Math.min(tokens.length - 1, index + 3);
    const last = windows[windows.length - 1];
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else windows.push([from, to]);
  }
  return windows;
}

const LEADING_PREPOSITION = /^(?:on|at|in|by|from|since|until|till|for)\s+/iu;

/** Days from the message time of the one-word dates that need no parser. */
const SIMPLE_DAYS: ReadonlyMap<string, number> = new Map([
  ['today', 0],
  ['tonight', 0],
  ['yesterday', -1],
  ['tomorrow', 1],
]);

function calendarDay(reference: DateReference, days: number): string {
  const local = new Date(reference.instant.getTime() + reference.timezone * 60_000 + days * 86_400_000);
  return `${local.getUTCDate()} ${MONTH_NAMES[local.getUTCMonth()] ?? ''} ${local.getUTCFullYear()}`;
}

/** A window whose only date word is "today", "tonight", "yesterday" or "tomorrow" is resolved without the parser. */
function simpleDate(tokens: readonly Token[], from: number, to: number, reference: DateReference): Specific | null {
  let found: Specific | null = null;
  for (let index = from; index <= to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    const days = SIMPLE_DAYS.get(token.lower);
    if (days !== undefined) {
      if (found !== null) return null;
      found = specific('date', token.text, token.start, { resolved: reference.resolvable ? calendarDay(reference, days) : null });
    } else if (isDateAnchor(tokens, index) || token.hasDigit || RELATIVE_OPENERS.has(token.lower) || DATE_UNITS.has(token.lower)) {
      return null;
    }
  }
  return found;
}

type DateParser = typeof ChronoModule;

/** The date parser (chrono-node), loaded on first need: most turns' dates need no parser. */
let dateParser: DateParser | null = null;
let loadingDateParser: Promise<DateParser> | null = null;

/** Thrown by the analysis when a turn needs the date parser before it is loaded; the turn is then redone. */
export class DateParserNeeded extends Error {
  constructor() {
    super('the date parser is not loaded yet');
    this.name = 'DateParserNeeded';
  }
}

/**
 * The first calendar day written in `text` ("Friday May 8"), read against `reference`; null when there is
 * none. Throws `DateParserNeeded` when the parser is not loaded yet.
 */
export function firstDay(text: string, reference: DateReference): Date | null {
  if (dateParser === null) throw new DateParserNeeded();
  for (const result of dateParser.parse(text, { instant: reference.instant, timezone: reference.timezone })) {
    if (result.start.isCertain('day') && result.start.isCertain('month')) return result.start.date();
  }
  return null;
}

/** "16 April 2026": a day as memory lines write it. */
export function dayName(date: Date): string {
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

/** Whether the date parser is loaded. */
export function dateParserLoaded(): boolean {
  return dateParser !== null;
}

/** Load the date parser and compile its patterns (a few hundred milliseconds, once per process). */
export async function loadDateParser(): Promise<void> {
  if (dateParser !== null) return;
  loadingDateParser ??= import('chrono-node');
  const parser = await loadingDateParser;
  if (dateParser !== null) return;
  parser.parse('next Friday at 3pm, 2 weeks ago, on 3 March 2024 or 12/03/2024', { instant: new Date(0), timezone: 0 });
  dateParser = parser;
}

/**
 * chrono-node's English weekday pattern (its `ENWeekdayParser`, with the word-boundary prefix all its
 * parsers get), so a window holding nothing but weekday names is read exactly as the parser would.
 */
const WEEKDAY_PATTERN = new RegExp(
  '(\\W|^)((?:(?:\\,|\\(|\\（)\\s*)?(?:on\\s*?)?(?:(this|last|past|next)\\s*)?' +
    '(wednesday|thursday|saturday|tuesday|sunday|monday|thurs\\.|friday|thurs|thur\\.|sun\\.|mon\\.|tue\\.|wed\\.|thur|thu\\.|fri\\.|sat\\.|sun|mon|tue|wed|thu|fri|sat|weekend|weekday)' +
    '(?:\\s*(?:\\,|\\)|\\）))?(?:\\s*(?:of\\s*)?(this|last|past|next)\\s*week)?(?=\\W|$))',
  'i',
);

/** chrono-node's timezone-abbreviation suffix (its `ExtractTimezoneAbbrRefiner`), and the abbreviations it knows. */
const TIMEZONE_SUFFIX = /^\s*,?\s*\(?([A-Z]{2,4})\)?(?=\W|$)/i;
const TIMEZONE_ABBREVIATIONS: ReadonlySet<string> = new Set(
  (
    'ACDT ACST ADT AEDT AEST AFT AKDT AKST ALMT AMST AMT ANAT AQTT ART AST AWDT AWST AZOT AZST AZT BNT BOT BRST BRT BST BTT CAST ' +
    'CAT CCT CDT CEST CET CKT CLST CLT COT CST CT CVT CXT CHST DAVT EAST EAT ECT EDT EEST EET EGST EGT EST ET FJST FJT FKST FKT ' +
    'FNT GALT GAMT GET GFT GILT GMT GST GYT HAA HAC HADT HAE HAP HAR HAST HAT HAY HKT HLV HNA HNC HNE HNP HNR HNT HNY HOVT ICT IDT ' +
    'IOT IRDT IRKT IRST IST JST KGT KRAT KST KUYT LHDT LHST LINT MAGT MART MAWT MDT MESZ MEZ MHT MMT MSD MSK MST MT MUT MVT MYT NCT ' +
    'NDT NFT NOVT NPT NST NUT NZDT NZST OMST PDT PET PETT PGT PHOT PHT PKT PMDT PMST PONT PST PT PWT PYST PYT RET SAMT SAST SBT SCT ' +
    'SGT SRT SST TAHT TFT TJT TKT TLT TMT TVT ULAT UTC UYST UYT UZT VET VLAT VUT WAST WAT WEST WESZ WET WEZ WFT WGST WGT WIB WIT ' +
    'WITA WST WT YAKT YAPT YEKT'
  ).split(' '),
);

const FULL_WEEKDAYS: ReadonlySet<string> = new Set([
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays', 'saturdays', 'sundays',
]);

/**
 * Words some other chrono-node parser reads (months, weekday abbreviations, time units, casual and
 * relative date words): a window holding one of them goes to the parser.
 */
const PARSER_WORDS: ReadonlySet<string> = new Set([
  ...MONTHS, 'sun', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'weekend', 'weekends', 'weekday', 'weekdays',
  's', 'sec', 'secs', 'second', 'seconds', 'm', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours', 'd', 'day', 'days',
  'w', 'week', 'weeks', 'mo', 'mos', 'month', 'months', 'qtr', 'quarter', 'quarters', 'y', 'yr', 'yrs', 'year', 'years', 'decade', 'decades',
  'fortnight', 'fortnights', 'now', 'today', 'tonight', 'tonite', 'tomorrow', 'overmorrow', 'tmr', 'tmrw', 'yesterday', 'night', 'morning',
  'afternoon', 'evening', 'midnight', 'midday', 'noon', 'this', 'last', 'past', 'next', 'after', 'within', 'ago', 'later', 'end',
]);

/**
 * The dates of a window whose only date words are full weekday names, read without the parser
 * (same pattern, same result); null when the window needs the parser.
 */
function weekdayDates(piece: string, offset: number, tokens: readonly Token[], from: number, to: number): Specific[] | null {
  for (let index = from; index <= to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (token.hasDigit) return null;
    const lower = token.lower.endsWith("'s") ? token.lower.slice(0, -2) : token.lower;
    if (FULL_WEEKDAYS.has(lower)) continue;
    for (const part of lower.split(/[^a-z']+/u)) if (PARSER_WORDS.has(part)) return null;
  }
  const match = WEEKDAY_PATTERN.exec(piece);
  if (match === null) return [];
  const header = match[1] ?? '';
  const text = match[2] ?? '';
  const index = match.index + header.length;
  const rest = piece.slice(index + text.length);
  // Two weekdays may make a range ("Monday to Friday"); a timezone may follow: the parser's job.
  if (WEEKDAY_PATTERN.test(rest)) return null;
  const zone = TIMEZONE_SUFFIX.exec(rest)?.[1];
  if (zone !== undefined && TIMEZONE_ABBREVIATIONS.has(zone.toUpperCase())) return null;
  const lead = LEADING_PREPOSITION.exec(text)?.[0].length ?? 0;
  const kept = text.slice(lead);
  const lower = kept.toLowerCase();
  if (lower === 'now' || lower.length <= 3) return [];
  return [specific('date', kept, offset + index + lead)];
}

function dateSpecifics(sentence: string, tokens: readonly Token[], reference: DateReference): Specific[] {
  const found: Specific[] = [];
  for (const [from, to] of dateWindows(tokens)) {
    const simple = simpleDate(tokens, from, to, reference);
    if (simple !== null) {
      found.push(simple);
      continue;
    }
    const offset = tokens[from]?.start ?? 0;
    const piece = sentence.slice(offset, tokens[to]?.end ?? sentence.length);
    const weekdays = weekdayDates(piece, offset, tokens, from, to);
    if (weekdays !== null) {
      found.push(...weekdays);
      continue;
    }
    if (dateParser === null) throw new DateParserNeeded();
    for (const result of dateParser.parse(piece, { instant: reference.instant, timezone: reference.timezone })) {
      const lead = LEADING_PREPOSITION.exec(result.text)?.[0].length ?? 0;
      const text = result.text.slice(lead).replace(/[\s,;:.]+$/u, '');
      const lower = text.toLowerCase();
      if (lower === 'now' || /^\d{1,2}$/u.test(lower) || (lower.length <= 3 && !/\d/u.test(lower))) continue;
      found.push(specific('date', text, offset + result.index + lead, { resolved: reference.resolvable ? resolveDate(result, lower) : null }));
    }
  }
  return found;
}

function resolveDate(result: ParsedResult, lower: string): string | null {
  const words = lower.split(/\s+/u);
  if (!words.some((word) => RELATIVE_DATE_WORDS.has(word))) return null;
  if (words[0] === 'in' && !/\d|\ba\b|\ban\b/u.test(lower)) return null;
  const start = result.start;
  const year = start.get('year');
  const month = start.get('month');
  const day = start.get('day');
  if (year === null || month === null || day === null) return null;
  const monthName = MONTH_NAMES[month - 1] ?? String(month);
  // "last week", "next month" name no day: a day would be invented precision ("in two weeks" does name one).
  const vague = words.some((word) => /^(?:weeks?|weekends?|months?|years?)$/u.test(word)) && !/\d|\b(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten)\b/u.test(lower);
  if (vague && !words.some((word) => WEEKDAYS.has(word) && !/^weekends?$/u.test(word))) return /month/u.test(lower) ? `${monthName} ${year}` : null;
  if (start.isCertain('day') || words.some((word) => WEEKDAYS.has(word))) return `${day} ${monthName} ${year}`;
  if (start.isCertain('month')) return `${monthName} ${year}`;
  if (start.isCertain('year')) return String(year);
  return null;
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

