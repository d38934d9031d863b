/**
 * Value classes: what kind of value a claim or a fact line holds — an amount, a date, a count of
 * people, a measure, a name. An update replaces a value with one of the same class: "back to 12, not
 * 11" (a count) never touches "paid on the 11th" (a day of the month).
 */
import { scopedMemo } from '../../core/memo-space.js';
import type { Specific } from './specifics.js';

export type ValueClass = 'money' | 'percent' | 'date' | 'count' | 'measure' | 'number' | 'person' | 'name';

/** Nouns of people counted ("12 guests", "thirteen of us on the books"). */
export const PEOPLE_NOUNS: ReadonlySet<string> = new Set([
  'people', 'persons', 'staff', 'employees', 'guests', 'attendees', 'members', 'students', 'kids', 'children', 'adults', 'agents',
  'seats', 'users', 'headcount', 'heads', 'team', 'hires', 'workers', 'volunteers', 'participants', 'pupils', 'patients', 'us',
  'covers', 'players', 'engineers', 'developers', 'customers', 'clients', 'tenants', 'residents', 'visitors', 'passengers',
]);

const ORDINAL = /^\d{1,2}(?:st|nd|rd|th)$/iu;

/** The class of one specific, given the word after it (for counts of people). */
export function classOfSpecific(item: Specific, nextWord = ''): ValueClass {
  switch (item.type) {
    case 'money':
      return 'money';
    case 'percent':
      return 'percent';
    case 'date':
      return 'date';
    case 'quantity':
      // ("twelve on the books" is the staff.)
      return PEOPLE_NOUNS.has(/\s(\p{L}+)$/u.exec(item.text)?.[1]?.toLowerCase() ?? '') || /\bon the books$/iu.test(item.text) ? 'count' : 'measure';
    case 'number':
      if (ORDINAL.test(item.text.trim())) return 'date';
      return PEOPLE_NOUNS.has(nextWord.toLowerCase()) || nextWord.toLowerCase() === 'of' ? 'count' : 'number';
    case 'version':
      return 'number';
    case 'name':
      return item.entity === 'person' ? 'person' : 'name';
    default:
      return 'name';
  }
}

/**
 * Classes precise enough for two values of one to compete — a new one replaces the old — and to make a
 * part of a line an attribute of its own: amounts, rates, dates, counts, measures (not a bare name or number).
 */
export const COMPETING_CLASSES: ReadonlySet<ValueClass> = new Set(['money', 'percent', 'date', 'count', 'measure']);

/** Whether a value of class `a` can stand in for one of class `b`. */
export function sameClass(a: ValueClass, b: ValueClass): boolean {
  if (a === b) return true;
  const numeric = (value: ValueClass): boolean => value === 'count' || value === 'number' || value === 'measure';
  if (numeric(a) && numeric(b)) return a === 'number' || b === 'number';
  const named = (value: ValueClass): boolean => value === 'person' || value === 'name';
  return named(a) && named(b);
}

const MONEY = /[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:k|m|usd|eur|gbp|chf|dollars?|euros?|pounds?|quid|bucks)\b/iu;
const PERCENT = /\d\s?(?:%|percent\b)/iu;
const MONTH_NAMES =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const DATE = new RegExp(
  `\\b(?:${MONTH_NAMES})\\.?\\s+\\d{1,2}\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTH_NAMES})\\b|\\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b(?:the\\s+)?\\d{1,2}(?:st|nd|rd|th)\\b|\\b(?:today|tomorrow|tonight|yesterday)\\b`,
  'iu',
);
const COUNT = /\b\d+\s+(?:of\s+us|on\s+the\s+books|(?:\p{L}+\s+)?(?:people|staff|employees|guests|attendees|members|students|kids|children|adults|agents|seats|users|patients|covers))\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|twenty)\s+(?:of\s+us|people|staff|guests|on\s+the\s+books)\b/iu;
const MEASURE = /\b\d+(?:[.,]\d+)?\s?(?:mg|g|kg|ml|l|km|m|cm|mm|ft|feet|foot|inch|inches|in|lb|lbs|kcal|hours?|hrs?|minutes?|mins?|weeks?|days?|months?|years?|miles?|words?|pages?|gb|mb|tb)\b|\b\d+-(?:inch|foot|ft|week|day|hour|minute|page|word)\b/iu;
const NAME = /(?:^|[\s(])\p{Lu}[\p{L}\p{N}'’&.-]*/gu;
/** "1)", "(2)": the number of an item in a list. */
export const LIST_MARKER = /(?:^|[\s(])\d{1,2}\)/gu;
const CALENDAR_WORD = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?$/iu;

/** Whether the text names something: a capitalised word that is not a weekday or a month. */
function hasName(text: string): boolean {
  for (const match of text.matchAll(NAME)) if (!CALENDAR_WORD.test(match[0].trim().replace(/^\(/u, ''))) return true;
  return false;
}

function computeClasses(text: string): ReadonlySet<ValueClass> {
  const value = text.slice(text.indexOf(':') + 1);
  const classes = new Set<ValueClass>();
  if (MONEY.test(value)) classes.add('money');
  if (PERCENT.test(value)) classes.add('percent');
  if (DATE.test(value)) classes.add('date');
  if (COUNT.test(value)) classes.add('count');
  if (MEASURE.test(value)) classes.add('measure');
  // ("4) our causal language …": a list marker is no value.)
  if (classes.size === 0 && /\d/u.test(value.replace(LIST_MARKER, ' '))) classes.add('number');
  if (hasName(value.trim().slice(1))) classes.add('name');
  return classes;
}

/** The classes of the values a fact line holds after its key, remembered (lines recur turn after turn). */
export const classesOfLine: (text: string) => ReadonlySet<ValueClass> = scopedMemo(computeClasses);

/** Whether a fact line holds a value of a class that can stand in for `wanted`. */
export function lineHoldsClass(text: string, wanted: ValueClass): boolean {
  for (const held of classesOfLine(text)) if (sameClass(held, wanted)) return true;
  return false;
}
