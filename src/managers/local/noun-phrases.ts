/** Noun phrases from tagged tokens, and short keys made from them ("the LGBTQ support group" → "lgbtq support group"). */
import { DATE_UNITS, GENERIC_NOUNS, NUMBER_WORDS, STOP_WORDS, UNIT_WORDS } from './function-words.js';
import type { TaggedToken } from './tagging.js';
import { endsClause } from './tokens.js';

export interface NounPhrase {
  /** Index of the first token (determiners excluded). */
  start: number;
  /** Index just after the last token. */
  end: number;
}

const PHRASE_POS = new Set(['noun', 'proper', 'adjective', 'value']);

/** Words of time expressions ("last year", "next week"): they say when, not what. */
const TIME_WORDS: ReadonlySet<string> = new Set([...DATE_UNITS, 'last', 'next', 'ago', 'past', 'coming', 'weeks', 'months', 'years', 'days', 'day', 'today', 'yesterday', 'tomorrow', 'tonight', 'someday', 'lately', 'recently']);

const NO_TOKEN: TaggedToken = {
  text: '',
  lower: '',
  start: 0,
  end: 0,
  trailing: '',
  capitalised: false,
  hasDigit: false,
  pos: 'other',
  entity: null,
  past: false,
};

function isHead(token: TaggedToken): boolean {
  return token.pos === 'noun' || token.pos === 'proper';
}

/** Noun phrases between token `from` (inclusive) and `to` (exclusive). */
export function nounPhrases(tokens: readonly TaggedToken[], from = 0, to = tokens.length): NounPhrase[] {
  const phrases: NounPhrase[] = [];
  let index = from;
  while (index < to) {
    const token = tokens[index];
    if (token === undefined || !PHRASE_POS.has(token.pos)) {
      index += 1;
      continue;
    }
    let end = index + 1;
    let current = token;
    while (end < to) {
      const next = tokens[end];
      if (next === undefined || endsClause(current) || !PHRASE_POS.has(next.pos)) break;
      current = next;
      end += 1;
    }
    // Trim trailing adjectives and numbers: a phrase ends on its head noun.
    let last = end;
    while (last > index && !isHead(tokens[last - 1] ?? token)) last -= 1;
    if (last > index) phrases.push({ start: index, end: last });
    index = end;
  }
  return phrases;
}

/** The first noun phrase starting at or after token `from` (before `to`). */
export function firstPhraseAfter(tokens: readonly TaggedToken[], from: number, to = tokens.length): NounPhrase | null {
  return nounPhrases(tokens, from, to)[0] ?? null;
}

/** The noun phrase containing token `index`, if any. */
export function phraseAt(tokens: readonly TaggedToken[], index: number): NounPhrase | null {
  for (const phrase of nounPhrases(tokens, Math.max(0, index - 4), Math.min(tokens.length, index + 4))) {
    if (phrase.start <= index && index < phrase.end) return phrase;
  }
  return null;
}

/** Nouns that announce news about the noun before them ("deadline news", "headcount update"). */
const ANNOUNCING_NOUNS = new Set(['news', 'update', 'updates', 'change', 'changes', 'question', 'questions', 'problem', 'issue', 'note', 'request', 'thing', 'stuff']);

/** Words usable in a key: lower-case, without numbers, possessive marks or punctuation. */
function keyWord(token: TaggedToken): string {
  if (/^[a-z0-9]+$/u.test(token.lower)) return token.lower;
  return token.lower
    .replace(/[’']s$/u, '')
    .replace(/[^\p{L}\p{N}+#.-]+/gu, ' ')
    .replace(/^[.-]+|[.-]+$/gu, '')
    .trim();
}

/**
 * A key from tokens `start`..`end`: at most `maxWords` words, head-final, no numbers,
 * no determiners or pronouns. Null when nothing specific is left.
 */
export function keyFromTokens(tokens: readonly TaggedToken[], start: number, end: number, maxWords = 3): string | null {
  // Leading adjectives go when two nouns remain ("full card numbers" → "card numbers").
  let nouns = 0;
  for (let index = start; index < end; index += 1) if (isHead(tokens[index] ?? NO_TOKEN)) nouns += 1;
  while (nouns >= 2 && start < end && tokens[start]?.pos === 'adjective') start += 1;
  const words: string[] = [];
  for (let index = start; index < end; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    // "the no-meetings-before-10 thing": the words of a compound, without its numbers.
    if (token.hasDigit && token.text.includes('-')) {
      for (const part of token.lower.split('-')) if (/^\p{L}{2,}$/u.test(part) && !STOP_WORDS.has(part) && !TIME_WORDS.has(part)) words.push(part);
      continue;
    }
    if (token.hasDigit || token.pos === 'value' || token.pos === 'date' || TIME_WORDS.has(token.lower)) continue;
    if (token.pos === 'determiner' || token.pos === 'pronoun' || token.pos === 'question') continue;
    if (NUMBER_WORDS.has(token.lower) || UNIT_WORDS.has(token.lower)) continue;
    const word = keyWord(token);
    if (word === '') continue;
    if (!word.includes(' ')) words.push(word);
    else for (const part of word.split(' ')) if (part !== '') words.push(part);
  }
  // "and rate changes", "also bad news": a key starts with a content word; "deadline news" is about the deadline.
  while (words.length > 1 && STOP_WORDS.has(words[0] ?? '')) words.shift();
  while (words.length > 1 && ANNOUNCING_NOUNS.has(words.at(-1) ?? '')) words.pop();
  const kept = words.slice(-maxWords);
  if (kept.length === 0 || kept.every((word) => GENERIC_NOUNS.has(word) || STOP_WORDS.has(word))) return null;
  return kept.join(' ');
}

/** A key from a noun phrase. */
export function keyFromPhrase(tokens: readonly TaggedToken[], phrase: NounPhrase, maxWords = 3): string | null {
  return keyFromTokens(tokens, phrase.start, phrase.end, maxWords);
}

/** The first few content words of a range, as a fallback key. */
export function contentKey(tokens: readonly TaggedToken[], start: number, end: number, maxWords = 3): string | null {
  const words: string[] = [];
  for (let index = start; index < end && words.length < maxWords; index += 1) {
    const token = tokens[index];
    if (token === undefined || token.hasDigit || token.pos === 'date' || STOP_WORDS.has(token.lower) || GENERIC_NOUNS.has(token.lower)) continue;
    if (TIME_WORDS.has(token.lower) || NUMBER_WORDS.has(token.lower) || UNIT_WORDS.has(token.lower)) continue;
    const word = keyWord(token);
    if (word !== '') words.push(word);
  }
  return words.length === 0 ? null : words.join(' ');
}
