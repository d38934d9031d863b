/**
 * Statement kinds: whether a clause makes a fact line and of which kind — the kind of its cue
 * (exception, constraint, goal, preference), a plain fact resting on a specific, an accepted proposal,
 * a correction or a removal — and the clauses that state nothing (conditions, headlines, reported questions).
 */
import { mapPacked } from '../../core/packed-map.js';
import type { FactKind } from '../../core/types.js';
import type { Cue } from './cues.js';
import { COPULAS, QUESTION_WORDS } from './function-words.js';
import type { Specific } from './specifics.js';
import { hasPredicateIn } from './statement-clauses.js';
import { isPronounSubject, type StatementParts } from './statement-parts.js';
import type { TaggedToken } from './tagging.js';

export function factKindOf(cue: Cue): FactKind | null {
  switch (cue.kind) {
    case 'exception':
    case 'constraint':
    case 'goal':
    case 'preference':
      return cue.kind;
    default:
      return null;
  }
}

/** Talk about the talk ("Let me give you the full picture", "Here is the plan") states no fact. */
const META_OPENERS = /^(?:let me|allow me|here's|here is|here are|to be clear|just to recap|as i said|as mentioned)\b/u;

/** First words of the openers `META_OPENERS` knows. */
const META_FIRST_WORDS = new Set(['let', 'allow', "here's", 'here', 'to', 'just', 'as']);

/**
 * A plain fact (no cue) needs a specific; a statement about the speaker or a named person may rest
 * on a date alone ("I started painting last year"), any other needs a number, an amount or a name.
 */
function isPlainFact(tokens: readonly TaggedToken[], from: number, specifics: readonly Specific[], personal: boolean): boolean {
  if (specifics.length === 0) return false;
  if (META_FIRST_WORDS.has(tokens[from]?.lower ?? '')) {
    const opening = mapPacked(tokens.slice(from, from + 3), (token) => token.lower).join(' ');
    if (META_OPENERS.test(opening)) return false;
  }
  return personal || specifics.some((item) => item.type !== 'date');
}

/** The kind of a plain fact (no cue), when the clause is one: a specific, a verb, no condition. */
export function plainFactKind(parts: StatementParts): 'fact' | null {
  return isPlainFact(parts.tokens, parts.from, parts.meaningful, parts.personal) && parts.hasPredicate && !parts.conditional ? 'fact' : null;
}

const HEADLINE_NOUNS = new Set(['update', 'news', 'question', 'note', 'reminder', 'message', 'word', 'email', 'feedback', 'results', 'result']);
const HEADLINE_LINKS = new Set(['from', 'on', 'about', 'regarding', 're']);

const REPORTING_VERBS = new Set(['ask', 'asks', 'asked', 'asking', 'wonder', 'wonders', 'wondered', 'wondering', 'wants to know', 'check', 'checking']);
const QUESTION_LINKS = new Set([...QUESTION_WORDS, 'if', 'whether']);

/** "asked where …", "wonders whether …": the clause reports a question. */
function reportsQuestion(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    if (!REPORTING_VERBS.has(tokens[index]?.lower ?? '')) continue;
    if (QUESTION_LINKS.has(tokens[index + 1]?.lower ?? '') || QUESTION_LINKS.has(tokens[index + 2]?.lower ?? '')) return true;
  }
  return false;
}

const AGREEMENT_WORDS = new Set(['agreed', 'agree', 'sense', 'deal', 'decided', 'decision', 'confirmed', 'fine', 'ok', 'okay', 'perfect', 'good', 'great', 'sure', 'yes', 'yep', 'settled', 'final']);

/** Whether the words skipped before the clause accept something ("Agreed:", "Makes sense,", "OK then,"). */
function agreedBefore(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) if (AGREEMENT_WORDS.has(tokens[index]?.lower ?? '')) return true;
  return false;
}

/** The kind of fact line a clause makes. */
export interface FoundKind {
  kind: FactKind;
  /** It makes one as an accepted proposal stated without a verb ("Agreed: TTL 60 seconds on Thursday"). */
  fragment: boolean;
}

/** The kind of fact line the clause makes; null when it states nothing. */
export function statementKind(parts: StatementParts): FoundKind | null {
  const { tokens, primary, from, to, subjectStart, subjectEnd, specifics } = parts;
  let kind: FactKind | null = (primary === null ? null : factKindOf(primary)) ?? plainFactKind(parts);
  // "The launch date is May 20", "The kickoff is on Monday": a thing and its date.
  if (kind === null && !parts.conditional && parts.meaningful.length > 0 && COPULAS.has(tokens[subjectEnd]?.lower ?? '') && !isPronounSubject(tokens, subjectStart, subjectEnd)) {
    if (specifics.some((item) => item.start >= (tokens[subjectEnd]?.end ?? 0))) kind = 'fact';
  }
  // "Agreed: TTL 60 seconds on Thursday." — an accepted proposal, stated without a verb.
  const fragment = kind === null && !parts.hasPredicate && agreedBefore(tokens, 0, parts.fullRange[0]) && specifics.some((item) => item.type !== 'name' || item.entity !== 'person');
  if (fragment) kind = 'fact';
  if (kind === null && (parts.correction !== null || parts.removal !== null)) kind = 'fact';
  if (kind === null) return null;
  if (parts.conditional && kind !== 'exception' && kind !== 'constraint') return null;
  // "Update from my GP, Dr. Helen Price." only announces what follows.
  if (!hasPredicateIn(tokens, from + 1, to) && HEADLINE_NOUNS.has(tokens[from]?.lower ?? '') && HEADLINE_LINKS.has(tokens[from + 1]?.lower ?? '')) return null;
  // "Tomás asked where DNS is going to live" reports a question, it states nothing.
  if (kind !== 'exception' && kind !== 'constraint' && reportsQuestion(tokens, from, to)) return null;
  return { kind, fragment };
}
