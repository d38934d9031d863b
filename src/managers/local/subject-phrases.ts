/**
 * Keys the words of a clause can give its subject: the first noun phrase that names something (not
 * only pronouns, generic words or a time of day), the words before a verb, a content verb, a thing
 * opening the clause with its value ("Warfarin 3 mg"), a topic it opens with ("Speaking of the
 * island, …"), the subject of a reported clause; and whether a phrase is a person's name.
 */
import { isPredicate } from './clauses.js';
import { GENERIC_NOUNS, META_NOUNS, ROLE_NOUNS, STOP_WORDS } from './function-words.js';
import { keyFromPhrase, keyFromTokens, nounPhrases, type NounPhrase } from './noun-phrases.js';
import type { TaggedToken } from './tagging.js';

/** Words of a time of day, which say when, not what. */
const CLOCK_WORDS = new Set(['p.m', 'a.m', 'pm', 'am', "o'clock", 'noon', 'midday', 'midnight', 'half', 'quarter']);

/** Whether a key names something: not only generic words, talk about the talk, stop words or a time of day. */
export function usable(key: string | null): key is string {
  if (key === null) return false;
  const words = key.split(' ');
  return !words.every((word) => GENERIC_NOUNS.has(word) || META_NOUNS.has(word) || STOP_WORDS.has(word) || CLOCK_WORDS.has(word));
}

/** Whether a token is (the start of) a value: a number, an amount. */
export function isValueToken(token: TaggedToken | undefined): boolean {
  return token !== undefined && (token.hasDigit || token.pos === 'value' || /^[$€£¥]/u.test(token.text));
}

/**
 * "Warfarin 3 mg once a day at 6pm", "Ridgeline $52,400": a noun phrase opening the clause with its
 * value right after it names what the value is of, whatever verbs come later.
 */
export function openingAttribute(tokens: readonly TaggedToken[], from: number, to: number): { key: string; valueFrom: number } | null {
  const phrase = nounPhrases(tokens, from, Math.min(to, from + 6))[0];
  if (phrase === undefined || phrase.start > from) return null;
  let value = -1;
  for (let index = phrase.start; index <= Math.min(phrase.end, to - 1); index += 1) {
    if (isValueToken(tokens[index])) {
      value = index;
      break;
    }
    if (isPredicate(tokens[index])) return null;
  }
  if (value <= phrase.start) return null;
  const key = keyFromTokens(tokens, phrase.start, value, 3);
  return usable(key) ? { key, valueFrom: value } : null;
}

/** The first noun phrase in `from`..`to` that is not only pronouns or generic words, as a key. */
export function firstKey(tokens: readonly TaggedToken[], from: number, to: number, maxWords = 3): { key: string; phrase: NounPhrase } | null {
  for (const phrase of nounPhrases(tokens, from, to)) {
    const key = keyFromPhrase(tokens, phrase, maxWords);
    if (usable(key)) return { key, phrase };
  }
  return null;
}

/** Words that open a clause with its topic. */
const TOPIC_OPENERS = ['speaking of', 'as for', 'about', 'regarding', 're', 'on'];

/** The topic a clause opens with: "Speaking of the island, …". */
export function openingTopic(tokens: readonly TaggedToken[], from: number, to: number): string | null {
  const two = `${tokens[from]?.lower ?? ''} ${tokens[from + 1]?.lower ?? ''}`;
  const skip = TOPIC_OPENERS.find((phrase) => (phrase.includes(' ') ? two === phrase : tokens[from]?.lower === phrase));
  if (skip === undefined) return null;
  const words = skip.split(' ').length;
  // Only an opener that stands apart: "About the cake, …" or "About the target time." alone, not "about 6 feet long".
  const found = firstKey(tokens, from + words, Math.min(to, from + words + 4));
  if (found === null) return null;
  const apart = /[,:—–]/u.test(tokens[found.phrase.end - 1]?.trailing ?? '') || (found.phrase.end === to && to === tokens.length);
  return apart ? found.key : null;
}

/** The last role noun before `end` ("my GP's" → "gp"), for a subject that names a person by their role. */
function roleBefore(tokens: readonly TaggedToken[], from: number, end: number): string | null {
  for (let index = end - 1; index >= from; index -= 1) {
    const lower = tokens[index]?.lower.replace(/[’']s$/u, '') ?? '';
    if (ROLE_NOUNS.has(lower)) return lower;
  }
  return null;
}

/**
 * The key of the words before a verb or a cue at `end`, when they name a thing: the last noun phrase
 * right before it, or (the tagger may call a noun a verb: "So walnut is off the table") all of its words
 * when no pronoun is among them.
 */
export function subjectKey(tokens: readonly TaggedToken[], from: number, end: number): string | null {
  const phrase = nounPhrases(tokens, from, end).at(-1);
  if (phrase !== undefined && phrase.end >= end - 2) {
    const key = keyFromPhrase(tokens, phrase, 3);
    if (!isPersonPhrase(tokens, phrase) && usable(key)) return key;
    const role = roleBefore(tokens, from, end);
    if (role !== null) return role;
  }
  let verb = end;
  while (verb > from && tokens[verb - 1]?.pos !== 'copula' && tokens[verb - 1]?.pos !== 'modal') verb -= 1;
  const words = tokens.slice(from, verb - 1);
  if (verb <= from + 1 || words.length > 4 || words.some((token) => token.pos === 'pronoun' || isPersonToken(token) || token.pos === 'preposition')) return null;
  const key = keyFromTokens(tokens, from, verb - 1, 3);
  return usable(key) ? key : null;
}

/** Verbs too light to name what a clause is about. */
const LIGHT_VERBS = new Set(['be', 'have', 'has', 'had', 'do', 'does', 'did', 'get', 'got', 'go', 'going', 'make', 'made', 'take', 'took', 'think', 'know', 'want', 'need', 'like', 'said', 'say', 'see', 'keep', 'put', 'let', 'give', 'use', 'try']);

/** The main verb as a key, when it is a content verb ("deploy", "invoice"): the first verb at or after `verb`. */
export function actionKey(tokens: readonly TaggedToken[], verb: number, to: number): string | null {
  for (let index = verb; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined || token.pos !== 'verb') continue;
    return LIGHT_VERBS.has(token.lower) || token.past || /ing$/u.test(token.lower) ? null : token.lower;
  }
  return null;
}

/** A name of a person: proper nouns, one of them known as a person's ("Ingrid Haas"). */
export function isPersonPhrase(tokens: readonly TaggedToken[], phrase: NounPhrase): boolean {
  const words = tokens.slice(phrase.start, phrase.end);
  return words.some(isPersonToken) && words.every((token) => token.pos === 'proper' || isPersonToken(token));
}

export function isPersonToken(token: TaggedToken | undefined): boolean {
  return token !== undefined && token.entity === 'person' && !HONORIFICS.has(token.lower.replace(/\.$/u, ''));
}

/** Titles before a name ("Mr Patel", "Dr Okonkwo"): the name is the word after. */
export const HONORIFICS: ReadonlySet<string> = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'sir', 'dame', 'lord', 'lady']);

/** Verbs that report what someone said: the clause they carry has a subject of its own. */
export const REPORTING_VERBS: ReadonlySet<string> = new Set(['told', 'tell', 'said', 'says', 'emailed', 'wrote', 'informed', 'confirmed', 'announced', 'mentioned', 'texted']);

/**
 * "… every client the standard weekly rate is $62": the subject of a reported "X is <value>" clause,
 * the noun phrase right before its copula, with the value starting after it; null when there is none.
 */
export function reportedSubject(tokens: readonly TaggedToken[], from: number, to: number): { key: string; valueFrom: number } | null {
  for (let index = from + 1; index < to - 1; index += 1) {
    if (tokens[index]?.pos !== 'copula' || !tokens.slice(index + 1, to).some(isValueToken)) continue;
    const phrase = nounPhrases(tokens, from, index).at(-1);
    if (phrase === undefined || phrase.end !== index || isPersonPhrase(tokens, phrase)) return null;
    const key = keyFromPhrase(tokens, phrase, 3);
    return usable(key) ? { key, valueFrom: index + 1 } : null;
  }
  return null;
}

