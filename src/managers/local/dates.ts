/**
 * Dates of a sentence: weekdays, calendar days and relative dates ("tomorrow", "in two weeks"), resolved
 * against the time of the message that says them; chrono-node reads what simple rules cannot.
 */
import type { ParsedResult } from 'chrono-node';

import { loadedDateParser } from './date-parser.js';
import { dayPhrases, dayText, MONTH_NAMES } from './day-phrases.js';
import { COUNT_WORDS, DATE_UNITS, DATE_WORDS, MONTHS, RELATIVE_DATE_WORDS, WEEKDAYS } from './function-words.js';
import { specific, type Specific } from './specifics.js';
import type { Token } from './tokens.js';

/** The instant relative dates are resolved against, and its UTC offset in minutes. */
export interface DateReference {
  instant: Date;
  timezone: number;
  /** False when the turn has no valid timestamp: dates are found but not resolved. */
  resolvable: boolean;
}


/** Build the reference for relative dates from the turn's ISO timestamp. */
export function dateReference(timestamp: string): DateReference {
  const instant = new Date(timestamp);
  if (Number.isNaN(instant.getTime())) return { instant: new Date(0), timezone: 0, resolvable: false };
  const offset = /([+-])(\d{2}):?(\d{2})$/u.exec(timestamp);
  const timezone = offset === null ? 0 : (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  return { instant, timezone, resolvable: true };
}

/** Digits shaped like a date or a time: 12/03, 2024-05-01, 1999, 3pm, 10:30, 3rd. */
const DATE_DIGITS = /^\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?$|^(?:19|20)\d{2}s?$|^\d{1,2}(?::\d{2})?(?:am|pm|a\.m|p\.m)?$|^\d{1,2}(?:st|nd|rd|th)$/u;
const RELATIVE_OPENERS = new Set(['next', 'last', 'this', 'coming', 'past', 'every']);

/** Units a span counts in: "in three weeks", "in 10 days". */
const SPAN_UNITS: ReadonlySet<string> = new Set(['day', 'days', 'week', 'weeks', 'fortnight', 'fortnights', 'month', 'months']);

/** Whether "in" at `index` opens a span from the message's day: "in three weeks", "in 10 days", "in a fortnight". */
function inCountedSpan(tokens: readonly Token[], index: number): boolean {
  const count = tokens[index + 1];
  const unit = tokens[index + 2];
  if (count === undefined || unit === undefined || !SPAN_UNITS.has(unit.lower)) return false;
  return COUNT_WORDS[count.lower] !== undefined || /^\d{1,3}$/u.test(count.lower);
}

/** Whether the token starts or anchors a date expression. */
function isDateAnchor(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index];
  if (token === undefined) return false;
  const lower = token.lower;
  const next = tokens[index + 1];
  if (DATE_WORDS.has(lower)) return true;
  if (lower === 'in') return inCountedSpan(tokens, index);
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

const LEADING_PREPOSITION = /^\s*(?:(?:on|at|in|by|from|since|until|till|for)\s+)?/iu;

/** Days from the message time of the one-word dates that need no parser. */
const SIMPLE_DAYS: ReadonlyMap<string, number> = new Map([
  ['today', 0],
  ['tonight', 0],
  ['yesterday', -1],
  ['tomorrow', 1],
]);

function calendarDay(reference: DateReference, days: number): string {
  return dayText(new Date(reference.instant.getTime() + reference.timezone * 60_000 + days * 86_400_000));
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

/**
 * The first calendar day written in `text` ("Friday May 8"), read against `reference`; null when there is
 * none. Throws `DateParserNeeded` when the parser is not loaded yet.
 */
export function firstDay(text: string, reference: DateReference): Date | null {
  // (Whitespace collapsed, as in the sentences the parser reads: see date-parser.ts.)
  for (const result of loadedDateParser().parse(text.replace(/\s+/gu, ' '), { instant: reference.instant, timezone: reference.timezone })) {
    if (result.start.isCertain('day') && result.start.isCertain('month')) return result.start.date();
  }
  return null;
}

/** "16 April 2026": a day as memory lines write it. */
export function dayName(date: Date): string {
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
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

const SPAN_FROM = /\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,3})\s+(days?|weeks?|months?)\s+from\s+(today|now|tomorrow)\b/iu;

/**
 * "two weeks from today": a span counted from the message's day, which the parser reads as "today" alone
 * (a wrong day); null when the piece holds none.
 */
function spanFromToday(piece: string, offset: number, reference: DateReference): Specific | null {
  const match = SPAN_FROM.exec(piece);
  if (match === null) return null;
  const [text, countWord = '', unit = '', base = ''] = match;
  const count = COUNT_WORDS[countWord.toLowerCase()] ?? Number(countWord);
  const startDays = base.toLowerCase() === 'tomorrow' ? 1 : 0;
  let resolved: string | null = null;
  if (reference.resolvable) {
    if (/^month/iu.test(unit)) {
      const local = new Date(reference.instant.getTime() + reference.timezone * 60_000 + startDays * 86_400_000);
      local.setUTCMonth(local.getUTCMonth() + count);
      resolved = dayName(local);
    } else resolved = calendarDay(reference, startDays + count * (/^week/iu.test(unit) ? 7 : 1));
  }
  return specific('date', text, offset + match.index, { resolved });
}

export function dateSpecifics(sentence: string, tokens: readonly Token[], reference: DateReference): Specific[] {
  const found: Specific[] = [];
  for (const [from, to] of dateWindows(tokens)) {
    const windowStart = tokens[from]?.start ?? 0;
    const counted = spanFromToday(sentence.slice(windowStart, tokens[to]?.end ?? sentence.length), windowStart, reference);
    if (counted !== null) {
      found.push(counted);
      continue;
    }
    const offset = tokens[from]?.start ?? 0;
    const piece = sentence.slice(offset, tokens[to]?.end ?? sentence.length);
    // "Saturday the 16th", "the Sunday after next": read here; the rest of the window as usual.
    const named = dayPhrases(piece, reference.resolvable ? reference.instant : null, reference.timezone);
    if (named.length > 0) {
      let rest = piece;
      for (const phrase of named) {
        found.push(specific('date', phrase.text, offset + phrase.index, { resolved: phrase.resolved }));
        // (Blanked with a character that is no whitespace: the parser reads no date across the gap.)
        rest = rest.slice(0, phrase.index) + '\u0000'.repeat(phrase.text.length) + rest.slice(phrase.index + phrase.text.length);
      }
      const inPhrase = (token: Token): boolean => named.some((phrase) => token.start < offset + phrase.index + phrase.text.length && token.end > offset + phrase.index);
      if (mayHaveDate(tokens.slice(from, to + 1).filter((token) => !inPhrase(token)))) found.push(...parsedDates(rest, offset, reference));
      continue;
    }
    const simple = simpleDate(tokens, from, to, reference);
    if (simple !== null) {
      found.push(simple);
      continue;
    }
    const weekdays = weekdayDates(piece, offset, tokens, from, to);
    if (weekdays !== null) {
      found.push(...weekdays);
      continue;
    }
    found.push(...parsedDates(piece, offset, reference));
  }
  return found;
}

/** The dates the parser reads in `piece` (which starts at `offset` of its sentence). */
function parsedDates(piece: string, offset: number, reference: DateReference): Specific[] {
  const found: Specific[] = [];
  for (const result of loadedDateParser().parse(piece, { instant: reference.instant, timezone: reference.timezone })) {
    const lead = LEADING_PREPOSITION.exec(result.text)?.[0].length ?? 0;
    const text = result.text.slice(lead).replace(/[\s,;:.]+$/u, '');
    const lower = text.toLowerCase();
    if (lower === 'now' || /^\d{1,2}$/u.test(lower) || (lower.length <= 3 && !/\d/u.test(lower))) continue;
    found.push(specific('date', text, offset + result.index + lead, { resolved: reference.resolvable ? resolveDate(result, result.text.replace(/[\s,;:.]+$/u, '').toLowerCase()) : null }));
  }
  return found;
}

function resolveDate(result: ParsedResult, lower: string): string | null {
  const words = lower.split(/\s+/u);
  if (!words.some((word) => RELATIVE_DATE_WORDS.has(word))) return null;
  if (words[0] === 'in' && !/\d/u.test(lower) && COUNT_WORDS[words[1] ?? ''] === undefined) return null;
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
