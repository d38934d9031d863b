/**
 * Tier 1: `key = value` pairs separated by `; ` — the specifics of a message (amounts, dates,
 * names, versions, rules) under short keys, about 10–20 % of its words; empty when the message holds
 * nothing of the kind (a bag of its words would read as noise).
 */
import { mapPacked } from '../../core/packed-map.js';
import { countWords } from '../../core/text.js';
import type { AnalysedMessage, AnalysedSentence } from './analysis.js';
import type { Specific } from './specifics.js';
import { DETERMINERS, GENERIC_NOUNS, STOP_WORDS } from './function-words.js';
import { keyFromPhrase, phraseAt } from './noun-phrases.js';
import type { Statement } from './statement.js';
import { endsClause } from './tokens.js';
import { withoutFillers } from './units.js';

interface Pair {
  key: string;
  value: string;
  score: number;
  order: number;
}

export interface TierOneInput {
  message: AnalysedMessage;
  /** The statements of the message's sentences (any role). */
  statements: readonly Statement[];
  /** Names of the artifacts made from the message's code blocks, with their languages. */
  code: readonly { name: string; language: string | null }[];
  share: number;
}


/** Characters `clean` changes: separators of tier 1, and whitespace other than single spaces. */
const NEEDS_CLEANING = /[;=]|\s\s|[^\S ]/u;

function clean(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text.trim();
  return text.replace(/;/gu, ',').replace(/\s*=\s*/gu, ' ').replace(/\s+/gu, ' ').trim();
}

/** `text.split(', ').length`, without the array. */
function pieceCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf(', '); at >= 0; at = text.indexOf(', ', at + 2)) count += 1;
  return count;
}

function withResolution(item: Specific): string {
  return item.resolved === null ? item.text : `${item.text} (${item.resolved})`;
}

/** The noun a value belongs to, looking back a few words ("budget is $45,000", "deadline: March 3"). */
function nounBefore(sentence: AnalysedSentence, item: Specific): string | null {
  const tokens = sentence.tokens;
  let index = tokens.findIndex((token) => token.end > item.start) - 1;
  if (index < 0) index = -1;
  for (let steps = 0; index >= 0 && steps < 5; steps += 1, index -= 1) {
    const token = tokens[index];
    if (token === undefined) break;
    if (steps > 0 && endsClause(token) && !/:/u.test(token.trailing)) break;
    if (token.pos !== 'noun' || STOP_WORDS.has(token.lower) || GENERIC_NOUNS.has(token.lower)) continue;
    const phrase = phraseAt(tokens, index);
    const key = phrase === null ? token.lower : keyFromPhrase(tokens, { start: phrase.start, end: Math.min(phrase.end, index + 1) }, 2);
    if (key !== null) return key;
  }
  return null;
}

/** The noun a value modifies right after it ("a $45,000 budget", "a March 3 deadline"). */
function nounAfter(sentence: AnalysedSentence, item: Specific): string | null {
  const tokens = sentence.tokens;
  let nextIndex = 0;
  while (nextIndex < tokens.length && (tokens[nextIndex]?.start ?? Infinity) < item.end) nextIndex += 1;
  const next = tokens[nextIndex];
  // The last token ending inside the value (tokens are in order: it stands right before `next`, or earlier).
  let lastIndex = nextIndex - 1;
  while (lastIndex >= 0 && (tokens[lastIndex]?.end ?? Infinity) > item.end) lastIndex -= 1;
  const last = tokens[lastIndex];
  if (next === undefined || (last !== undefined && endsClause(last))) return null;
  if (next.pos !== 'noun' || STOP_WORDS.has(next.lower) || GENERIC_NOUNS.has(next.lower)) return null;
  return next.lower.replace(/[^\p{L}\p{N} -]/gu, '') || null;
}

function specificPair(sentence: AnalysedSentence, item: Specific): { key: string; value: string } {
  const before = item.type === 'name' ? null : item.type === 'quantity' ? nounBefore(sentence, item) : (nounAfter(sentence, item) ?? nounBefore(sentence, item));
  switch (item.type) {
    case 'money':
      return { key: before ?? 'amount', value: item.text };
    case 'percent':
      return { key: before ?? 'percentage', value: item.text };
    case 'date':
      return { key: before ?? 'when', value: withResolution(item) };
    case 'version':
      return { key: before ?? 'version', value: item.text };
    case 'email':
      return { key: 'email', value: item.text };
    case 'url':
      return { key: 'link', value: item.text };
    case 'name':
      return { key: item.category ?? item.entity ?? 'name', value: item.text };
    case 'quantity': {
      const unit = /\s(\p{L}+)$/u.exec(item.text)?.[1]?.toLowerCase();
      if (before !== null) return { key: before, value: item.text };
      if (unit !== undefined && !/^(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)$/u.test(unit)) {
        return { key: unit, value: item.text.slice(0, item.text.length - unit.length).trim() };
      }
      return { key: 'quantity', value: item.text };
    }
    case 'number':
      return { key: before ?? 'number', value: item.text };
  }
}

const CLAUSE_SEPARATOR = /[,;:]\s+|\s+[–—]\s+|\s+(?:and|but|because|which|so)\s+/u;
/** Determiners that carry meaning in a rule ("no card numbers", "every deploy"). */
const QUANTIFIERS = new Set(['no', 'any', 'all', 'every', 'each']);

const COPULA_AFTER_KEY = /^\s+(?:is|are|was|were|will be|is now|are now)\s+(.+)$/iu;

const DANGLING = /\s+(?:for|of|in|on|at|to|with|by|from|about|over|the|a|an)$/iu;

/** The value without a repeat of its key ("card numbers = must never store in logs"). */
function withoutKeyWords(value: string, key: string): string {
  const lower = value.toLowerCase();
  const at = lower.indexOf(` ${key}`);
  if (at < 0) return value;
  const after = value.slice(at + key.length + 1);
  if (after !== '' && !/^[\s,.;:!?]/u.test(after)) return value;
  const shorter = `${value.slice(0, at)}${after}`.replace(DANGLING, '').replace(/\s+/gu, ' ').trim();
  return shorter.split(' ').length >= 3 ? shorter : value;
}

/**
 * A statement's value, shortened for tier 1: its first clause without determiners, at most
 * 8 words (or its specifics when the clause is longer), relative dates resolved.
 */
function compactValue(statement: Statement): string {
  // The first clause: the text before the first separator.
  const separator = CLAUSE_SEPARATOR.exec(statement.value);
  let clause = separator === null ? statement.value : statement.value.slice(0, separator.index);
  // "… confirmed that the quarterly budget is $120,000" → "$120,000".
  const at = clause.toLowerCase().indexOf(`${statement.key} `);
  if (at > 0) {
    const named = COPULA_AFTER_KEY.exec(clause.slice(at + statement.key.length));
    if (named?.[1] !== undefined) clause = named[1];
  }
  const parts = clause.split(/\s+/u).filter((word) => {
    if (word === '') return false;
    const lower = word.toLowerCase();
    return !DETERMINERS.has(lower) || QUANTIFIERS.has(lower);
  });
  let value = withoutKeyWords(parts.join(' '), statement.key);
  if (parts.length > 8) {
    const inClause = statement.specifics.filter((item) => clause.includes(item.text));
    value = inClause.length > 0 && statement.kind !== 'exception' && statement.kind !== 'constraint'
      ? mapPacked(inClause.slice(0, 4), (item) => item.text).join(', ')
      : `${parts.slice(0, 8).join(' ')}…`;
  }
  for (const item of statement.specifics) {
    if (item.resolved !== null && value.includes(item.text)) value = value.replace(item.text, withResolution(item));
  }
  return value;
}

/** A question in a few words, without "can you" or "I was wondering if". */
function compactQuestion(text: string): string {
  // "Given all of this, what would you …": the clause that asks.
  const clauses = text.split(/,\s+/u);
  const asking = clauses.find((clause) => /^(?:what|why|how|when|where|who|which|can|could|would|will|should|do|does|did|is|are)\b/iu.test(clause.trim())) ?? text;
  const stripped = withoutFillers(asking)
    .replace(/^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|i\s+was\s+wondering\s+(?:if|whether)\s+|do\s+you\s+know\s+)/iu, '')
    .replace(/[?!.]+$/u, '');
  const parts = stripped.split(/\s+/u);
  return parts.length <= 10 ? parts.join(' ') : `${parts.slice(0, 10).join(' ')}…`;
}

const OPENERS = /^(?:hey|hi|hello|thanks|thank you|wow|yes|yeah|yep|oh|aw+|ok|okay|sure|congrats|congratulations|sorry|haha|lol|hmm|omg|great|cool|nice|awesome|totally|absolutely|morning|good morning|evening)[,!.]?$/iu;

/** "Thanks, Melanie!", "Caroline, look at this", "… so proud of you, Jon.": a name the speaker addresses, not a subject. */
function isAddressedName(sentence: AnalysedSentence, item: Specific): boolean {
  if (item.type !== 'name' || item.entity === 'place' || item.entity === 'organization') return false;
  const before = sentence.text.slice(0, item.start).trim();
  const after = sentence.text.slice(item.end).trim();
  // "Thanks, Melanie!"; "Caroline, look at this" (not "Melanie, Jon and I are flying").
  if (/^[!?]/u.test(after) && (before === '' || OPENERS.test(before))) return true;
  if (/^,/u.test(after) && OPENERS.test(before)) return true;
  if (/^,/u.test(after) && before === '') return /^,\s*\p{Ll}/u.test(after) && !/^,\s*(?:and|or)\b/u.test(after);
  // "… so proud of you, Jon." (not "The two finalists are Priya, Jonas.").
  const previousWord = /(\S+),$/u.exec(before)?.[1] ?? '';
  return previousWord !== '' && !/^\p{Lu}/u.test(previousWord) && /^[!.?]*$/u.test(after);
}

/** Tier 1 of a message. */
export function tierOne(input: TierOneInput): string {
  const { message } = input;
  if (message.message.content.trim() === '') return '';
  const pairs: Pair[] = [];
  let order = 0;
  const statementsBySentence = new Map<number, Statement[]>();
  for (const statement of input.statements) {
    const list = statementsBySentence.get(statement.sentence.index) ?? [];
    list.push(statement);
    statementsBySentence.set(statement.sentence.index, list);
  }

  for (const sentence of message.sentences) {
    if (sentence.smallTalk) continue;
    const statements = statementsBySentence.get(sentence.index) ?? [];
    const covered: string[] = [];
    for (const statement of statements) {
      if (statement.keyless) continue;
      if (statement.kind === 'fact' && (!statement.predicateValue || statement.keySource === 'content' || statement.specifics.length === 0)) continue;
      const value = compactValue(statement);
      pairs.push({ key: statement.key, value, score: 2 + statement.weight, order: order++ });
      covered.push(value);
    }
    for (const item of sentence.specifics) {
      if (covered.some((text) => text.includes(item.text)) || isAddressedName(sentence, item)) continue;
      const pair = specificPair(sentence, item);
      pairs.push({ key: pair.key, value: pair.value, score: item.type === 'name' ? 2 : 2.5, order: order++ });
    }
    if (statements.length === 0 && sentence.question && sentence.specifics.length === 0) {
      const value = compactQuestion(sentence.text);
      if (value !== '') pairs.push({ key: 'question', value, score: message.message.role === 'user' ? 3 : 1.5, order: order++ });
    }
  }
  for (const block of input.code) {
    pairs.push({ key: 'code', value: block.language === null ? block.name : `${block.name} (${block.language})`, score: 6, order: order++ });
  }

  if (pairs.length === 0) {
    const prose = withoutFillers(message.prose.replace(/\s+/gu, ' ').trim()) || message.prose.trim();
    if (message.smallTalk) {
      const parts = prose.split(/\s+/u);
      return `small talk = ${clean(parts.length <= 8 ? prose : `${parts.slice(0, 8).join(' ')}…`)}`;
    }
    // Nothing specific to say in `key = value` form: a bag of its words would read as noise.
    return '';
  }

  // Merge pairs with the same key (up to four comma-separated pieces); keep the best under the word budget.
  // (The piece counts sit apart: merged pairs keep the shape of the others, which optimised code relies on.)
  const merged = new Map<string, Pair>();
  const pieces = new Map<string, number>();
  for (const pair of pairs) {
    const key = clean(pair.key);
    const value = clean(pair.value);
    if (key === '' || value === '') continue;
    const existing = merged.get(key);
    const count = pieces.get(key) ?? 0;
    if (existing === undefined) {
      merged.set(key, { key, value, score: pair.score, order: pair.order });
      pieces.set(key, pieceCount(value));
    } else if (count < 4 && !existing.value.includes(value)) {
      existing.value = `${existing.value}, ${value}`;
      pieces.set(key, count + pieceCount(value));
      existing.score = Math.max(existing.score, pair.score);
    }
  }
  const budget = Math.max(15, Math.round(message.words * input.share));
  const ranked = [...merged.values()].sort((a, b) => b.score - a.score || a.order - b.order);
  const chosen: Pair[] = [];
  let used = 0;
  for (const pair of ranked) {
    const size = countWords(pair.key) + countWords(pair.value) + 1;
    if (chosen.length > 0 && used + size > budget) continue;
    chosen.push(pair);
    used += size;
  }
  return mapPacked(chosen.sort((a, b) => a.order - b.order), (pair) => `${pair.key} = ${pair.value}`).join('; ');
}
