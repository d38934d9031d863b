/**
 * Corrections: a statement with "actually", "no longer", "instead", "changed to", "not … anymore" …
 * changes or drops a fact the conversation already holds. This module finds which fact it speaks
 * about and what the new line is.
 */
import { boundedMemo } from '../../core/bounded-memo.js';
import { numbersIn } from '../../core/grounding.js';
import { mapPacked } from '../../core/packed-map.js';
import { normalizeText } from '../../core/text.js';
import type { FactKind } from '../../core/types.js';
import { categoryOf } from './categories.js';
import type { Specific } from './entities.js';
import type { Statement } from './fact-extraction.js';
import { STOP_WORDS } from './function-words.js';

/** A fact a correction may target: one of the document, or one proposed earlier in the same turn. */
export interface KnownFact {
  /** The fact id, or a pending id for a line of this turn. */
  id: string;
  /** The normalised key. */
  key: string;
  /** The key as written before the `:` of the line (same normalised form as `key`). */
  keyText: string;
  text: string;
  kind: FactKind;
  /** Recency: later facts win ties. */
  order: number;
  pending: boolean;
}

export type CorrectionAction =
  | { type: 'update'; target: KnownFact; text: string; kind: FactKind }
  | { type: 'remove'; target: KnownFact; reason: string };

/** The key as written in a fact line, when it normalises to the stored key; otherwise the stored key. */
export function displayKey(key: string, text: string): string {
  const cached = DISPLAY_KEYS.get(text);
  if (cached !== undefined && cached.key === key) return cached.shown;
  const shown = writtenKey(key, text);
  if (DISPLAY_KEYS.size >= 10_000) DISPLAY_KEYS.clear();
  DISPLAY_KEYS.set(text, { key, shown });
  return shown;
}

/** Shown keys by fact line (lines recur turn after turn). Bounded; cleared when full. */
const DISPLAY_KEYS = new Map<string, { key: string; shown: string }>();

function writtenKey(key: string, text: string): string {
  const colon = text.indexOf(':');
  if (colon > 0) {
    const written = text.slice(0, colon).trim();
    if (profileOf(written).padded === ` ${key} `) return written;
  }
  return key;
}

/** The content words of a text, stemmed (cached). */
export function contentWordsOf(text: string): ReadonlySet<string> {
  return profileOf(text).content;
}

function stem(word: string): string {
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
const profileOf = boundedMemo((text: string): TextProfile => {
  const normalized = normalizeText(text);
  const all = normalized === '' ? [] : normalized.split(' ');
  return {
    padded: ` ${normalized} `,
    words: new Set(all),
    content: new Set(all.filter((word) => !STOP_WORDS.has(word)).map(stem)),
    numbers: new Set(/\d/u.test(text) ? numbersIn(text) : []),
  };
}, 20_000);

function contentWords(text: string): ReadonlySet<string> {
  return profileOf(text).content;
}

function contentWordsUncached(text: string): ReadonlySet<string> {
  const normalized = normalizeText(text);
  return new Set((normalized === '' ? [] : normalized.split(' ')).filter((word) => !STOP_WORDS.has(word)).map(stem));
}

/** Sørensen–Dice over word sets (as `wordSimilarity` in core/text), from cached profiles. */
function similarity(left: string, right: string): number {
  const a = profileOf(left).words;
  const b = profileOf(right).words;
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

function hasCategory(text: string, category: string): boolean {
  for (const match of text.matchAll(/\b\p{Lu}[\p{L}\p{N}.+#-]*/gu)) {
    if (categoryOf(match[0]) === category) return true;
  }
  return false;
}

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

/** What a statement brings to the matching, computed once for all the facts it is matched against. */
interface Probe {
  statement: Statement;
  key: string;
  head: string;
  /** Content words of the sentence, without the cue's own words ("cancelled", "drop" say what happens, not to what). */
  sentenceWords: ReadonlySet<string>;
  objectWords: string[];
  /** Product and place names of the statement's value, padded and normalised. */
  names: string[];
}

function probeOf(statement: Statement): Probe {
  // A sentence is matched once: its words are not worth a place in the cache.
  const all = contentWordsUncached(statement.sentence.text);
  const cueWords = new Set([statement.removal, statement.correction].flatMap((cue) => (cue === null ? [] : cue.phrase.split(' ').map(stem))));
  const key = normalizeText(statement.key);
  return {
    statement,
    key,
    head: key.split(' ').at(-1) ?? '',
    sentenceWords: cueWords.size === 0 ? all : new Set([...all].filter((word) => !cueWords.has(word))),
    objectWords: statement.object === null ? [] : [...contentWords(statement.object)],
    names:
      statement.removal !== null
        ? []
        : mapPacked(statement.specifics.filter((item) => item.type === 'name' && item.entity !== 'person' && statement.value.includes(item.text)), (item) => profileOf(item.text).padded),
  };
}

/** How strongly a statement speaks about a known fact (0: not at all). */
function targetScore(probe: Probe, fact: KnownFact): number {
  const { statement, sentenceWords } = probe;
  // The fact holds the value the statement sets aside ("not $1,200", "instead of 30 June"): it is the target.
  if (statement.oldValues.some((item) => factHolds(fact.text, item))) return 12;
  let score = 0;
  if (probe.key === fact.key) score = 10;
  const keyWords = contentWords(fact.key);
  if (keyWords.size > 0 && [...keyWords].every((word) => sentenceWords.has(word))) score = Math.max(score, 6 + Math.min(3, keyWords.size));
  if (score < 5 && similarity(probe.key, fact.key) >= 0.6) score = 5;
  // "switch to imperial units" after "metric units": a correction naming another kind of the same thing.
  if (statement.correction !== null && !statement.correction.weak && probe.head.length > 2 && probe.key !== fact.key && probe.head === fact.key.split(' ').at(-1)) {
    score = Math.max(score, 6);
  }
  if (statement.category !== null && (fact.key === statement.category || hasCategory(fact.text, statement.category))) {
    score = Math.max(score, 7);
  }
  const factWords = contentWords(fact.text);
  if (probe.objectWords.length > 0 && probe.objectWords.every((word) => factWords.has(word))) score = Math.max(score, 5 + Math.min(2, probe.objectWords.length));
  // A product or place the correction names that the fact holds ("let's use Fargate, not EKS" is caught above);
  // people are named in many facts, so a person alone targets nothing.
  if (score < 5 && probe.names.length > 0) {
    const factText = profileOf(fact.text).padded;
    if (probe.names.some((name) => factText.includes(name))) score = 5;
  }
  let shared = 0;
  for (const word of sentenceWords) if (factWords.has(word)) shared += 1;
  if (shared >= 2) score = Math.max(score, 3 + Math.min(3, shared));
  // Between facts that match as well, the one sharing more words wins.
  return score === 0 ? 0 : score + Math.min(0.9, shared * 0.1);
}

/** Written shapes of values: a time, an amount, a percentage, a calendar date, a weekday. */
const VALUE_SHAPES: readonly RegExp[] = [
  /\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)/iu,
  /[$€£¥]\s?\d|\d\s?(?:k|usd|eur|gbp|chf|dollars?|euros?|pounds?|bucks)\b/iu,
  /\d\s?(?:%|percent)/iu,
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\d{4}-\d{2}-\d{2}/iu,
  /\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b/iu,
];

function shapeOf(text: string): RegExp | null {
  return VALUE_SHAPES.find((shape) => shape.test(text)) ?? null;
}

/** A short correction with no words of its own ("make that $45k") targets the newest fact holding an amount or a date of the same shape. */
function sameValueTarget(statement: Statement, facts: readonly KnownFact[]): KnownFact | null {
  if (statement.sentence.tokens.length > 12) return null;
  for (const item of statement.specifics) {
    const shape = shapeOf(item.text);
    // A time ("2 pm") is too common a shape to name a fact by itself.
    if (shape === VALUE_SHAPES[0]) continue;
    if (shape === null) continue;
    const matching = facts.filter((fact) => shape.test(fact.text.slice(fact.text.indexOf(':') + 1)));
    const newest = matching.sort((a, b) => b.order - a.order)[0];
    if (newest !== undefined) return newest;
  }
  return null;
}

/**
 * The fact holding a value of the same shape as the statement's new one among values said earlier in
 * the message ("1:55 feels ambitious … Let's aim for 2:00 instead" changes the fact holding 1:55).
 */
export function mentionedTarget(statement: Statement, mentioned: readonly Specific[], facts: readonly KnownFact[]): KnownFact | null {
  for (const item of newSpecifics(statement, null)) {
    const shape = shapeOf(item.text);
    if (shape === null) continue;
    const candidates = mentioned.filter((earlier) => shape.test(earlier.text) && earlier.text !== item.text);
    const holder = holderOf(candidates, facts);
    if (holder !== null) return holder;
  }
  return null;
}

/** The newest known fact that holds one of the old values a sentence sets aside ("March 15 is off"). */
export function holderOf(oldValues: readonly Specific[], facts: readonly KnownFact[]): KnownFact | null {
  let best: KnownFact | null = null;
  for (const fact of facts) {
    if (oldValues.some((item) => factHolds(fact.text, item)) && (best === null || fact.order > best.order)) best = fact;
  }
  return best;
}

/** The known fact a correcting statement speaks about, or null. */
export function findTarget(statement: Statement, facts: readonly KnownFact[]): KnownFact | null {
  return findScoredTarget(statement, facts)?.fact ?? null;
}

/** Scores of `findScoredTarget`: the fact holds a value set aside, has the statement's key, or its key words are all in the sentence. */
export const SURE_TARGET = 6;

/** The known fact a correcting statement speaks about, with how sure the match is. */
export function findScoredTarget(statement: Statement, facts: readonly KnownFact[]): { fact: KnownFact; score: number } | null {
  if (facts.length === 0) return null;
  const probe = probeOf(statement);
  const strong = (statement.correction !== null && !statement.correction.weak) || statement.removal !== null;
  const threshold = strong ? 5 : 9;
  let best: KnownFact | null = null;
  let bestScore = 0;
  for (const fact of facts) {
    const score = targetScore(probe, fact);
    if (score > bestScore || (score === bestScore && best !== null && fact.order > best.order)) {
      best = fact;
      bestScore = score;
    }
  }
  if (best !== null && bestScore >= threshold) return { fact: best, score: bestScore };
  const same = strong && statement.correction !== null ? sameValueTarget(statement, facts) : null;
  return same === null ? null : { fact: same, score: 5 };
}

/** Specifics of the statement that the target fact does not already hold and that it does not set aside: the new values. */
export function newSpecifics(statement: Statement, target: KnownFact | null): Specific[] {
  return statement.specifics.filter(
    (item) => !statement.oldValues.includes(item) && (target === null || !factHolds(target.text, item)) && !(item.type === 'name' && item.entity === 'person'),
  );
}

/** What kind of value a specific is, for swapping one for another: an amount, a date, a count, a name. */
function valueClass(item: Specific): string {
  switch (item.type) {
    case 'money':
    case 'percent':
    case 'date':
      return item.type;
    case 'number':
    case 'quantity':
      return 'number';
    default:
      return 'name';
  }
}

/** Whether the statement brings something the target does not hold: a new value, or new content words. */
export function bringsNews(statement: Statement, target: KnownFact | null): boolean {
  if (newSpecifics(statement, target).length > 0) return true;
  if (target === null) return false;
  const held = contentWords(target.text);
  const tokens = statement.sentence.tokens;
  for (let index = statement.range[0]; index < statement.range[1]; index += 1) {
    const token = tokens[index];
    if (token === undefined || (token.pos !== 'noun' && token.pos !== 'proper' && token.pos !== 'adjective') || token.entity === 'person') continue;
    if (statement.oldValues.some((item) => token.start >= item.start && token.end <= item.end)) continue;
    const word = stem(normalizeText(token.text));
    if (word.length > 2 && !STOP_WORDS.has(word) && !held.has(word)) return true;
  }
  return false;
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

/** Where the values of one class stand in a fact line (after its key). */
function valuesOfClass(text: string, valueClassName: string): { index: number; text: string }[] {
  const colon = text.indexOf(':');
  const pattern =
    valueClassName === 'money'
      ? /[$€£¥]\s?\d[\d,.]*(?:\s?(?:k|m|bn|million|billion|thousand)\b)?|\b\d[\d,.]*\s?(?:k\b|usd|eur|gbp|chf|dollars?|euros?|pounds?|bucks)/giu
      : valueClassName === 'percent'
        ? /\b\d+(?:[.,]\d+)?\s?(?:%|percent\b)/giu
        : valueClassName === 'date'
          ? /\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*(?:\s+\d{4})?)|\b\d{4}-\d{2}-\d{2}\b/giu
          : null;
  if (pattern === null) return [];
  const found: { index: number; text: string }[] = [];
  for (const match of text.matchAll(pattern)) if (match.index > colon) found.push({ index: match.index, text: match[0] });
  return found;
}

function countValues(text: string): number {
  return numbersIn(text.slice(text.indexOf(':') + 1)).length;
}

/**
 * The target line with one value swapped for the statement's one new value, when that keeps what else the
 * line holds: "for 35 agent seats" → "for 42 agent seats" (the statement sets 35 aside), or "Flat fee
 * $4,800, due 30 January" → "… due 23 January" (the line holds one date, the statement gives another).
 * Null when the statement does not give exactly one new value, or the line would lose nothing by being rewritten.
 */
export function substituted(statement: Statement, target: KnownFact): string | null {
  if (statement.oldValues.length > 1) return null;
  const [old] = statement.oldValues;
  const all = newSpecifics(statement, target);
  // Of the new values, those of the old value's kind (or, with none named, values other than names).
  const fresh = old !== undefined ? all.filter((item) => valueClass(item) === valueClass(old)) : all.filter((item) => valueClass(item) !== 'name');
  // The first new value is the one the change is about ("moved the due date to 23 January, so … before February").
  const [next] = fresh;
  if (next === undefined || (old !== undefined && fresh.length !== 1) || fresh.some((item) => valueClass(item) !== valueClass(next))) return null;
  const colon = target.text.indexOf(':');
  if (old !== undefined) {
    const at = valueClass(old) === 'number' ? -1 : target.text.toLowerCase().indexOf(old.text.toLowerCase());
    if (at > colon) return `${target.text.slice(0, at)}${next.text}${target.text.slice(at + old.text.length)}`;
    // Numbers written differently ("35" in "35 agent seats" for "not 35"): replace the number.
    const oldNumbers = numbersIn(old.text);
    const newNumber = /\d[\d,.]*/u.exec(next.text)?.[0];
    if (oldNumbers.length !== 1 || newNumber === undefined) return null;
    for (const match of target.text.matchAll(/\d[\d,.]*\d|\d/gu)) {
      if (match.index <= colon || numbersIn(match[0])[0] !== oldNumbers[0]) continue;
      return `${target.text.slice(0, match.index)}${newNumber}${target.text.slice(match.index + match[0].length)}`;
    }
    return null;
  }
  // No old value named: swap only when the line holds exactly one value of that class and more besides.
  const slots = valuesOfClass(target.text, valueClass(next));
  const [slot] = slots;
  if (slots.length !== 1 || slot === undefined || countValues(target.text) < 2) return null;
  return `${target.text.slice(0, slot.index)}${next.text}${target.text.slice(slot.index + slot.text.length)}`;
}

const CHANGE_PREFIX =
  /^(?:(?:it's|its|it is|that's|that is|is|are|was|were|will be|would be|has been|have been|has|have|now|currently|actually|instead|officially|then|so|and|but|just|to)\s+)*(?:(?:changed|change|changing|moved|move|moving|switched|switch|switching|increased|decreased|raised|lowered|cut|bumped|pushed back|pushed|postponed|updated|reduced|extended|dropped|went up|gone up|going|set|make that|make it|meant|mean)\s+(?:to|up to|down to|back to|until|till|from\s+\S+\s+to|it to|that to)?\s*)?/iu;

/** The new value of a corrected fact: the clause holding the new specific, without "changed to", "it's" …. */
function correctedValue(statement: Statement, target: KnownFact): string {
  return correctionValue(statement.value, statement, target);
}

/** A value without a leading "changed to", "make it", "now" …. */
export function withoutChangeWords(value: string): string {
  return value.replace(CHANGE_PREFIX, '').replace(/[,\s]+instead$/iu, '').trim() || value;
}

/** Whether the statement's new values can stand for the old ones it sets aside (a date for a date …). */
export function replacesOldValues(statement: Statement, target: KnownFact | null): boolean {
  if (statement.oldValues.length === 0) return true;
  const classes = new Set(statement.oldValues.map(valueClass));
  if (newSpecifics(statement, target).some((item) => classes.has(valueClass(item)))) return true;
  // A name set aside may give way to a thing named in plain words ("a distributed lag model instead of plain Poisson").
  return [...classes].every((name) => name === 'name') && bringsNews(statement, target);
}

/** `text` (a statement's value or clause) reduced to the part holding the new value, without the old one. */
export function correctionValue(text: string, statement: Statement, target: KnownFact | null): string {
  const fresh = newSpecifics(statement, target)[0];
  let value = text;
  if (fresh !== undefined) {
    const clauses = text.split(/,\s+|;\s+|\s+but\s+|\s+[–—]\s+/u);
    const holding = clauses.find((clause) => clause.includes(fresh.text));
    if (holding !== undefined) value = holding;
  }
  const stripped = withoutOldValues(value, statement.oldValues).replace(CHANGE_PREFIX, '').replace(/[,\s]+instead$/iu, '').trim();
  return stripped === '' ? value.trim() : stripped;
}

function quote(text: string, limit: number): string {
  const parts = text.trim().split(/\s+/u);
  return parts.length <= limit ? text.trim() : `${parts.slice(0, limit).join(' ')} …`;
}

/** What a correcting statement does to its target: drop it, or replace its line. */
export function correctionAction(statement: Statement, target: KnownFact): CorrectionAction {
  const fresh = newSpecifics(statement, target);
  if (statement.removal !== null && fresh.length === 0) {
    return { type: 'remove', target, reason: `${statement.removal.phrase}: "${quote(statement.sentence.text, 24)}"` };
  }
  const kind = statement.cue !== null ? statement.kind : target.kind;
  // A statement that swaps one value of the fact ("so it's 42 agents, not 35"): swap it in the line, so
  // what else the line holds stays (a restated value of a one-value line takes the statement's words).
  const swapped = normalizeText(statement.key) !== target.key || countValues(target.text) >= 2 ? substituted(statement, target) : null;
  if (swapped !== null) return { type: 'update', target, text: swapped, kind: target.kind === 'fact' ? kind : target.kind };
  // "switch to imperial units" replacing "metric units": the line takes the new name (the fact keeps its key).
  const ownKey = normalizeText(statement.key);
  const renamed = ownKey !== target.key && ownKey.split(' ').at(-1) === target.key.split(' ').at(-1) && ownKey.includes(' ');
  return { type: 'update', target, text: `${renamed ? statement.key : target.keyText}: ${correctedValue(statement, target)}`, kind };
}
