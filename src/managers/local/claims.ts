/**
 * Claims: what a message says that the base truth may keep, one per clause. A claim has an act (a
 * rule, a decision, a fact, a removal …), a subject that becomes its key, the values it states and
 * the old values it sets aside ("54 now, not 60"), and the line it would write: the clause verbatim,
 * relative dates followed by the day they resolve to ("next Thursday (16 April 2026)").
 */
import type { FactKind } from '../../core/types.js';
import type { AnalysedMessage, AnalysedSentence } from './analysis.js';
import { noteNamedPeople, withNamedPeople } from './appositives.js';
import { claimKey, quotedTerms } from './claim-key.js';
import { headsNext } from './claim-headings.js';
import { skipOpeners, subjectOf, type Discourse, type Subject } from './claim-subject.js';
import { clauseText, isClockTime, lineValue, setAside, tidy } from './claim-values.js';
import { clauseAct, tellsEvent, type ClauseAct } from './clause-acts.js';
import { clauseSpans, hasPredicate, type Span } from './clauses.js';
import { primaryCue, type Cue } from './cues.js';
import { META_NOUNS, ROLE_NOUNS, STOP_WORDS } from './function-words.js';
import type { Specific } from './specifics.js';
import { classOfSpecific, PEOPLE_NOUNS, type ValueClass } from './value-classes.js';
import { banFor, EMPHATIC_REFUSAL, firmBan, namedBefore, REFUSED_RULE, RULE_HEADING } from './stated-rules.js';

export interface Claim {
  act: ClauseAct;
  /** The kind of fact line it makes. */
  kind: FactKind;
  /** What the claim is about, lower-case; null when nothing could be named. */
  key: string | null;
  /** The line's value: the clause, verbatim, relative dates resolved. */
  value: string;
  messageId: string;
  /** When the message was sent, when known. */
  sentAt: string | null;
  sentence: AnalysedSentence;
  span: Span;
  /** The values the claim states (not a person's name alone, not a time of day, not the old values). */
  values: Specific[];
  /** The values that are not part of the key ("the Hetzner box" is what a claim is about, not a value of it). */
  telling: Specific[];
  /** The classes of `telling`, in order. */
  classes: ValueClass[];
  /** Values the clause sets aside as no longer true. */
  oldValues: Specific[];
  /** A correction cue ("now", "instead", "changed to", "not X") marks the claim as a change. */
  correction: boolean;
  /** It names something that changed without the new value ("The deadline moved again"): a later clause gives it. */
  opens: boolean;
  /** The subject is a pronoun taken from the discourse. */
  pronoun: boolean;
  /** The clause tells a past event ("Marta ate two croissants"), not a state or a decision. */
  event: boolean;
  /** The speaker speaks of themself ("I adopted a puppy", "my daughter …"). */
  personal: boolean;
  /** How much the claim matters when a turn proposes more lines than it may. */
  weight: number;
  /** The sentence before the claim's in its message ('' for the first): what a bare change ("our new slot is next Tuesday") may be about. */
  context?: string;
}

/** A message's claims, and every specific it mentions (in order), for corrections that point back at one. */
export interface MessageClaims {
  claims: Claim[];
  mentioned: Specific[];
}

const KIND_OF_ACT: Partial<Record<ClauseAct, FactKind>> = {
  rule: 'exception',
  constraint: 'constraint',
  goal: 'goal',
  preference: 'preference',
  decision: 'fact',
  fact: 'fact',
  removal: 'fact',
};

const WEIGHT_OF_KIND: Readonly<Record<FactKind, number>> = { exception: 6, constraint: 5, goal: 3, preference: 3, fact: 2 };

const ACT_STRENGTH: Readonly<Record<ClauseAct, number>> = {
  rule: 6, constraint: 5, removal: 4, decision: 4, goal: 3, preference: 3, fact: 2, proposal: 1, question: 0, request: 0, chatter: 0,
};

/** "Same with PayPal", "same goes for naproxen": the rule before holds for this too. */
const SAME_WITH = /^(?:and\s+)?(?:the\s+)?same\s+(?:with|for|goes\s+for|applies\s+to)\s+/iu;

/** Change words that name a change without a value ("The deadline moved again"). */
const CHANGE_WORDS = new Set(['moved', 'changed', 'shifted', 'slipped', 'slid', 'pushed', 'postponed', 'rescheduled', 'delayed', 'crept', 'climbed', 'grown', 'shrunk']);

/** "Quartz counters everywhere, island included.": a sentence without a verb that names a choice. */
function isStatedChoice(sentence: AnalysedSentence): boolean {
  const tokens = sentence.tokens;
  if (tokens.length < 3 || sentence.question || hasPredicate(tokens, 0, tokens.length)) return false;
  const nouns = tokens.filter((token) => token.pos === 'noun' || token.pos === 'proper');
  if (nouns.some((token) => META_NOUNS.has(token.lower))) return false;
  return nouns.length >= 2 && !tokens.some((token) => token.pos === 'pronoun');
}

/** The cues of the clause `from`..`to`. */
function cuesIn(sentence: AnalysedSentence, from: number, to: number, sentenceStart: boolean): Cue[] {
  // A correction opener before the first clause ("Actually, …") still corrects it.
  return sentence.cues.filter((cue) => (cue.start >= from || (sentenceStart && cue.kind === 'correction')) && cue.end <= to);
}

/** The word after a specific, for counts ("12 guests"). */
function wordAfter(sentence: AnalysedSentence, item: Specific): string {
  const index = sentence.tokens.findIndex((token) => token.start >= item.end);
  return index < 0 ? '' : (sentence.tokens[index]?.lower ?? '');
}

export interface ClaimOptions {
  /** Longest line value, in words. */
  maxValueWords: number;
}

/** What reading one message keeps between clauses. */
interface Reading {
  message: AnalysedMessage;
  options: ClaimOptions;
  discourse: Discourse;
  claims: Claim[];
  /** How often the message has quoted each term so far. */
  quotes: Map<string, number>;
  /** The conversation is between named people: what happened to them is what it is about. */
  people: boolean;
}

/** The claims of one message, clause by clause, in order. Questions, requests and chatter make none. */
export function messageClaims(message: AnalysedMessage, options: ClaimOptions): MessageClaims {
  const reading: Reading = { message, options, discourse: { topic: null, person: null, label: null }, claims: [], quotes: new Map(), people: message.message.speaker !== null };
  for (const sentence of message.sentences) {
    if (sentence.smallTalk || sentence.tokens.length === 0) continue;
    noteNamedPeople(sentence, reading.discourse);
    const spans = clauseSpans(sentence.tokens, 0, sentence.tokens.length, sentence.text);
    // A label heads clauses of its own sentence only.
    reading.discourse.label = null;
    spans.forEach((span, index) => readClause(reading, sentence, span, { first: index === 0, last: index === spans.length - 1, alone: spans.length === 1 }));
    // The term the message quotes most (the last on a tie) is the one "that word" points back at.
    for (const term of quotedTerms(sentence.text)) reading.quotes.set(term, (reading.quotes.get(term) ?? 0) + 1);
    let best: string | null = null;
    for (const [term, count] of reading.quotes) if (best === null || count >= (reading.quotes.get(best) ?? 0)) best = term;
    reading.discourse.quoted = best;
  }
  for (const claim of reading.claims) {
    const index = message.sentences.indexOf(claim.sentence);
    claim.context = index > 0 ? (message.sentences[index - 1]?.text ?? '') : '';
  }
  return { claims: reading.claims, mentioned: message.sentences.flatMap((sentence) => sentence.specifics) };
}

/** Where a clause stands in its sentence. */
interface Place {
  first: boolean;
  last: boolean;
  alone: boolean;
}

/** The words of a clause a claim is read from, after its openers, and what they hold. */
interface ClauseWords {
  sentence: AnalysedSentence;
  span: Span;
  /** Where the clause's own words start, after openers ("And", "Oh,"). */
  from: number;
  startOffset: number;
  endOffset: number;
  specifics: Specific[];
  cues: Cue[];
  /** The specifics that may be values: no time of day, and a person's name only between people or with a role. */
  valued: Specific[];
}

/** How a clause reads: what it does, the kind of line it makes, what it is about. */
interface ClauseSense {
  act: ClauseAct;
  kind: FactKind;
  subject: Subject;
  /** It names something that changed without the new value ("The deadline moved again"). */
  changeOnly: boolean;
  /** A correction cue marks it ("now", "instead", "changed to"). */
  correcting: boolean;
}

/**
 * Reads one clause into the claims: it may head the next clause, apply or spell out the rule before,
 * extend the claim before, state a claim of its own, or state nothing.
 */
function readClause(reading: Reading, sentence: AnalysedSentence, span: Span, place: Place): void {
  const { discourse, claims, options } = reading;
  const tokens = sentence.tokens;
  if (headsNext(discourse, sentence, span, place.last)) return;
  const clause = clauseWords(reading, sentence, span, place.first);
  const { from, cues, valued } = clause;
  const previous = claims.at(-1);
  const text = sentence.text.slice(clause.startOffset, clause.endOffset);
  // "Same with PayPal." after a rule: the rule again, for that.
  if (SAME_WITH.test(text) && previous?.act === 'rule') {
    const subject = subjectOf(sentence, [from + 2, span[1]], 'fact', null, discourse);
    if (subject.key !== null) claims.push({ ...previous, key: subject.key, value: tidy(`${text}: ${previous.value}`, options.maxValueWords), sentence, span });
    return;
  }
  let act = clauseAct({ sentence, span: [from, span[1]], cues, hasValue: valued.length > 0, people: reading.people });
  // "Can we go to 2,400 instead of 2,600?": a change asked for, which the reply may accept (see
  // `acceptedProposals`); until then it changes nothing.
  if (act === 'question' && valued.length > 0 && cues.some((item) => item.kind === 'correction')) {
    const subject = subjectOf(sentence, span, 'fact', primaryCue(cues), discourse);
    const asked = statedClaim(reading, clause, { act: 'proposal', kind: 'fact', subject, changeOnly: false, correcting: true });
    if (asked !== null) claims.push(asked);
    return;
  }
  // "No walnut cabinets, no walnut butcher block …" right after a rule spells the rule out.
  if (previous?.act === 'rule' && ['no', 'not', 'nothing', 'none'].includes(tokens[from]?.lower ?? '') && act !== 'question' && act !== 'removal') {
    previous.value = spelledOutRule(previous, clause, options.maxValueWords);
    return;
  }
  // "Direct flight for Pepper, no layovers. Not via Dubai, not via Frankfurt, nowhere.": a list of what is
  // refused, closed by "nowhere" or "nothing", makes the sentence before it a rule it spells out.
  const refused = act !== 'question' && EMPHATIC_REFUSAL.test(text) ? ruleBefore(reading, sentence, clause) : null;
  if (refused !== null) {
    claims.push(refused);
    return;
  }
  if (act === 'chatter' && place.alone && isStatedChoice(sentence)) act = 'fact';
  // "One more rule from the guidelines page: they don't want outcome promises": what a heading calls a rule is one.
  if (RULE_HEADING.test(sentence.text.slice(0, clause.startOffset)) && ['preference', 'goal', 'fact', 'constraint'].includes(act)) act = 'rule';
  // "Dr. Kulkarni was very firm: no sedatives": a ban said after the words that call it firm is a rule about what it bans.
  const firm = act === 'fact' ? firmBan(tokens, from, span[1]) : -1;
  if (firm >= 0) act = 'rule';
  // "Another quick question about tiles, number 8": talk about the talk, whatever number it carries.
  if (act === 'fact' && !hasPredicate(tokens, from, span[1]) && tokens.slice(from, span[1]).some((token) => META_NOUNS.has(token.lower) && token.pos !== 'proper')) return;
  // (A removal said first is read around what removes: 'So "guarantee" is out, and so is anything like "will
  // ensure …"'; "Dana doesn't want exceptions … anymore" is read around what she doesn't want.)
  const primary = primaryCue(cues);
  const removing = act === 'removal' ? cues.find((item) => item.kind === 'removal' && (primary === null || item.start < primary.start)) : undefined;
  const cue = removing ?? primary ?? cues.find((item) => item.kind === 'removal') ?? null;
  // Every clause keeps the discourse up to date, so later pronouns find what they point back to.
  const read = subjectOf(sentence, firm >= 0 ? [firm, span[1]] : span, act, cue, discourse);
  // (The ban keeps its "no", and names whom it is for when the sentence named them before the clause:
  // "I took Pepper in … and Dr. Kulkarni was very firm: no sedatives" reads "pepper sedatives: no sedatives".)
  const owner = firm >= 0 ? (banFor(text) ?? namedBefore(sentence, clause.startOffset)) : null;
  const subject = firm >= 0 ? { ...read, key: owner === null || read.key === null ? read.key : `${owner} ${read.key}`, valueFrom: firm } : read;
  const changeOnly = act === 'chatter' && !subject.pronoun && subject.key !== null && tokens.slice(from, span[1]).some((token) => CHANGE_WORDS.has(token.lower));
  const kind = changeOnly ? 'fact' : KIND_OF_ACT[act];
  if (kind === undefined) return;
  // "Induction, 30-inch, that's the plan": a clause pointing back at the one before it in the sentence extends it.
  if (subject.pronoun && previous !== undefined && previous.sentence === sentence && previous.span[1] === span[0]) {
    claims[claims.length - 1] = extendedClaim(previous, clause, act, kind, options.maxValueWords);
    return;
  }
  const correcting = cues.some((item) => item.kind === 'correction');
  // A correction that names nothing ("Actually, make that $45k.") may still change the fact it points at.
  if (subject.pronoun && subject.key === null && !(correcting && valued.length > 0)) return;
  // Without a verb, a clause states something only as "thing value" ("Warfarin 3 mg") or under a label:
  // "Eighteen months later", "Every morning at Fernwood Elementary" state nothing.
  if (act === 'fact' && subject.attribute !== true && !hasPredicate(tokens, from, span[1]) && !(place.alone && isStatedChoice(sentence)) && !correcting) return;
  // A noun phrase with nothing after it ("And Casa Nueva Construction,"): it heads the next clause.
  const valueStart = tokens[subject.valueFrom]?.start ?? clause.endOffset;
  if (act === 'fact' && !hasPredicate(tokens, span[0], span[1]) && !valued.some((item) => item.start >= valueStart) && subject.key !== null && !place.alone) {
    if (!place.last) discourse.label = subject.key;
    return;
  }
  const claim = statedClaim(reading, clause, { act, kind, subject, changeOnly, correcting });
  if (claim !== null) claims.push(claim);
}

/** The words of the clause `span` and what they hold (see `ClauseWords`). */
function clauseWords(reading: Reading, sentence: AnalysedSentence, span: Span, first: boolean): ClauseWords {
  const tokens = sentence.tokens;
  const from = skipOpeners(tokens, span);
  const startOffset = tokens[from]?.start ?? 0;
  const endOffset = tokens[span[1] - 1]?.end ?? 0;
  const specifics = sentence.specifics.filter((item) => item.start >= startOffset && item.end <= endOffset);
  const valued = specifics.filter((item) => (reading.people || item.type !== 'name' || item.entity !== 'person' || hasRole(tokens, from, span[1])) && !isClockTime(sentence, item));
  return { sentence, span, from, startOffset, endOffset, specifics, cues: cuesIn(sentence, span[0], span[1], first), valued };
}

/** Where a claim's own words start in its sentence, after openers. */
function ownStart(claim: Claim): number {
  return Math.max(claim.span[0], skipOpeners(claim.sentence.tokens, claim.span));
}

/**
 * The sentence before a refusal list, read as the rule the list spells out, or null when it made a claim
 * of its own or names nothing.
 */
function ruleBefore(reading: Reading, sentence: AnalysedSentence, clause: ClauseWords): Claim | null {
  const sentences = reading.message.sentences;
  const before = sentences[sentences.indexOf(sentence) - 1];
  if (before === undefined || before.question || !REFUSED_RULE.test(before.text) || reading.claims.some((claim) => claim.sentence === before)) return null;
  const span: Span = [0, before.tokens.length];
  const subject = subjectOf(before, span, 'rule', null, reading.discourse);
  if (subject.key === null) return null;
  const stated = statedClaim(reading, clauseWords(reading, before, span, true), { act: 'rule', kind: 'exception', subject: { ...subject, valueFrom: 0 }, changeOnly: false, correcting: false });
  return stated === null ? null : { ...stated, value: spelledOutRule(stated, clause, reading.options.maxValueWords) };
}

/** The rule's value with the clause that spells it out ("No walnut cabinets, no walnut butcher block …"). */
function spelledOutRule(rule: Claim, clause: ClauseWords, maxWords: number): string {
  const { sentence, span } = clause;
  return rule.sentence === sentence
    ? clauseText(sentence, ownStart(rule), span[1], maxWords)
    : tidy(`${rule.value}; ${clauseText(sentence, clause.from, span[1], maxWords)}`, maxWords + 6);
}

/** The claim before, extended by a clause of the same sentence that points back at it ("Induction, 30-inch, that's the plan"). */
function extendedClaim(previous: Claim, clause: ClauseWords, act: ClauseAct, kind: FactKind, maxWords: number): Claim {
  const { sentence, span, cues } = clause;
  const stronger = ACT_STRENGTH[act] > ACT_STRENGTH[previous.act];
  const setAsideHere = setAside(sentence, clause.startOffset, clause.endOffset, clause.specifics);
  const fresh = clause.valued.filter((item) => !setAsideHere.includes(item));
  return {
    ...previous,
    act: stronger ? act : previous.act,
    kind: stronger ? kind : previous.kind,
    value: clauseText(sentence, ownStart(previous), span[1], maxWords),
    span: [previous.span[0], span[1]],
    values: [...previous.values, ...fresh],
    telling: [...previous.telling, ...fresh],
    classes: [...previous.classes, ...fresh.map((item) => classOfSpecific(item, wordAfter(sentence, item)))],
    oldValues: [...previous.oldValues, ...setAsideHere],
    correction: previous.correction || setAsideHere.length > 0 || cues.some((item) => item.kind === 'correction'),
    // "The workshop moved, it's now on 10 March": the change named first gets its value here.
    opens: previous.opens && fresh.length === 0,
    weight: Math.max(previous.weight, WEIGHT_OF_KIND[kind]),
  };
}

/** The claim the clause states; null when nothing is left of its value. */
function statedClaim(reading: Reading, clause: ClauseWords, sense: ClauseSense): Claim | null {
  const { sentence, span, from, cues } = clause;
  const { act, kind, subject } = sense;
  const tokens = sentence.tokens;
  const { message } = reading.message;
  const oldValues = setAside(sentence, clause.startOffset, clause.endOffset, clause.specifics);
  const values = clause.valued.filter((item) => !oldValues.includes(item));
  const key = claimKey({ sentence, from, to: span[1], subject, speaker: message.speaker, cues, people: reading.people, discourse: reading.discourse });
  // A name that is part of the key ("the Hetzner box") is what the claim is about, not its value.
  const keyWords = new Set((key ?? '').split(' '));
  const telling = values.filter((item) => item.type !== 'name' || !item.text.toLowerCase().split(/\s+/u).every((word) => keyWords.has(word)));
  const correction = sense.correcting || oldValues.length > 0;
  // "Our budget is $45,000": a value of a limit the task sets ("budget", "deadline") is a requirement.
  const limit = act === 'fact' && key !== null && cues.some((item) => item.keyword && key.split(' ').includes(item.phrase));
  // ("Not a single invoice from Brennan has been paid on time" keeps its opening: without it the line says the opposite.)
  const negatedSubject = NEGATING_OPENERS.has(tokens[from]?.lower ?? '') && !/[,;:]/u.test(tokens[from]?.trailing ?? '');
  const valueStart = negatedSubject ? from : Math.max(from, Math.min(subject.valueFrom, span[1] - 1));
  const value = withNamedPeople(lineValue(sentence, valueStart, span[1], correction ? oldValues : null, reading.options.maxValueWords), key, reading.discourse);
  if (value === '' || (telling.length === 0 && !correction && !isRule(act) && saysNothingMore(value, key))) return null;
  return {
    act: sense.changeOnly ? 'fact' : act,
    kind: limit ? 'constraint' : kind,
    key,
    value,
    messageId: message.id,
    sentAt: message.sentAt,
    sentence,
    span,
    values,
    telling,
    // ("the headcount is 185": a bare number under a key that counts people is a count of them.)
    classes: telling.map((item) => countedBy(key, classOfSpecific(item, wordAfter(sentence, item)))),
    oldValues,
    correction,
    opens: sense.changeOnly,
    pronoun: subject.pronoun,
    event: act === 'fact' && tellsEvent(tokens, from, span[1]),
    personal: ['i', "i'm", "i've", "i'd", 'my', 'me'].includes(tokens[from]?.lower ?? ''),
    weight: WEIGHT_OF_KIND[kind] + Math.min(2, values.length * 0.5) + (correction ? 1 : 0) + (act === 'decision' ? 1 : 0),
  };
}

/** Words that, opening a clause's subject, deny it: "Not a single invoice …", "No supplier …", "None of the quotes …". */
const NEGATING_OPENERS = new Set(['not', 'no', 'none', 'neither', 'nobody', 'nothing']);

/** Acts that hold without a value of their own: "never again", "the Ashgrove thing is off". */
const isRule = (act: ClauseAct): boolean => act === 'rule' || act === 'removal';

/** Words that point back or fill, and say nothing of their own: "love him", "wants the same", "did", "just about". */
const EMPTY_WORDS: ReadonlySet<string> = new Set([...STOP_WORDS, 'same', 'said', 'says', 'say', 'did', 'done', 'yes', 'wants', 'want', 'thing', 'things', 'just', 'really', 'quite', 'very']);

/** Whether a short value without a value of its own says nothing its key does not ("niro still fits: just about", "love: love him"). */
function saysNothingMore(value: string, key: string | null): boolean {
  const words = value.toLowerCase().match(/\p{L}[\p{L}'’]*/gu) ?? [];
  if (words.length > 4) return false;
  if (words.every((word) => EMPTY_WORDS.has(word))) return true;
  // ("love: love him" repeats its key; "imperial units: imperial units for everything" says what for.)
  const keyWords = new Set((key ?? '').split(' '));
  return words.length <= 2 && words.every((word) => EMPTY_WORDS.has(word) || keyWords.has(word));
}

/** A bare number's class under its key: a count when the key names people counted ("headcount", "guests"). */
function countedBy(key: string | null, valueClass: ValueClass): ValueClass {
  return valueClass === 'number' && PEOPLE_NOUNS.has(key?.split(' ').at(-1) ?? '') ? 'count' : valueClass;
}

/** Whether the clause names a role ("our accountant"): with it, a person's name is a value. */
function hasRole(tokens: AnalysedSentence['tokens'], from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) if (ROLE_NOUNS.has((tokens[index]?.lower ?? '').replace(/'s$/u, ''))) return true;
  return false;
}
