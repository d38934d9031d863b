import { escapeRegExp, normalizeText } from './text.js';

/**
 * Grounding: a memory line is supported by the exchange it came from when every number
 * and every proper name in it also appears in that exchange.
 */
export interface GroundingResult {
  grounded: boolean;
  /** Numbers and names of the line that the exchange does not contain. */
  missing: string[];
}

const NUMBER_PATTERN = /\d+(?:[.,]\d+)*(?:\s?[kKmM]\b)?/gu;

/** Canonical forms of the numbers in a text: "45,000", "45000" and "45k" all give "45000". */
export function numbersIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.normalize('NFKC').matchAll(NUMBER_PATTERN)) {
    found.push(canonicalNumber(match[0]));
  }
  return found;
}

function canonicalNumber(raw: string): string {
  const suffix = raw.trim().slice(-1).toLowerCase();
  const multiplier = suffix === 'k' ? 1_000 : suffix === 'm' ? 1_000_000 : 1;
  const digits = multiplier === 1 ? raw : raw.trim().slice(0, -1).trim();
  // A comma or dot followed by exactly three digits is a thousands separator.
  const plain = digits.replace(/[.,](?=\d{3}(?:\D|$))/gu, '').replace(',', '.');
  const value = Number(plain);
  if (!Number.isFinite(value)) return plain;
  const scaled = value * multiplier;
  return Number.isInteger(scaled) ? String(scaled) : String(Number(scaled.toFixed(6)));
}

/** Where a capital only marks the start of a sentence: the line start, or after . ! ? or a line break. */
const SENTENCE_START = /(?:^\s*|[.!?\n]\s+)$/u;

/** Capitalised words that are not the first word of a sentence. */
export function properNamesIn(text: string): string[] {
  const names: string[] = [];
  for (const match of text.normalize('NFKC').matchAll(/\p{Lu}[\p{L}\p{N}'’&.-]*/gu)) {
    const before = text.slice(0, match.index);
    if (SENTENCE_START.test(before)) continue;
    const name = match[0].replace(/[.'’-]+$/u, '');
    if (name === 'I' || name.length < 2) continue;
    names.push(name);
  }
  return names;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "(16 April 2026)", "(April 2026)": the day (or month) a relative date resolves to, as memory lines write it. */
const RESOLVED_DATE = /\((?:now )?(?:(\d{1,2}) )?(January|February|March|April|May|June|July|August|September|October|November|December) (\d{4})\)/gu;

/** How far from the message's time a resolved date may lie: "in two weeks", "next spring", "last year". */
const RESOLUTION_WINDOW_MS = 400 * 86_400_000;

/**
 * A relative date the parenthesized day resolves: "tomorrow", "next Thursday", "in two weeks", "last
 * weekend", "Saturday the 16th", with the time of day it may give ("next Tuesday at noon", "tomorrow at 10:30").
 */
const RELATIVE_BEFORE =
  /\b(?:today|tonight|tomorrow|yesterday|next|last|this|coming|ago|later|earlier|weekend|weeks?|months?|fortnight|days?|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day(?:,?\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th))?|morning|afternoon|evening|night)(?:,?\s+at\s+(?:noon|midday|midnight|\d{1,2}[:.]\d{2}\s*(?:am|pm)?|\d{1,2}\s*(?:am|pm)))?\W*$/iu;

/**
 * The line without the resolved dates it may carry: a date in parentheses right after a relative date
 * ("tomorrow (17 March 2026)", "next Thursday (16 April 2026)"), or a moved one ("(now 15 May 2026)"),
 * that lies within about a year of a time the exchange was sent, is grounded by that time, not by the
 * words of the exchange. Any other date must be in the exchange.
 */
function withoutResolvedDates(line: string, times: readonly string[]): string {
  const instants = times.map((time) => Date.parse(time)).filter((instant) => !Number.isNaN(instant));
  if (instants.length === 0 || !line.includes('(')) return line;
  return line.replace(RESOLVED_DATE, (whole: string, day: string | undefined, month: string, year: string, offset: number) => {
    const relative = whole.startsWith('(now ') || RELATIVE_BEFORE.test(line.slice(Math.max(0, offset - 40), offset));
    const instant = Date.UTC(Number(year), MONTHS.indexOf(month.toLowerCase()), day === undefined ? 15 : Number(day));
    return relative && instants.some((sent) => Math.abs(sent - instant) <= RESOLUTION_WINDOW_MS) ? '' : whole;
  });
}

/** Whether the (normalised) source writes `name` inside a word, as the line does ("eDRIS"): case and all. */
function sourceHasInside(normalizedSource: string, name: string): boolean {
  return new RegExp(`\\p{Ll}${escapeRegExp(name)}`, 'u').test(normalizedSource);
}

/**
 * Check that the numbers and proper names of `line` appear in `source`. `times` are the ISO times the
 * source's messages were sent: a relative date resolved against one of them ("(16 April 2026)") is grounded.
 */
export function checkGrounding(line: string, source: string, times: readonly string[] = []): GroundingResult {
  line = withoutResolvedDates(line, times);
  const sourceNumbers = new Set(numbersIn(source));
  const sourceWords = ` ${normalizeText(source)} `;
  const normalizedSource = source.normalize('NFKC');
  const missing: string[] = [];
  for (const number of numbersIn(line)) {
    if (!sourceNumbers.has(number)) missing.push(number);
  }
  for (const name of properNamesIn(line)) {
    const normalized = normalizeText(name);
    // (A name read from inside a word, "DRIS" of "eDRIS", is grounded by that word.)
    if (normalized !== '' && !sourceWords.includes(` ${normalized} `) && !sourceHasInside(normalizedSource, name)) missing.push(name);
  }
  return { grounded: missing.length === 0, missing: [...new Set(missing)] };
}
