/**
 * Where a sentence's statements lie: the part of it that states something (a question tacked on after
 * a comma is dropped), its coordinated clauses, the words that only open or announce a clause, and
 * where a clause's predicate starts.
 */
import type { AnalysedSentence } from './analysis.js';
import type { Cue } from './cues.js';
import { FIRST_PERSON, QUESTION_OPENERS, QUESTION_WORDS, SMALL_TALK_WORDS } from './function-words.js';
import type { TaggedToken } from './tagging.js';
import { endsClause } from './tokens.js';

const PREDICATE_POS = new Set(['verb', 'copula', 'modal', 'auxiliary', 'negation']);

/** Words that open a clause giving a reason or a circumstance for the main one. */
export const SUBORDINATORS = new Set(['since', 'because', 'as', 'although', 'though', 'while', 'whereas', 'given']);
/** Words that join two clauses, each with a subject and a verb of its own. */
export const CLAUSE_CONJUNCTIONS = new Set(['and', 'but', 'while', 'whereas', 'although', 'though', 'so', 'plus', 'yet']);
const SUBJECT_POS = new Set(['pronoun', 'determiner', 'noun', 'proper']);
const BARE_PREDICATE_POS = new Set(['modal', 'auxiliary', 'negation']);

/** Where the statement part of a sentence ends: a question after a comma is dropped ("I'm vegan, any ideas?"). */
export function statementRange(sentence: AnalysedSentence): [number, number] | null {
  const tokens = sentence.tokens;
  if (!sentence.question) return [0, tokens.length];
  for (let index = tokens.length - 2; index >= 0; index -= 1) {
    const token = tokens[index];
    const next = tokens[index + 1];
    if (token === undefined || next === undefined) continue;
    if (/[,;:–—]/u.test(token.trailing) && (QUESTION_WORDS.has(next.lower) || QUESTION_OPENERS.has(next.lower) || next.lower === 'any')) {
      return index >= 2 ? [0, index + 1] : null;
    }
  }
  return null;
}

/** For a long sentence, the clause around the anchor token (between clause boundaries). */
export function clauseAround(tokens: readonly TaggedToken[], range: [number, number], anchor: number, maxTokens: number): [number, number] {
  const [from, to] = range;
  if (to - from <= maxTokens) return range;
  const boundaryAfter = (index: number): boolean => {
    const token = tokens[index];
    return token === undefined || endsClause(token);
  };
  let start = anchor;
  while (start > from && !boundaryAfter(start - 1)) start -= 1;
  let end = anchor + 1;
  while (end < to && !boundaryAfter(end - 1)) end += 1;
  if (end - start < 4) return [Math.max(from, anchor - maxTokens / 2), Math.min(to, anchor + maxTokens / 2)];
  return [start, Math.min(end, start + maxTokens)];
}

/** Index of the first predicate word (verb, modal, copula, negation, or cue) in the range. */
export function predicateStart(tokens: readonly TaggedToken[], from: number, to: number, cue: Cue | null): number {
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (cue !== null && index === cue.start && !cue.keyword) return index;
    if (PREDICATE_POS.has(token.pos)) return index;
    // "I'm", "we're", "it's": the contraction carries the verb.
    if (token.pos === 'pronoun' && /'(?:m|re|s|ve|d|ll)$/u.test(token.lower)) return index + 1;
    if (token.pos === 'pronoun' && (token.lower === "let's" || token.lower === 'lets')) return index + 1;
  }
  return from;
}

/** Whether tokens `from`..`to` hold a predicate: a verb, a modal, a copula, a negation or a contracted verb ("we're"). */
export function hasPredicateIn(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (PREDICATE_POS.has(token.pos) || (token.lower.includes("'") && /'(?:m|re|s|ve|d|ll)$/u.test(token.lower))) return true;
  }
  return false;
}

/**
 * Coordinated clauses of a sentence, each with its own subject and verb:
 * "Our budget is $45,000 and the deadline is March 3" gives two clauses; "I love hiking and camping" one.
 */
export function clauseRanges(tokens: readonly TaggedToken[], range: [number, number]): [number, number][] {
  const [from, to] = range;
  const clauses: [number, number][] = [];
  let start = from;
  // "Since Brightwater is my biggest client, switch to American spelling": the reason and the main clause.
  if (SUBORDINATORS.has(tokens[from]?.lower ?? '')) {
    for (let index = from + 2; index < to - 2; index += 1) {
      if (!/,/u.test(tokens[index]?.trailing ?? '')) continue;
      if (hasPredicateIn(tokens, from, index + 1) && hasPredicateIn(tokens, index + 1, to)) {
        clauses.push([from, index + 1]);
        start = index + 1;
      }
      break;
    }
  }
  for (let index = from + 2; index < to - 2; index += 1) {
    const token = tokens[index];
    const previous = tokens[index - 1];
    const next = tokens[index + 1];
    if (token === undefined || previous === undefined || next === undefined) continue;
    let boundary = -1;
    let resume = -1;
    if (CLAUSE_CONJUNCTIONS.has(token.lower) && (SUBJECT_POS.has(next.pos) || BARE_PREDICATE_POS.has(next.pos))) {
      if (hasPredicateIn(tokens, index + 1, Math.min(to, index + 5))) {
        boundary = index;
        resume = index + 1;
      }
    } else if (/;/u.test(previous.trailing) || (/,/u.test(previous.trailing) && (token.pos === 'pronoun' || token.pos === 'determiner'))) {
      if (hasPredicateIn(tokens, index, Math.min(to, index + 4))) {
        boundary = index;
        resume = index;
      }
    }
    if (boundary < 0 || !hasPredicateIn(tokens, start, boundary) || boundary - start < 2) continue;
    clauses.push([start, boundary]);
    start = resume;
  }
  clauses.push([start, to]);
  return clauses;
}

/** Where the first clause of the sentence starts (after its openers). */
export function firstClauseStart(tokens: readonly TaggedToken[], sentence: AnalysedSentence): number {
  const range = statementRange(sentence);
  return range === null ? 0 : skipOpeners(tokens, range)[0];
}

/**
 * "Quick update from the platform team: the API rate limit is …": words before an early colon that a full
 * clause follows only announce it; the statement starts after the colon. ("Budget: $45,000" keeps its colon key.)
 */
export function skipAnnouncer(tokens: readonly TaggedToken[], range: [number, number]): [number, number] {
  const [from, to] = range;
  for (let index = from + 1; index < Math.min(to - 2, from + 7); index += 1) {
    const token = tokens[index];
    if (token === undefined || !/:/u.test(token.trailing)) continue;
    const next = tokens[index + 1];
    const clause = next !== undefined && (next.pos === 'pronoun' || next.pos === 'determiner' || next.pos === 'proper' || next.pos === 'noun');
    return clause && hasPredicateIn(tokens, index + 1, to) ? [index + 1, to] : range;
  }
  return range;
}

/** Correction openers: "Actually,", "Scratch that,", "No,", "On second thought,". */
const OPENER_WORDS = new Set(['actually', 'scratch', 'that', 'wait', 'sorry', 'oops', 'correction', 'on', 'second', 'thought', 'thoughts', 'mean', 'meant', 'i', 'update', 'instead']);

/** Opening words that carry nothing ("Hmm,", "Oh wow,", "Actually,", "Scratch that,"): the statement starts after them. */
export function skipOpeners(tokens: readonly TaggedToken[], range: [number, number]): [number, number] {
  let [from] = range;
  const to = range[1];
  const opener = (token: TaggedToken | undefined): boolean =>
    token !== undefined && (SMALL_TALK_WORDS.has(token.lower) || OPENER_WORDS.has(token.lower)) && !(FIRST_PERSON.has(token.lower) && token.lower !== 'i');
  while (from < to - 1) {
    const token = tokens[from];
    if (!opener(token) || (token !== undefined && FIRST_PERSON.has(token.lower) && tokens[from + 1]?.lower !== 'mean' && tokens[from + 1]?.lower !== 'meant')) break;
    let end = from;
    while (end < to - 1 && !/[,!.:;…–—-]/u.test(tokens[end]?.trailing ?? '') && opener(tokens[end + 1]) && end - from < 3) end += 1;
    if (!/[,!.:;…–—-]/u.test(tokens[end]?.trailing ?? '')) break;
    from = end + 1;
  }
  return [from, to];
}
