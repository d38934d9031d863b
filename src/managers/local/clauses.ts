/**
 * Clauses: the parts of a sentence that each say one thing. "Payroll's in Xero, we pay monthly, and
 * everyone gets paid on the 12th" is three; "Ridgeline: $52,400, about 8 weeks" is one. A clause is a
 * token range; boundaries are semicolons and dashes, a colon or comma followed by a clause of its own,
 * and "and", "but", "so" before a new subject with a verb.
 */
import { CONJUNCTIONS, NEGATIONS } from './function-words.js';
import type { TaggedToken } from './tagging.js';

/** A token range of a sentence: `from` inclusive, `to` exclusive. */
export type Span = readonly [number, number];

const PREDICATE_POS = new Set(['verb', 'copula', 'modal', 'auxiliary']);
const SUBJECT_POS = new Set(['pronoun', 'determiner', 'noun', 'proper']);
/**
 * Conjunctions that join two clauses when a subject and a verb follow. Subordinating ones ("because",
 * "while") are not among them: a reason or a circumstance stays with the clause it belongs to.
 */
const JOINING = new Set(['and', 'but', 'so', 'plus', 'yet'])
/** "he's", "it's", "payroll's": a word carrying its verb. */
const CARRIES_VERB = /^[\p{L}]+'(?:s|m|re|ve|d|ll)$/u;

/** Whether the token is or carries a verb. */
export function isPredicate(token: TaggedToken | undefined): boolean {
  if (token === undefined) return false;
  return PREDICATE_POS.has(token.pos) || (token.pos === 'pronoun' && CARRIES_VERB.test(token.lower));
}

const AFTER_IS = new Set(['preposition', 'adjective', 'value', 'determiner', 'adverb', 'negation', 'date']);

/** "Payroll's in Xero", "the contract's $49,300": a noun whose "'s" is "is". */
export function carriesIs(token: TaggedToken | undefined, next: TaggedToken | undefined): boolean {
  if (token === undefined || next === undefined || !/'s$/u.test(token.lower)) return false;
  if (token.pos !== 'noun' && token.pos !== 'proper') return false;
  return AFTER_IS.has(next.pos) || next.hasDigit || /^[$€£¥]/u.test(next.text);
}

/** Whether tokens `from`..`to` hold a verb (or a word carrying one, or a negated predicate). */
export function hasPredicate(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (isPredicate(token)) return true;
    if (token !== undefined && NEGATIONS.has(token.lower) && isPredicate(tokens[index + 1])) return true;
  }
  return false;
}

/** For each token, whether it stands inside round brackets of the sentence `text`. */
function insideBrackets(tokens: readonly TaggedToken[], text: string): boolean[] {
  if (!text.includes('(')) return [];
  let depth = 0;
  let at = 0;
  return tokens.map((token) => {
    for (; at < token.start; at += 1) {
      if (text[at] === '(') depth += 1;
      else if (text[at] === ')') depth = Math.max(0, depth - 1);
    }
    // A closing bracket right after the word ends the aside at that word.
    return depth > 0 && !token.trailing.includes(')');
  });
}

const SUBORDINATORS = new Set(['since', 'because', 'as', 'although', 'though', 'while', 'whereas', 'given', 'if', 'when', 'unless', 'once']);

/** "Our CFO, Ingrid Haas, has to approve …": a name set off by commas is an apposition, not a new clause. */
function apposition(tokens: readonly TaggedToken[], at: number): boolean {
  let index = at;
  while (tokens[index]?.pos === 'proper' && index - at < 4) {
    if (/,/u.test(tokens[index]?.trailing ?? '')) return index > at || tokens[at]?.capitalised === true;
    index += 1;
  }
  return false;
}

/** A subject and a verb within a few words after `at`: a clause of its own starts there. */
function clauseStartsAt(tokens: readonly TaggedToken[], at: number, to: number): boolean {
  const first = tokens[at];
  if (first === undefined || apposition(tokens, at)) return false;
  if (isPredicate(first) && first.pos === 'pronoun') return true;
  // A bare verb after a comma goes on with the subject before it ("Ingrid Haas, has to approve …").
  if (!SUBJECT_POS.has(first.pos)) return false;
  // ("…, so the contract's $49,300 all-in now": "contract's" carries its "is".)
  const end = Math.min(to, at + 5);
  for (let index = at; index < end; index += 1) if (carriesIs(tokens[index], tokens[index + 1])) return true;
  return hasPredicate(tokens, at, end);
}

function boundaryPunctuation(token: TaggedToken): 'strong' | 'colon' | 'comma' | null {
  const trailing = token.trailing;
  if (trailing === '') return null;
  if (/[;—–]|\s-\s?$|^-$/u.test(trailing)) return 'strong';
  if (trailing.includes(':')) return 'colon';
  if (trailing.includes(',')) return 'comma';
  return null;
}

/**
 * The clauses of tokens `from`..`to` (a sentence, or the part of it that is not a question), in order.
 * A part without a verb stays with the clause before it unless it stands alone ("Warfarin 3 mg once a
 * day at 6pm, that's the blood thinner" gives the fragment and the clause).
 */
export function clauseSpans(tokens: readonly TaggedToken[], from = 0, to = tokens.length, text = ''): Span[] {
  const cuts: number[] = [];
  // Commas inside brackets ("tree nuts (cashews, walnuts, the lot)") list things; they end no clause.
  const bracketed = insideBrackets(tokens, text);
  // "Since Redwood is our largest client, switch to imperial units": the reason ends at its comma.
  if (SUBORDINATORS.has(tokens[from]?.lower ?? '')) {
    const comma = tokens.findIndex((token, index) => index > from + 1 && index < to - 1 && /,/u.test(token.trailing));
    if (comma > 0 && hasPredicate(tokens, from, comma + 1) && hasPredicate(tokens, comma + 1, to)) cuts.push(comma + 1);
  }
  for (let index = from; index < to - 1; index += 1) {
    const token = tokens[index];
    const next = tokens[index + 1];
    if (token === undefined || next === undefined) continue;
    const punctuation = boundaryPunctuation(token);
    if (punctuation === 'strong') {
      cuts.push(index + 1);
      continue;
    }
    if (bracketed[index] === true) continue;
    if (punctuation === 'colon' || punctuation === 'comma') {
      // ", and we …", ": we …", ", he's …": a new clause; ", Monday and Tuesday" is a list.
      // (", and sadly terracotta is dead": an adverb after the conjunction.)
      let at = JOINING.has(next.lower) ? index + 2 : index + 1;
      while (at > index + 1 && at < to - 2 && tokens[at]?.pos === 'adverb' && /ly$/u.test(tokens[at]?.lower ?? '')) at += 1;
      if (clauseStartsAt(tokens, at, to) || (punctuation === 'colon' && hasPredicate(tokens, index + 1, to))) cuts.push(index + 1);
      continue;
    }
    // "… in Xero and everyone gets paid": a conjunction before a new subject and verb.
    if (JOINING.has(next.lower) && index + 2 < to && CONJUNCTIONS.has(next.lower) && clauseStartsAt(tokens, index + 2, to) && hasPredicate(tokens, from, index + 1)) {
      cuts.push(index + 1);
    }
  }
  const spans: Span[] = [];
  let start = from;
  for (const cut of cuts) {
    if (cut <= start) continue;
    spans.push([start, cut]);
    start = cut;
  }
  if (start < to) spans.push([start, to]);
  return spans;
}
