/**
 * Statements: the fact lines a sentence can contribute to the base-truth document, as
 * `key: value` where the key names what the line is about and the value is a clause copied
 * verbatim from the sentence (so its numbers, names and negations survive and grounding passes).
 */
import type { FactKind } from '../../core/types.js';
import type { AnalysedSentence } from './analysis.js';
import { categoryOf, isCategoryName } from './categories.js';
import { primaryCue } from './cues.js';
import type { Cue } from './cues.js';
import type { Specific } from './entities.js';
import { FIRST_PERSON, GENERIC_NOUNS, QUESTION_OPENERS, QUESTION_WORDS, SMALL_TALK_WORDS } from './function-words.js';
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
function isPlainFact(tokens: readonly TaggedToken[], from: number, specifics: readonly Specific[], personal: boolean): boolean {
  if (specifics.length === 0) return false;
  const opening = tokens.slice(from, from + 3).map((token) => token.lower).join(' ');
  if (META_OPENERS.test(opening)) return false;
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

function categoryOfPhrase(tokens: readonly TaggedToken[], phrase: NounPhrase | null): string | null {
  if (phrase === null) return null;
  for (let index = phrase.start; index < phrase.end; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (token.capitalised || /\p{Lu}/u.test(token.text)) {
      const category = categoryOf(token.text);
      if (category !== null) return category;
    }
  }
  return null;
}

function trimValue(text: string, maxWords: number): string {
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
    const statement = clauseStatement(sentence, clause, context);
    if (statement !== null) statements.push(statement);
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

const CLAUSE_CONJUNCTIONS = new Set(['and', 'but', 'while', 'whereas', 'although', 'though', 'so', 'plus', 'yet']);
const SUBJECT_POS = new Set(['pronoun', 'determiner', 'noun', 'proper']);
const BARE_PREDICATE_POS = new Set(['modal', 'auxiliary', 'negation']);

function hasPredicateIn(tokens: readonly TaggedToken[], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    if (PREDICATE_POS.has(token.pos) || /'(?:m|re|s|ve|d|ll)$/u.test(token.lower)) return true;
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
  const fullRange = skipOpeners(tokens, clause);
  // A correction opener before the clause ("Actually, …") still corrects it.
  const inRange = (cue: Cue): boolean =>
    (cue.start >= fullRange[0] || (cue.kind === 'correction' && clause[0] === firstClauseStart(tokens, sentence))) && cue.end <= fullRange[1];
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
  const specifics = sentence.specifics.filter((item) => item.start >= startOffset && item.end <= endOffset);

  const subjectEnd = predicateStart(tokens, from, to, primary ?? removal);
  const hasPredicate = tokens.slice(from, to).some((token) => PREDICATE_POS.has(token.pos) || /'(?:m|re|s|ve|d|ll)$/u.test(token.lower));
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
  if (kind === null && (correction !== null || removal !== null)) kind = 'fact';
  if (kind === null) return null;
  if (conditional && kind !== 'exception' && kind !== 'constraint') return null;

  // --- The key: what the statement is about.
  let key: string | null = null;
  let keySource: KeySource = 'content';
  let valueFrom = subjectEnd;
  let keyIsSubject = false;
  let colon = tokens.findIndex((token, index) => index >= from && index < Math.min(to - 1, from + 4) && /:/u.test(token.trailing));
  // "One hard rule: we must never …" — a full clause after the colon: the words before it only announce it.
  if (colon >= 0 && ['pronoun', 'determiner'].includes(tokens[colon + 1]?.pos ?? '') && hasPredicateIn(tokens, colon + 1, to)) colon = -1;
  let objectPhrase = firstPhraseAfter(tokens, Math.max(subjectEnd, primary?.end ?? removal?.end ?? subjectEnd), to);
  // "10 GB of storage": the measured thing, not the unit.
  if (objectPhrase !== null && tokens[objectPhrase.start]?.hasDigit === true && tokens[objectPhrase.end]?.lower === 'of') {
    objectPhrase = firstPhraseAfter(tokens, objectPhrase.end + 1, to) ?? objectPhrase;
  }
  const category = categoryOfPhrase(tokens, objectPhrase);
  const keyword = cues.find((cue) => cue.keyword);

  if (colon >= 0) {
    key = keyFromTokens(tokens, from, colon + 1, 4);
    valueFrom = colon + 1;
    keyIsSubject = true;
    keySource = 'subject';
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
  const subjectPhrase = nounPhrases(tokens, subjectStart, subjectEnd).at(-1) ?? null;
  const subjectIsPerson = subjectPhrase !== null && person !== null && (tokens[subjectPhrase.start]?.start ?? -1) === person.start && subjectPhrase.end - subjectPhrase.start === 1;
  if (key === null && subjectPhrase !== null && !subjectIsPerson && !isPronounSubject(tokens, subjectStart, subjectEnd)) {
    const subjectKey = keyFromPhrase(tokens, subjectPhrase);
    const copula = tokens[subjectEnd]?.pos === 'copula';
    // "My daughter Emma turned 7", "Caroline's kids are 5 and 7": the possessed thing names the fact.
    const possessed = subjectTokens.some((token) => token.lower === 'my' || token.lower === 'our' || /'s$/u.test(token.lower));
    if (subjectKey !== null && (copula || kind !== 'fact' || possessed || isCategoryName(subjectKey))) {
      key = subjectKey;
      keySource = 'subject';
      keyIsSubject = true;
      if (copula) valueFrom = subjectEnd + 1;
    }
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
  let valueStart = subjectIsKeyOrPronoun ? valueFrom : from;
  // "budget: $45,000", not "budget: is $45,000".
  if (keyIsSubject && tokens[valueStart]?.pos === 'copula' && valueStart + 1 < to) valueStart += 1;
  if (valueStart >= to) valueStart = from;
  let value = trimValue(sliceTokens(sentence.text, tokens, valueStart, to - 1), context.maxValueWords);
  if (correction !== null || removal !== null) value = value.replace(CORRECTION_OPENERS, '').trim() || value;
  if (value === '') return null;
  const predicateValue = valueStart !== from || keyIsSubject;

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
  };
}

/** The fact line of a statement. */
export function statementText(key: string, value: string): string {
  return `${key}: ${value}`;
}
