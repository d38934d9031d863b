/**
 * Statements: the fact lines a sentence can contribute to the base-truth document, as
 * `key: value` where the key names what the line is about and the value is a clause copied
 * verbatim from the sentence (so its numbers, names and negations survive and grounding passes).
 */
import { mapPacked } from '../../core/packed-map.js';
import { countWords } from '../../core/text.js';
import type { FactKind } from '../../core/types.js';
import type { AnalysedSentence } from './analysis.js';
import { categoryOf, isCategoryName } from './categories.js';
import { primaryCue } from './cues.js';
import type { Cue } from './cues.js';
import type { Specific } from './specifics.js';
import { COPULAS, FIRST_PERSON, GENERIC_NOUNS, META_NOUNS, NUMBER_WORDS, QUESTION_OPENERS, QUESTION_WORDS, SMALL_TALK_WORDS, STOP_WORDS, UNIT_WORDS } from './function-words.js';
import { contentKey, firstPhraseAfter, keyFromPhrase, keyFromTokens, nounPhrases, phraseAt } from './noun-phrases.js';
import type { NounPhrase } from './noun-phrases.js';
import type { TaggedToken } from './tagging.js';
import { endsClause, sliceTokens } from './tokens.js';

export interface Statement {
  kind: FactKind;
  /** What the line is about: a short lower-case noun phrase. */
  key: string;
  /** The clause, verbatim. */
  value: string;
  messageId: string;
  sentence: AnalysedSentence;
  /** The cue that decided the kind (null for plain facts). */
  cue: Cue | null;
  correction: Cue | null;
  removal: Cue | null;
  /** The subject is the speaker ("I", "we", "my") or a named person. */
  personal: boolean;
  /** Specifics inside the statement's clause. */
  specifics: Specific[];
  /** The category the statement is about, when its object is a known product ("database"). */
  category: string | null;
  /** Key words of the thing acted on ("redis cache" in "forget the Redis cache"). */
  object: string | null;
  /** No key could be found: the statement can only correct a fact it targets ("make that $45k"). */
  keyless: boolean;
  /** Where the key came from: the subject, a keyword cue, a product category, the object, or plain content words. */
  keySource: KeySource;
  /** The value starts at the predicate (the subject is the key or a pronoun), so `key: value` reads as a sentence. */
  predicateValue: boolean;
  /** Ranking weight: exceptions first, then constraints, corrections, goals, preferences, facts. */
  weight: number;
  /** The value holds something specific: a number, a date, a name or a substantive noun. */
  informative: boolean;
  /** Specifics the clause sets aside as the old value ("not $1,200", "from 14 May to …", "March 15 is off"). */
  oldValues: Specific[];
  /** The subject is a pronoun or missing (an instruction): the clause continues what was said before. */
  pronounSubject: boolean;
  /** Token range of the clause in the sentence. */
  range: [number, number];
  /** The clause from its subject on, verbatim (openers dropped), for a line whose key comes from elsewhere. */
  clauseText: string;
  /** An accepted proposal ("Agreed: TTL 60 seconds on Thursday"): a decision, however short the turn. */
  agreed: boolean;
}

export type KeySource = 'subject' | 'keyword' | 'category' | 'object' | 'content';

export interface StatementContext {
  messageId: string;
  /** The speaker's name, used to tell people apart in keys ("caroline kids"). */
  speaker: string | null;
  maxValueWords: number;
  /**
   * The person last named in the message (updated as statements are read), so "she" in
   * "Melanie loves pottery and she has 3 kids" is Melanie.
   */
  lastPerson?: { name: string | null };
  /**
   * The statements may change the document (default): fill `oldValues` and `clauseText`. A message that
   * cannot add facts (an unnamed assistant by default) only needs its statements for tier 1.
   */
  forDiff?: boolean;
}

const KIND_WEIGHT: Readonly<Record<FactKind, number>> = { exception: 5, constraint: 4, goal: 3, preference: 2, fact: 1 };

const PREDICATE_POS = new Set(['verb', 'copula', 'modal', 'auxiliary', 'negation']);

const CONDITIONAL_OPENERS = new Set(['if', 'when', 'whenever', 'suppose', 'imagine', 'maybe', 'perhaps', 'what', 'how', 'why']);

/** Words that only introduce a correction and carry no content of their own. */
const CORRECTION_OPENERS =
  /^(?:(?:(?:actually|correction|scratch that|on second thoughts?|i meant?)\b[,:;!.]?|(?:no|wait|sorry|oops|update|ok|okay|so|well|hmm)\b[,:;!.])\s*)+/iu;

function factKindOf(cue: Cue): FactKind | null {
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

/**
 * A plain fact (no cue) needs a specific; a statement about the speaker or a named person may rest
 * on a date alone ("I started painting last year"), any other needs a number, an amount or a name.
 */
/** First words of the openers `META_OPENERS` knows. */
const META_FIRST_WORDS = new Set(['let', 'allow', "here's", 'here', 'to', 'just', 'as']);

function isPlainFact(tokens: readonly TaggedToken[], from: number, specifics: readonly Specific[], personal: boolean): boolean {
  if (specifics.length === 0) return false;
  if (META_FIRST_WORDS.has(tokens[from]?.lower ?? '')) {
    const opening = mapPacked(tokens.slice(from, from + 3), (token) => token.lower).join(' ');
    if (META_OPENERS.test(opening)) return false;
  }
  return personal || specifics.some((item) => item.type !== 'date');
}

/** Where the statement part of a sentence ends: a question after a comma is dropped ("I'm vegan, any ideas?"). */
function statementRange(sentence: AnalysedSentence): [number, number] | null {
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
function clauseAround(tokens: readonly TaggedToken[], range: [number, number], anchor: number, maxTokens: number): [number, number] {
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
function predicateStart(tokens: readonly TaggedToken[], from: number, to: number, cue: Cue | null): number {
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

function isPronounSubject(tokens: readonly TaggedToken[], from: number, end: number): boolean {
  for (let index = from; index < end; index += 1) {
    const token = tokens[index];
    if (token !== undefined && (token.pos === 'noun' || token.pos === 'proper')) return false;
  }
  return true;
}

function personIn(specifics: readonly Specific[], from: number, to: number): Specific | null {
  return specifics.find((item) => item.type === 'name' && item.entity === 'person' && item.start >= from && item.start < to) ?? null;
}

function joinKey(prefix: string | null, key: string): string {
  if (prefix === null || prefix === '' || key.split(' ').includes(prefix)) return key;
  return `${prefix} ${key}`.split(' ').slice(0, 4).join(' ');
}

/**
 * The category of a phrase whose head is a known product ("PostgreSQL 16" → database); "the old
 * Hetzner box" is about a box, not about the cloud provider.
 */
function categoryOfPhrase(tokens: readonly TaggedToken[], phrase: NounPhrase | null): string | null {
  if (phrase === null) return null;
  for (let index = phrase.start; index < phrase.end; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (token.capitalised || /\p{Lu}/u.test(token.text)) {
      const category = categoryOf(token.text);
      if (category === null) continue;
      let head = true;
      for (let after = index + 1; after < phrase.end; after += 1) {
        const next = tokens[after];
        if (next !== undefined && !next.hasDigit && next.pos !== 'value' && categoryOf(next.text) === null) head = false;
      }
      if (head) return category;
    }
  }
  return null;
}

const ROLES = new Set([
  'manager', 'boss', 'lead', 'director', 'editor', 'supervisor', 'advisor', 'cto', 'ceo', 'cfo', 'coo', 'cio', 'vp', 'owner', 'founder',
  'colleague', 'co-author', 'coauthor', 'teammate', 'engineer', 'developer', 'dev', 'designer', 'analyst', 'lawyer', 'counsel',
  'accountant', 'contact', 'reviewer', 'approver', 'sponsor', 'admin', 'administrator', 'officer', 'assistant', 'partner', 'consultant',
  'physio', 'doctor', 'gp', 'coach', 'trainer', 'landlord',
]);

/** The role a subject names next to a person ("our CFO, Martin de Vries" → "cfo"; "Dana, our tech lead" → "tech lead"). */
function roleIn(tokens: readonly TaggedToken[], from: number, to: number): string | null {
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined || !ROLES.has(token.lower.replace(/[’']s$/u, ''))) continue;
    const previous = tokens[index - 1];
    const modifier = previous !== undefined && !endsClause(previous) && (previous.pos === 'noun' || previous.pos === 'adjective') && !STOP_WORDS.has(previous.lower) ? `${previous.lower} ` : '';
    return `${modifier}${token.lower.replace(/[’']s$/u, '')}`;
  }
  return null;
}

const LASTING_CUES = new Set(['from now on', 'going forward', 'for everything', 'by default', 'every time', 'each time']);

/** Words that, after a colon opener, only announce what follows ("Deadline news:", "Schedule change:"). */
const ANNOUNCING_WORDS = new Set(['also', 'and', 'but', 'so', 'ok', 'okay', 'one', 'another', 'quick', 'big', 'small', 'bad', 'good', 'great', 'hard', 'final', 'last', 'new', 'more', 'other', 'some', 'latest', 'important', 'main', 'just', 'far']);

/**
 * The key a colon opener names ("Budget: …", "Deadline news: …" → deadline), or null when the words
 * before the colon only announce ("Update from this morning:", "Bad news:", "Results are back:").
 */
function announcedKey(tokens: readonly TaggedToken[], from: number, end: number): string | null {
  const kept: number[] = [];
  for (let index = from; index < end; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    const lower = token.lower.replace(/[’']s$/u, '');
    if (ANNOUNCING_WORDS.has(lower) || META_NOUNS.has(lower) || token.pos === 'determiner') continue;
    // "Schedule change:", "Invoicing question:": a first word the lists call a verb is a noun here.
    const nounish = token.pos === 'noun' || token.pos === 'proper' || token.pos === 'adjective' || (index === from && token.pos === 'verb' && !token.past);
    if (!nounish && !token.hasDigit) return null;
    kept.push(index);
  }
  const first = kept[0];
  const last = kept.at(-1);
  if (first === undefined || last === undefined) return null;
  if (!kept.some((index) => tokens[index]?.pos === 'noun' || tokens[index]?.pos === 'proper' || tokens[index]?.pos === 'verb')) return null;
  return keyFromTokens(tokens, first, last + 1, 4);
}

/** Words after a value that set it aside: "March 15 is off", "the old plan is dead". */
const SET_ASIDE = new Set(['off', 'out', 'cancelled', 'canceled', 'gone', 'wrong', 'dead', 'over', 'unrealistic', 'impossible', 'obsolete', 'outdated']);

function tokenIndexAt(tokens: readonly TaggedToken[], offset: number): number {
  for (let index = 0; index < tokens.length; index += 1) if ((tokens[index]?.end ?? 0) > offset) return index;
  return -1;
}

/**
 * The specifics of a sentence (between two offsets) that the sentence sets aside as old values:
 * "not $1,200", "instead of 30 June", "rather than MySQL", "from 14 May … to", "March 15 is off".
 */
export function oldValuesIn(
  sentence: AnalysedSentence,
  startOffset = 0,
  endOffset = Number.POSITIVE_INFINITY,
  specifics: readonly Specific[] = sentence.specifics,
): Specific[] {
  const tokens = sentence.tokens;
  const clauseStart = Math.max(0, tokenIndexAt(tokens, startOffset));
  // "moved from 14 May at 10:30 to 13 May …": what stands between "from" and "to" is the old value
  // (only a change of value: a value right after "from" and right after, or around, "to"; "has to pass" is none).
  const startsValue = (index: number): boolean =>
    specifics.some((item) => {
      const at = tokens[index]?.start ?? -1;
      return item.start === at || (item.start < at && item.end > at);
    });
  let fromAt = -1;
  let toAt = -1;
  for (let index = clauseStart; index < tokens.length && (tokens[index]?.start ?? Infinity) < endOffset && toAt < 0; index += 1) {
    const lower = tokens[index]?.lower ?? '';
    if (lower === 'from' && startsValue(index + 1)) fromAt = index;
    else if (lower === 'to' && fromAt >= 0 && (startsValue(index + 1) || startsValue(index))) toAt = index;
  }
  if (toAt < 0) fromAt = -1;
  const old: Specific[] = [];
  for (const item of specifics) {
    if (item.start < startOffset || item.end > endOffset) continue;
    const first = tokenIndexAt(tokens, item.start);
    if (first < 0) continue;
    let last = first;
    while (last + 1 < tokens.length && (tokens[last + 1]?.start ?? Infinity) < item.end) last += 1;
    // One modifier may stand between the marker and the value ("instead of plain Poisson").
    const modified = tokens[first - 1]?.pos === 'adjective' || tokens[first - 1]?.pos === 'determiner' ? 1 : 0;
    const before = tokens[first - 1 - modified]?.lower ?? '';
    const before2 = tokens[first - 2 - modified]?.lower ?? '';
    const after = tokens[last + 1]?.lower ?? '';
    const after2 = tokens[last + 2]?.lower ?? '';
    // "March 15 is off": the value is what the clause is about (it opens the clause).
    const opensClause = first - clauseStart <= 1;
    const setAside =
      before === 'not' ||
      (before === 'of' && before2 === 'instead') ||
      (before === 'than' && before2 === 'rather') ||
      (fromAt >= 0 && toAt > fromAt && first > fromAt && last < toAt) ||
      (opensClause && (COPULAS.has(after) || after === 'is' || after === 'was') && SET_ASIDE.has(after2));
    if (setAside) old.push(item);
  }
  return old;
}

const RANGE_IN_TEXT = /^(.+?)\s+to\s+(.+)$/u;

/**
 * Specifics of a clause, with "from … to …" ranges that a change cut in two ("from 14 May at 10:30 to 13 May"
 * is an old and a new date, however the date parser grouped the words).
 */
function clauseSpecifics(sentence: AnalysedSentence, startOffset: number, endOffset: number): Specific[] {
  const inClause = sentence.specifics.filter((item) => item.start >= startOffset && item.end <= endOffset);
  if (!inClause.some((item) => item.type === 'date') || !sentence.tokens.some((token) => token.lower === 'from' && token.start >= startOffset && token.end <= endOffset)) return inClause;
  return inClause.flatMap((item) => {
    const match = item.type === 'date' ? RANGE_IN_TEXT.exec(item.text) : null;
    const first = match?.[1];
    const second = match?.[2];
    if (match === null || first === undefined || second === undefined || !/\bfrom\s/iu.test(sentence.text.slice(startOffset, item.start))) return [item];
    return [
      { ...item, text: first, end: item.start + first.length, resolved: null },
      { ...item, text: second, start: item.end - second.length, resolved: null },
    ];
  });
}

/** Content words that make a value say something even without a number, a date or a name. */
function isSubstantive(token: TaggedToken): boolean {
  if (token.pos !== 'noun' && token.pos !== 'proper') return false;
  const lower = token.lower.replace(/[’']s$/u, '');
  if (lower.length < 2 || STOP_WORDS.has(lower) || META_NOUNS.has(lower) || NUMBER_WORDS.has(lower) || UNIT_WORDS.has(lower)) return false;
  return !TIME_NOUNS.has(lower);
}

const TIME_NOUNS = new Set(['morning', 'afternoon', 'evening', 'night', 'week', 'weekend', 'month', 'year', 'day', 'days', 'weeks', 'months', 'years', 'today', 'tonight', 'tomorrow', 'yesterday', 'now', 'moment', 'while']);

/**
 * Whether tokens `from`..`to` say something specific: a number, an amount, a date, a name that is not
 * merely the person doing something ("Femi checked"), or a substantive noun ("moved too, by the way" does not).
 */
function isInformative(tokens: readonly TaggedToken[], from: number, to: number, specifics: readonly Specific[]): boolean {
  const startOffset = tokens[from]?.start ?? 0;
  const endOffset = tokens[to - 1]?.end ?? 0;
  let person = false;
  for (const item of specifics) {
    if (item.start < startOffset || item.end > endOffset) continue;
    if (item.type !== 'name' || item.entity !== 'person') return true;
    person = true;
  }
  let content = 0;
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (isSubstantive(token) && token.entity !== 'person') return true;
    if (!STOP_WORDS.has(token.lower) && token.pos !== 'proper' && token.entity !== 'person') content += 1;
  }
  return person && content >= 2;
}

/** Punctuation or whitespace at either end, or whitespace that is not a single space. */
const UNTIDY = /^[\s,;:–—-]|[\s,;:–—-]$|\s\s|[^\S ]/u;

function trimValue(text: string, maxWords: number): string {
  // Sentences are already tidy (single spaces): most values need no cleaning.
  if (!UNTIDY.test(text) && countWords(text) <= maxWords) return text;
  const cleaned = text.replace(/^[\s,;:–—-]+|[\s,;:–—-]+$/gu, '').trim();
  const parts = cleaned.split(/\s+/u).filter((part) => part !== '');
  if (parts.length <= maxWords) return parts.join(' ');
  return `${parts.slice(0, maxWords).join(' ')} …`;
}

/**
 * The statement a sentence makes, if it is worth a fact line: a cue (constraint, exception, goal,
 * preference), a correction or removal, or a specific (number, date, name) in a declarative clause.
 */
export function extractStatements(sentence: AnalysedSentence, context: StatementContext): Statement[] {
  if (sentence.tokens.length === 0 || sentence.smallTalk) return [];
  const range = statementRange(sentence);
  if (range === null) return [];
  const statements: Statement[] = [];
  for (const clause of clauseRanges(sentence.tokens, skipOpeners(sentence.tokens, range))) {
    // "Since Brightwater is my biggest client, …" gives the reason for what follows; the main clause states it.
    const statement = SUBORDINATORS.has(sentence.tokens[clause[0]]?.lower ?? '') ? null : clauseStatement(sentence, clause, context);
    if (statement !== null && statement.informative) statements.push(statement);
    else if (statement !== null) {
      // "They log in with Google SSO, and that has to stay as it is": the rule is about the clause before.
      const previous = statements.at(-1);
      const merged = previous === undefined ? null : mergeAnaphoric(sentence, previous, statement, context.maxValueWords);
      if (merged !== null) statements[statements.length - 1] = merged;
      else if (statement.correction !== null || statement.removal !== null) statements.push(statement);
    }
    // Remember the last person named, for "he" and "she" in what follows.
    if (context.lastPerson !== undefined) {
      const start = sentence.tokens[clause[0]]?.start ?? 0;
      const end = sentence.tokens[clause[1] - 1]?.end ?? 0;
      const named = sentence.specifics.filter((item) => item.entity === 'person' && item.start >= start && item.end <= end).at(-1);
      if (named !== undefined) context.lastPerson.name = named.text;
    }
  }
  return statements;
}

const SUBORDINATORS = new Set(['since', 'because', 'as', 'although', 'though', 'while', 'whereas', 'given']);
const CLAUSE_CONJUNCTIONS = new Set(['and', 'but', 'while', 'whereas', 'although', 'though', 'so', 'plus', 'yet']);
const SUBJECT_POS = new Set(['pronoun', 'determiner', 'noun', 'proper']);
const BARE_PREDICATE_POS = new Set(['modal', 'auxiliary', 'negation']);

function hasPredicateIn(tokens: readonly TaggedToken[], from: number, to: number): boolean {
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
function clauseRanges(tokens: readonly TaggedToken[], range: [number, number]): [number, number][] {
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
function firstClauseStart(tokens: readonly TaggedToken[], sentence: AnalysedSentence): number {
  const range = statementRange(sentence);
  return range === null ? 0 : skipOpeners(tokens, range)[0];
}

/**
 * "Quick update from the platform team: the API rate limit is …": words before an early colon that a full
 * clause follows only announce it; the statement starts after the colon. ("Budget: $45,000" keeps its colon key.)
 */
function skipAnnouncer(tokens: readonly TaggedToken[], range: [number, number]): [number, number] {
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
function skipOpeners(tokens: readonly TaggedToken[], range: [number, number]): [number, number] {
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

function clauseStatement(sentence: AnalysedSentence, clause: [number, number], context: StatementContext): Statement | null {
  const tokens = sentence.tokens;
  const fullRange = skipAnnouncer(tokens, skipOpeners(tokens, clause));
  // A correction opener before the clause ("Actually, …") still corrects it.
  let firstStart: number | null = null;
  const inRange = (cue: Cue): boolean =>
    (cue.start >= fullRange[0] || (cue.kind === 'correction' && clause[0] === (firstStart ??= firstClauseStart(tokens, sentence)))) && cue.end <= fullRange[1];
  const cues = sentence.cues.filter(inRange);
  // A keyword cue ("budget", "deadline") sets the kind only when it names the statement's subject (checked below).
  let primary = primaryCue(cues);
  const correction = cues.find((cue) => cue.kind === 'correction' && !cue.weak) ?? cues.find((cue) => cue.kind === 'correction') ?? null;
  const removal = cues.find((cue) => cue.kind === 'removal') ?? null;
  const anchorCue = primary ?? removal ?? correction;
  const firstSpecific = sentence.specifics[0];
  const anchor = anchorCue?.start ?? (firstSpecific === undefined ? 0 : Math.max(0, tokens.findIndex((token) => token.end > firstSpecific.start)));
  const [from, to] = clauseAround(tokens, fullRange, anchor, 30);
  const startOffset = tokens[from]?.start ?? 0;
  const endOffset = tokens[to - 1]?.end ?? 0;
  const specifics = clauseSpecifics(sentence, startOffset, endOffset);

  const subjectEnd = predicateStart(tokens, from, to, primary ?? removal);
  const hasPredicate = hasPredicateIn(tokens, from, to);
  const firstWord = tokens[from]?.lower ?? '';
  const conditional = CONDITIONAL_OPENERS.has(firstWord);
  // The subject starts after any announcing fragment ("One hard rule: we …", "For the backend, we …").
  let subjectStart = from;
  for (let index = subjectEnd - 2; index >= from; index -= 1) {
    const token = tokens[index];
    if (token !== undefined && endsClause(token)) {
      subjectStart = index + 1;
      break;
    }
  }
  const subjectTokens = tokens.slice(subjectStart, subjectEnd);
  const firstPerson = subjectTokens.some((token) => FIRST_PERSON.has(token.lower)) || (subjectEnd === from && FIRST_PERSON.has(firstWord));
  const person = personIn(specifics, startOffset, tokens[subjectEnd]?.start ?? endOffset);
  const personal = firstPerson || person !== null;
  const meaningful = specifics.filter((item) => !(item.type === 'name' && item.entity === 'person' && specifics.length === 1 && item === person && !hasPredicate));

  let kind: FactKind | null = primary === null ? null : factKindOf(primary);
  if (kind === null && isPlainFact(tokens, from, meaningful, personal) && hasPredicate && !conditional) kind = 'fact';
  // "The launch date is May 20", "The kickoff is on Monday": a thing and its date.
  if (kind === null && !conditional && meaningful.length > 0 && COPULAS.has(tokens[subjectEnd]?.lower ?? '') && !isPronounSubject(tokens, subjectStart, subjectEnd)) {
    if (specifics.some((item) => item.start >= (tokens[subjectEnd]?.end ?? 0))) kind = 'fact';
  }
  // "Agreed: TTL 60 seconds on Thursday." — an accepted proposal, stated without a verb.
  const fragment = kind === null && !hasPredicate && agreedBefore(tokens, 0, fullRange[0]) && specifics.some((item) => item.type !== 'name' || item.entity !== 'person');
  if (fragment) kind = 'fact';
  if (kind === null && (correction !== null || removal !== null)) kind = 'fact';
  if (kind === null) return null;
  if (conditional && kind !== 'exception' && kind !== 'constraint') return null;
  // "Update from my GP, Dr. Helen Price." only announces what follows.
  if (!hasPredicateAfter(tokens, from + 1, to) && HEADLINE_NOUNS.has(tokens[from]?.lower ?? '') && HEADLINE_LINKS.has(tokens[from + 1]?.lower ?? '')) return null;
  // "Tomás asked where DNS is going to live" reports a question, it states nothing.
  if (kind !== 'exception' && kind !== 'constraint' && reportsQuestion(tokens, from, to)) return null;

  // --- The key: what the statement is about.
  let key: string | null = null;
  let keySource: KeySource = 'content';
  let valueFrom = subjectEnd;
  let keyIsSubject = false;
  let colon = tokens.findIndex((token, index) => index >= from && index < Math.min(to - 1, from + 7) && /:/u.test(token.trailing));
  // "One hard rule: we must never …" — a full clause after the colon: the words before it only announce it.
  if (colon >= 0 && ['pronoun', 'determiner'].includes(tokens[colon + 1]?.pos ?? '') && hasPredicateIn(tokens, colon + 1, to)) colon = -1;
  let objectPhrase = firstPhraseAfter(tokens, Math.max(subjectEnd, primary?.end ?? removal?.end ?? subjectEnd), to);
  // "Use British spelling for everything", "sign off with … from now on": the cue closes the instruction.
  if (primary !== null && LASTING_CUES.has(primary.phrase) && primary.start > subjectEnd) {
    objectPhrase = firstPhraseAfter(tokens, subjectEnd, primary.start) ?? objectPhrase;
  }
  // "10 GB of storage": the measured thing, not the unit.
  if (objectPhrase !== null && tokens[objectPhrase.start]?.hasDigit === true && tokens[objectPhrase.end]?.lower === 'of') {
    objectPhrase = firstPhraseAfter(tokens, objectPhrase.end + 1, to) ?? objectPhrase;
  }
  const category = categoryOfPhrase(tokens, objectPhrase);
  const keyword = cues.find((cue) => cue.keyword);

  // Where the clause starts after words that only announce it ("Update from this morning: …").
  let announcer = -1;
  if (colon >= 0) {
    key = announcedKey(tokens, from, colon + 1);
    if (key !== null) {
      valueFrom = colon + 1;
      keyIsSubject = true;
      keySource = 'subject';
    } else {
      announcer = colon + 1;
    }
  }
  if (key === null && keyword !== undefined) {
    // "Our budget is …", "a budget of …", "Deadline: …" — not "With a $45,000 budget, I suggest …".
    const phrase = phraseAt(tokens, keyword.start);
    const after = phrase === null ? undefined : tokens[phrase.end];
    const inSubject = phrase !== null && phrase.end <= subjectEnd && tokens[from]?.pos !== 'preposition';
    if (phrase !== null && (inSubject || after?.pos === 'copula' || after?.lower === 'of')) {
      key = keyFromPhrase(tokens, phrase) ?? keyword.phrase;
      keySource = 'keyword';
      if (inSubject) keyIsSubject = true;
    } else if (primary === keyword) {
      // "With a $45,000 budget, I suggest …" is not a statement about the budget.
      primary = primaryCue(cues.filter((cue) => !cue.keyword));
      kind = primary === null ? (isPlainFact(tokens, from, meaningful, personal) && hasPredicate && !conditional ? 'fact' : null) : factKindOf(primary);
      if (kind === null) return null;
    }
  }
  if (key === null && primary !== null && /^(?:allergic|intolerant)/u.test(primary.phrase)) {
    const phrase = firstPhraseAfter(tokens, primary.end, to);
    const what = phrase === null ? null : keyFromPhrase(tokens, phrase, 2);
    key = what === null ? 'allergy' : `${what} ${primary.phrase.startsWith('allergic') ? 'allergy' : 'intolerance'}`;
    keySource = 'object';
  }
  // "Our CFO, Martin de Vries, has to sign off …": the role names the fact.
  const role = key === null ? roleIn(tokens, from, subjectEnd) : null;
  if (role !== null && person !== null) {
    key = role;
    keySource = 'subject';
    keyIsSubject = true;
  }
  const subjectPhrase = nounPhrases(tokens, subjectStart, subjectEnd).at(-1) ?? null;
  const subjectIsPerson = subjectPhrase !== null && person !== null && (tokens[subjectPhrase.start]?.start ?? -1) === person.start && subjectPhrase.end - subjectPhrase.start === 1;
  if (key === null && subjectPhrase !== null && !subjectIsPerson && !isPronounSubject(tokens, subjectStart, subjectEnd)) {
    const subjectKey = keyFromPhrase(tokens, subjectPhrase);
    // "The budget is …", "Region should be …": the subject is what the statement is about.
    const modalBe = tokens[subjectEnd]?.pos === 'modal' && tokens[subjectEnd + 1]?.lower === 'be';
    const copula = tokens[subjectEnd]?.pos === 'copula' || modalBe;
    // "My daughter Emma turned 7", "Caroline's kids are 5 and 7": the possessed thing names the fact.
    const possessed = subjectTokens.some((token) => token.lower === 'my' || token.lower === 'our' || /'s$/u.test(token.lower));
    if (subjectKey !== null && (copula || kind !== 'fact' || possessed || isCategoryName(subjectKey))) {
      key = subjectKey;
      keySource = 'subject';
      keyIsSubject = true;
      if (copula) valueFrom = subjectEnd + (modalBe ? 2 : 1);
    }
  }
  if (key === null && fragment) {
    const phrase = firstPhraseAfter(tokens, from, to);
    key = phrase === null ? null : keyFromPhrase(tokens, phrase);
    keySource = 'subject';
  }
  if (key === null && category !== null && kind !== 'exception') {
    key = category;
    keySource = 'category';
  }
  if (key === null && objectPhrase !== null) {
    const objectKey = keyFromPhrase(tokens, objectPhrase);
    if (objectKey !== null) {
      // Goals name the activity ("learn spanish"), not just its object.
      const verb = tokens[objectPhrase.start - 1];
      key = kind === 'goal' && verb?.pos === 'verb' && !verb.past ? `${verb.lower} ${objectKey}`.split(' ').slice(0, 3).join(' ') : objectKey;
      keySource = 'object';
    }
  }
  if (key === null && anchorCue !== null) {
    // "I love hiking": the activity right after the cue.
    const next = tokens[anchorCue.end];
    if (next !== undefined && next.pos === 'verb' && /ing$/u.test(next.lower)) {
      key = next.lower;
      keySource = 'object';
    }
  }
  // "We want to be done by March 15", "we're live by 1 March": a deadline.
  if (key === null && completionDeadline(tokens, from, to, specifics)) {
    key = 'deadline';
    keySource = 'keyword';
  }
  key ??= contentKey(tokens, Math.max(from, anchorCue?.end ?? subjectEnd), to) ?? contentKey(tokens, from, to);
  const keyless = key === null;
  if (key === null) {
    if (correction === null && removal === null) return null;
    key = 'correction';
  }

  const speakerPrefix = context.speaker === null ? null : context.speaker.toLowerCase().split(/\s+/u)[0] ?? null;
  const thirdPerson = subjectTokens.some((token) => /^(?:he|she|his|her|he's|she's)$/u.test(token.lower));
  const personName = person?.text ?? (thirdPerson ? (context.lastPerson?.name ?? null) : null);
  const personPrefix = personName === null ? null : personName.toLowerCase().split(/\s+/u)[0] ?? null;
  const singularFirstPerson = [...subjectTokens, tokens[from]].some((token) => token !== undefined && /^(?:i|my|me|i'm|i've|i'd|i'll)$/u.test(token.lower));
  // People are told apart in keys about them ("caroline support group", "melanie daughter"), not in keys
  // that name a thing of the task ("budget", "database").
  const possessive = subjectTokens.some((token) => token.lower === 'my' || (token.entity === 'person' && /'s$/u.test(token.lower)));
  if (keySource === 'object' || keySource === 'content' || (keySource === 'subject' && possessive)) {
    const mine = subjectTokens.some((token) => token.lower === 'my');
    const prefix = (mine ? speakerPrefix : null) ?? personPrefix ?? (singularFirstPerson && kind !== 'exception' && kind !== 'constraint' ? speakerPrefix : null);
    // With a person in front, the thing keeps its last two words ("caroline support group").
    if (prefix !== null) key = joinKey(prefix, key.split(' ').slice(-2).join(' '));
  }
  key = key.replace(/\s+/gu, ' ').trim();
  if (key === '' || GENERIC_NOUNS.has(key)) return null;

  // --- The value: the predicate, verbatim; the subject stays when it is neither the key nor a pronoun.
  const subjectIsKeyOrPronoun = keyIsSubject || isPronounSubject(tokens, subjectStart, subjectEnd) || subjectIsPerson;
  // A subject holding a value of its own stays in the line ("A downtime of up to 2 hours is fine …").
  const subjectOffsets: [number, number] = [tokens[subjectStart]?.start ?? 0, tokens[subjectEnd - 1]?.end ?? 0];
  const subjectHoldsValue = keySource === 'subject' && colon < 0 && specifics.some((item) => item.start >= subjectOffsets[0] && item.end <= subjectOffsets[1] && item.entity !== 'person');
  let valueStart = subjectIsKeyOrPronoun && !subjectHoldsValue ? valueFrom : subjectHoldsValue ? subjectStart : from;
  // Words that only announce ("Looking further ahead: …") or name the key ("Budget: …") are no part of the value.
  if (announcer > valueStart && announcer < to) valueStart = announcer;
  if (colon >= 0 && valueStart <= colon && colon + 1 < to) valueStart = colon + 1;
  // "budget: $45,000", not "budget: is $45,000".
  if (keyIsSubject && tokens[valueStart]?.pos === 'copula' && valueStart + 1 < to) valueStart += 1;
  if (valueStart >= to) valueStart = from;
  let value = trimValue(sliceTokens(sentence.text, tokens, valueStart, to - 1), context.maxValueWords);
  if (correction !== null || removal !== null) value = value.replace(CORRECTION_OPENERS, '').trim() || value;
  if (value === '') return null;
  const predicateValue = valueStart !== from || keyIsSubject;
  const oldFrom = colon >= 0 ? (tokens[colon + 1]?.start ?? startOffset) : startOffset;
  const diffFields = context.forDiff !== false;
  // The value must say something; a correction or removal may still act on a fact it names.
  const informative =
    isInformative(tokens, Math.max(valueStart, subjectEnd > valueStart && subjectEnd < to ? subjectEnd : valueStart), to, specifics) ||
    (subjectHoldsValue && isInformative(tokens, subjectStart, subjectEnd, specifics));

  return {
    kind,
    key,
    value,
    messageId: context.messageId,
    sentence,
    cue: primary,
    correction,
    removal,
    personal: personal || personName !== null,
    specifics,
    category,
    keyless,
    keySource,
    predicateValue,
    object: objectPhrase === null ? null : keyFromPhrase(tokens, objectPhrase, 4),
    weight: KIND_WEIGHT[kind] + Math.min(2, specifics.length * 0.5) + (correction !== null ? 1 : 0),
    informative,
    // Only a statement that may change the document needs these (a question or a condition sets nothing aside).
    oldValues: !diffFields || sentence.question || hypothetical(tokens, from, to) ? [] : oldValuesIn(sentence, oldFrom, endOffset, specifics),
    pronounSubject: isPronounSubject(tokens, subjectStart, subjectEnd),
    agreed: fragment,
    range: [from, to],
    clauseText: diffFields ? trimValue(sliceTokens(sentence.text, tokens, Math.max(subjectStart, announcer), to - 1), context.maxValueWords).replace(CORRECTION_OPENERS, '') : '',
  };
}

const ANAPHORS = new Set(['that', 'this', 'it', 'which', "that's", "it's"]);

/**
 * A rule whose subject points back at the clause before ("…, and that has to stay exactly as it is")
 * becomes a rule about that clause: its key, both clauses as the value, the rule's kind.
 */
function mergeAnaphoric(sentence: AnalysedSentence, previous: Statement, current: Statement, maxWords: number): Statement | null {
  if (current.kind === 'fact' || previous.range[1] > current.range[0]) return null;
  const first = sentence.tokens[current.range[0]];
  const second = sentence.tokens[current.range[0] + 1];
  const subject = first !== undefined && CLAUSE_CONJUNCTIONS.has(first.lower) ? second : first;
  if (subject === undefined || !ANAPHORS.has(subject.lower)) return null;
  const start = sentence.text.indexOf(previous.value);
  const end = sentence.tokens[current.range[1] - 1]?.end ?? sentence.text.length;
  if (start < 0 || end <= start) return null;
  const value = trimValue(sentence.text.slice(start, end), maxWords);
  return {
    ...previous,
    kind: current.kind,
    cue: current.cue,
    value,
    range: [previous.range[0], current.range[1]],
    weight: Math.max(previous.weight, current.weight),
    informative: true,
  };
}

const HEADLINE_NOUNS = new Set(['update', 'news', 'question', 'note', 'reminder', 'message', 'word', 'email', 'feedback', 'results', 'result']);
const HEADLINE_LINKS = new Set(['from', 'on', 'about', 'regarding', 're']);

function hasPredicateAfter(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  return hasPredicateIn(tokens, from, to);
}

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

function hypothetical(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const lower = tokens[index]?.lower ?? '';
    if (lower === 'if' || lower === 'whether' || lower === 'unless') return true;
  }
  return false;
}

const COMPLETION_WORDS = new Set(['done', 'ready', 'live', 'finished', 'complete', 'completed', 'shipped', 'launched', 'delivered', 'wrapped', 'submitted']);

/** "done by March 15", "live by 1 March", "ready before Friday": a deadline. */
function completionDeadline(tokens: readonly TaggedToken[], from: number, to: number, specifics: readonly Specific[]): boolean {
  for (let index = from; index + 2 < to + 1; index += 1) {
    if (!COMPLETION_WORDS.has(tokens[index]?.lower ?? '')) continue;
    const link = tokens[index + 1]?.lower ?? '';
    if (link !== 'by' && link !== 'before' && link !== 'until') continue;
    const at = tokens[index + 2]?.start ?? -1;
    if (specifics.some((item) => item.type === 'date' && item.start === at)) return true;
  }
  return false;
}

const AGREEMENT_WORDS = new Set(['agreed', 'agree', 'sense', 'deal', 'decided', 'decision', 'confirmed', 'fine', 'ok', 'okay', 'perfect', 'good', 'great', 'sure', 'yes', 'yep', 'settled', 'final']);

/** Whether the words skipped before the clause accept something ("Agreed:", "Makes sense,", "OK then,"). */
function agreedBefore(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) if (AGREEMENT_WORDS.has(tokens[index]?.lower ?? '')) return true;
  return false;
}
