/**
 * The values of a claim: which specifics of a clause it states, which it sets aside as no longer true
 * ("54 now, not 60", "instead of Porto", "no longer in Dublin but in Stockholm"), and the text of its
 * line — the clause verbatim, relative dates followed by the day they resolve to, and a correction
 * without its old values and change words ("It is €1,800 a month now, not €2,500" → "€1,800 a month now").
 */
import { countWords } from '../../core/text.js';
import type { AnalysedSentence } from './analysis.js';
import { withoutChangeWords, withoutOldValues } from './corrections.js';
import { oldValuesIn } from './old-values.js';
import type { Specific } from './specifics.js';
import { sliceTokens } from './tokens.js';

/** "9 p.m.", "6pm", "at 8:30": a time of day, which alone is no value worth keeping. */
const CLOCK_TIME = /^\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)$/iu;

/** Whether a specific is a time of day ("rang at 8:30", "at 9 p.m."), not a value like a pace ("5:30 per km"). */
export function isClockTime(sentence: AnalysedSentence, item: Specific): boolean {
  if (CLOCK_TIME.test(item.text)) return true;
  if (!/^\d{1,2}[:.]\d{2}$/u.test(item.text)) return false;
  const index = sentence.tokens.findIndex((token) => token.start >= item.start);
  return sentence.tokens[index - 1]?.lower === 'at';
}

/**
 * Specifics of the clause at `start`..`end` (offsets) set aside as old values: those `oldValuesIn`
 * finds, and with "no longer … but …" everything before the "but".
 */
export function setAside(sentence: AnalysedSentence, start: number, end: number, specifics: readonly Specific[]): Specific[] {
  const old = oldValuesIn(sentence, start, end, specifics);
  // "I moved him over from Boots", "switched from Gerald": what it changed from is an old value.
  const said = sentence.text.slice(start, end);
  if (/\b(?:moved|moving|switched|switching|changed|changing|transferred|went|going)\b/iu.test(said)) {
    for (const item of specifics) {
      const index = sentence.tokens.findIndex((token) => token.start >= item.start);
      if (sentence.tokens[index - 1]?.lower === 'from' && !old.includes(item)) old.push(item);
    }
  }
  // "ts isn't ISO at all", "the venue is no longer Halcombe Hall": a value denied is an old one.
  for (const item of specifics) {
    const index = sentence.tokens.findIndex((token) => token.start >= item.start);
    const before = sentence.tokens[index - 1]?.lower ?? '';
    const before2 = sentence.tokens[index - 2]?.lower ?? '';
    if (["isn't", "aren't", "wasn't", "weren't"].includes(before) || (before === 'not' && ['is', 'are', 'was', "it's", "that's"].includes(before2)) || (before === 'longer' && before2 === 'no')) {
      if (!old.includes(item)) old.push(item);
    }
  }
  const clause = sentence.text.slice(start, end).toLowerCase();
  const noLonger = clause.indexOf('no longer');
  const but = clause.indexOf(' but ', noLonger);
  if (noLonger < 0 || but < 0) return old;
  const cut = start + but;
  return [...new Set([...old, ...specifics.filter((item) => item.start < cut && item.start > start + noLonger)])];
}

/** Trim separators at the ends, collapse spaces, and cut to `maxWords` words. */
export function tidy(text: string, maxWords: number): string {
  const cleaned = text.replace(/^[\s,;:–—-]+|[\s,;:–—(-]+$/gu, '').replace(/\s+/gu, ' ').trim();
  if (countWords(cleaned) <= maxWords) return cleaned;
  return `${cleaned.split(' ').slice(0, maxWords).join(' ')} …`;
}

/** The clause's text from token `from` to `to` (exclusive), each relative date followed by the day it resolves to. */
export function clauseText(sentence: AnalysedSentence, from: number, to: number, maxWords: number): string {
  const tokens = sentence.tokens;
  const start = tokens[from]?.start ?? 0;
  const end = tokens[to - 1]?.end ?? sentence.text.length;
  let text = sliceTokens(sentence.text, tokens, from, to - 1);
  // Later dates first, so earlier offsets stay right.
  const resolved = sentence.specifics.filter((item) => item.resolved !== null && item.start >= start && item.end <= end).sort((a, b) => b.start - a.start);
  for (const item of resolved) {
    const at = item.start - start;
    if (text.slice(at, at + item.text.length) !== item.text) continue;
    text = `${text.slice(0, at + item.text.length)} (${item.resolved ?? ''})${text.slice(at + item.text.length)}`;
  }
  return tidy(withoutAside(text), maxWords + resolved.length * 3);
}

/** "no longer host staging in Dublin but in Stockholm" → "host staging in Stockholm". */
function instead(value: string, oldValues: readonly Specific[]): string {
  const match = /\bno longer\s+(.+?)\s+but\s+(.+)$/iu.exec(value);
  const middle = match?.[1];
  const tail = match?.[2];
  if (match === null || middle === undefined || tail === undefined) return value;
  const old = oldValues.find((item) => middle.includes(item.text));
  if (old === undefined) return `${middle} ${tail}`;
  const preposition = /^(\p{L}+)\s/u.exec(tail)?.[1] ?? '';
  const slot = preposition !== '' && middle.includes(`${preposition} ${old.text}`) ? `${preposition} ${old.text}` : old.text;
  return middle.replace(slot, tail);
}

/** A correction's line value: without the old values it sets aside and the words that announce the change. */
export function correctedValue(value: string, oldValues: readonly Specific[]): string {
  const stripped = withoutChangeWords(withoutOldValues(instead(value, oldValues), oldValues));
  return stripped === '' ? value : stripped;
}

/** "don't", "isn't", "cannot": a word that negates what follows. */
function isNegated(word: string): boolean {
  return /n['’]t$/u.test(word) || word === 'cannot' || word === 'not' || word === 'never';
}

/**
 * A line's value: the clause from token `from` (where its subject leaves off) to `to`, and for a
 * correction (`oldValues` given) without its old values and change words.
 */
export function lineValue(sentence: AnalysedSentence, from: number, to: number, oldValues: readonly Specific[] | null, maxWords: number): string {
  const tokens = sentence.tokens;
  let start = from;
  // ("the Square payouts never match the sales" reads "never match the sales": a value never loses its negation.)
  while (start > 0 && tokens[start - 1]?.pos === 'negation' && !/[,;:.!?]/u.test(tokens[start - 1]?.trailing ?? '')) start -= 1;
  // "are going with Temporal" reads "going with Temporal".
  // ("I don't take meetings before 10:00" keeps its "don't": a value never loses its negation.)
  const auxiliary = tokens[start];
  if (['copula', 'auxiliary'].includes(auxiliary?.pos ?? '') && !isNegated(auxiliary?.lower ?? '') && tokens[start + 1]?.pos === 'verb' && start + 1 < to) start += 1;
  const value = clauseText(sentence, start, to, maxWords);
  return oldValues === null ? value : correctedValue(value, oldValues);
}

/**
 * Words at the end of a line that tell how the speaker feels about it, or only hold the conversation
 * together: ", which made me well up a bit on the phone", ", which I think is a cry for help", ", by the
 * way", ", honestly". They cost room in every package and state nothing the line is about.
 */
const ASIDE = /(?:,\s*(?:which|that)\s+(?:made|makes|make)\s+(?:me|us)\s+(?:well up|cry|laugh|smile|feel|so happy|happy|sad|nervous|anxious|want to)\b.*|,\s*which\s+(?:i|we)\s+(?:think|thought|guess|suppose|reckon|feel)\b.*|,?\s+(?:by the way|honestly|to be honest|to be fair|as it happens|if i'm honest|i think|i guess|lol|haha))\s*[.!]?$/iu;

/** The line without an aside at its end (unless nothing else would be left). */
function withoutAside(value: string): string {
  const trimmed = value.replace(ASIDE, '').trim();
  return trimmed.length >= 3 ? trimmed : value;
}
