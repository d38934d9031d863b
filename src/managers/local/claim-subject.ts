/**
 * The subject of a claim: what the fact line is about, which becomes its key ("kitchen budget",
 * "warfarin", "island"). A noun phrase before the verb names it; "it" and "that" take the topic of the
 * message so far; "I" and "we" leave it to the object ("I've got 11 staff" is about staff); a rule is
 * about what it forbids ("never paying anyone in cash" is about cash).
 */
import type { AnalysedSentence } from './analysis.js';
import { appositiveStart, type NamedPeople } from './appositives.js';
import { carriesIs, isPredicate, type Span } from './clauses.js';
import type { ClauseAct } from './clause-acts.js';
import type { Cue } from './cues.js';
import { COUNT_WORDS, DATE_UNITS, META_NOUNS } from './function-words.js';
import { keyFromPhrase, keyFromTokens, nounPhrases } from './noun-phrases.js';
import {
  actionKey, firstKey, isPersonPhrase, isPersonToken, isValueToken, openingAttribute, openingTopic, REPORTING_VERBS, reportedSubject, subjectKey, usable,
} from './subject-phrases.js';
import type { TaggedToken } from './tagging.js';

/** What earlier clauses of the message established, for the clauses that point back. */
export interface Discourse extends NamedPeople {
  /** The last thing (not a person) a clause was about. */
  topic: string | null;
  /** The last person named. */
  person: string | null;
  /** A label ("Budget:", "Ridgeline:") waiting for the clause it heads. */
  label: string | null;
  /** A topic the message announced ("About the target time."): what its clauses without a subject of their own are about. */
  announced?: string | null;
  /** The last term the message put in quotes ("at-risk"), which "that word" points back at. */
  quoted?: string | null;
}

export interface Subject {
  /** The key: a short lower-case noun phrase, or null when the clause names nothing. */
  key: string | null;
  /** Token where the line's value starts (after a subject that is the key, and its verb "is"). */
  valueFrom: number;
  /** The subject is a pronoun ("it's 7 feet now") resolved from the discourse. */
  pronoun: boolean;
  /** The clause names a thing and its value without a verb ("Warfarin 3 mg", "Budget: $60,000"). */
  attribute?: boolean;
}

/** Words that open a clause without being part of what it says. */
const OPENERS = new Set([
  'and', 'but', 'so', 'also', 'plus', 'oh', 'ok', 'okay', 'right', 'well', 'yes', 'yeah', 'yep', 'no', 'anyway', 'anyways', 'honestly',
  'then', 'sorry', 'actually', 'besides', 'still', 'though', 'alright', 'hmm', 'ah', 'look', 'listen', 'basically', 'obviously', 'frankly',
  'back', 'again', 'ugh', 'wow', 'ha', 'haha', 'thanks', 'cool',
]);

const POINTING = new Set(['it', "it's", 'that', "that's", 'this', 'these', 'those', 'they', "they're", 'there', "there's", 'which']);
const PERSONAL = new Set(['he', "he's", 'she', "she's", 'him', 'her']);
const SPEAKERS = new Set(['i', "i'm", "i've", "i'd", "i'll", 'we', "we're", "we've", "we'd", "we'll", 'you', "you're", "you've", "you'd", "you'll", "let's", 'lets', 'us', 'me']);

/** Where the clause's own words start, after openers ("And", "Oh,", "So"). */
export function skipOpeners(tokens: readonly TaggedToken[], span: Span): number {
  let index = span[0];
  // ("Oh wait, it's Thursday": "wait" set off by a comma is an interjection, not an instruction.)
  const opener = (token: TaggedToken | undefined): boolean => OPENERS.has(token?.lower ?? '') || (token?.lower === 'wait' && token.trailing.includes(','));
  while (index < span[1] - 1 && opener(tokens[index])) index += 1;
  if (tokens[index]?.lower === 'by' && tokens[index + 1]?.lower === 'the' && tokens[index + 2]?.lower === 'way') index += 3;
  return index;
}

function isNounish(token: TaggedToken | undefined): boolean {
  return token !== undefined && (token.pos === 'noun' || token.pos === 'proper' || token.pos === 'adjective' || token.pos === 'value' || token.pos === 'determiner');
}

/** "Budget:", "Ridgeline:" — a short noun label ending in a colon, which heads what follows. */
export function labelOf(tokens: readonly TaggedToken[], span: Span): string | null {
  const from = skipOpeners(tokens, span);
  const last = span[1] - 1;
  if (last < from || last - from > 3 || !/:/u.test(tokens[last]?.trailing ?? '')) return null;
  // (A capitalised first word is a heading whatever the tagger calls it: "Budget:".)
  for (let index = from; index <= last; index += 1) {
    const token = tokens[index];
    if (!isNounish(token) && !(index === from && token?.capitalised === true && token.pos !== 'pronoun')) return null;
  }
  // "Big news:", "Quick update:" announce; they name nothing.
  if (tokens.slice(from, last + 1).some((token) => META_NOUNS.has(token.lower))) return null;
  return keyFromTokens(tokens, from, last + 1, 3);
}

/**
 * A word in quotes right before a cue ('So "guarantee" is out'), lower-cased; null when none. (Tokens keep
 * what follows them, so a closing double quote right after one word tells it.)
 */
function quotedTerm(tokens: readonly TaggedToken[], from: number, to: number): string | null {
  const token = to - 1 >= from ? tokens[to - 1] : undefined;
  return token !== undefined && /^["”]/u.test(token.trailing) && /^\p{L}[\p{L}-]*$/u.test(token.text) ? token.lower : null;
}

/**
 * What a rule is about: an allergy by what it is to ("tree nut allergy", "penicillin allergy"); a thing
 * named before the cue ("walnut is off the table"); else the thing after it ("never paying anyone in cash").
 */
function ruleKey(tokens: readonly TaggedToken[], from: number, to: number, cue: Cue): { key: string; valueFrom: number | null } | null {
  if (/^(?:allerg|intoleran)/u.test(cue.phrase)) {
    const noun = cue.phrase.startsWith('intoleran') ? 'intolerance' : 'allergy';
    const before = nounPhrases(tokens, from, cue.start + 1).at(-1);
    const inPhrase = before !== undefined && before.end >= cue.start ? keyFromTokens(tokens, before.start, cue.start, 3) : null;
    const after = inPhrase === null ? firstKey(tokens, cue.end, to, 2) : null;
    const what = inPhrase ?? after?.key ?? null;
    return { key: what === null ? noun : `${what} ${noun}`, valueFrom: null };
  }
  // "we no longer need the Hetzner box": a removal is about what it drops; "the X thing, forget it" about X.
  if (cue.kind === 'removal') {
    // ('So "guarantee" is out': a term in quotes before the cue is what goes.)
    const quoted = quotedTerm(tokens, from, cue.start);
    if (quoted !== null) return { key: quoted, valueFrom: null };
    const object = POINTING.has(tokens[cue.end]?.lower ?? '') ? null : firstKey(tokens, cue.end, to);
    if (object !== null) return { key: object.key, valueFrom: null };
    const dislocated = firstKey(tokens, from, cue.start);
    if (dislocated !== null) return { key: dislocated.key, valueFrom: null };
  }
  // "my GP said no grapefruit" is about grapefruit: a verb between the subject and the cue reports it.
  const reported = tokens.slice(from, cue.start).some((token) => token.pos === 'verb');
  const before = reported ? null : subjectKey(tokens, from, cue.start);
  // "The audit report is due 12 March" reads "audit report deadline: due 12 March".
  const due = cue.phrase === 'due' && before !== null && !before.split(' ').includes('deadline') ? `${before} deadline` : before;
  if (due !== null) return { key: due, valueFrom: tokens[cue.start - 1]?.pos === 'copula' && cue.start - 1 > from ? cue.start : null };
  const key = firstKey(tokens, cue.end, to)?.key ?? actionKey(tokens, cue.end, to) ?? keyFromTokens(tokens, cue.end, to, 2);
  return key === null ? null : { key, valueFrom: null };
}

/** What the clause names for the clauses after it: the last person, and a topic it opens with ("Speaking of the island, …"). */
function noteMentions(tokens: readonly TaggedToken[], from: number, to: number, discourse: Discourse): void {
  const named = tokens.slice(from, to).find(isPersonToken);
  if (named !== undefined) discourse.person = named.lower.replace(/[’']s$/u, '');
  const opening = openingTopic(tokens, from, to);
  if (opening !== null) {
    discourse.topic = opening;
    discourse.announced = opening;
  }
}

/** The subject of a rule, a requirement or a removal: what it forbids, requires or drops (see `ruleKey`). */
function ruleSubject(tokens: readonly TaggedToken[], from: number, to: number, cue: Cue, discourse: Discourse): Subject | null {
  const found = ruleKey(tokens, from, to, cue);
  if (found === null) return null;
  // ("We no longer need the Hetzner box … Keep it for 14 days": what a rule or a removal is about is the topic.)
  discourse.topic = found.key;
  // "We must never deploy on Fridays" reads "deploy: must never deploy on Fridays".
  const speaking = SPEAKERS.has(tokens[from]?.lower ?? '') && ['modal', 'negation', 'verb', 'auxiliary', 'copula'].includes(tokens[from + 1]?.pos ?? '');
  return { key: found.key, valueFrom: found.valueFrom ?? (speaking ? from + 1 : from), pronoun: false };
}

/** The clause's first verb, or a word that carries "is" ("Payroll's in Xero": `carried`); -1 when it has none. */
function firstVerb(tokens: readonly TaggedToken[], from: number, to: number): { verb: number; carried: boolean } {
  for (let index = from; index < to; index += 1) {
    if (isPredicate(tokens[index])) return { verb: index, carried: false };
    if (carriesIs(tokens[index], tokens[index + 1])) return { verb: index, carried: true };
  }
  return { verb: -1, carried: false };
}

/** A clause without a verb ("Warfarin 3 mg once a day", "Quartz counters everywhere"): the phrase it opens with. */
function verblessSubject(tokens: readonly TaggedToken[], from: number, to: number, discourse: Discourse): Subject {
  const found = firstKey(tokens, from, to);
  if (found !== null && found.phrase.start <= from + 1) {
    discourse.topic = found.key;
    return { key: found.key, valueFrom: found.phrase.end, pronoun: false };
  }
  return { key: found?.key ?? discourse.topic, valueFrom: from, pronoun: found === null };
}

/** "she's knocked the warfarin down to 2.5 mg" is about the warfarin; "he's 84" about him. */
function personalSubject(tokens: readonly TaggedToken[], from: number, to: number, verb: number, discourse: Discourse): Subject {
  const copula = tokens[verb]?.pos === 'copula' || (verb === from && /'s$/u.test(tokens[from]?.lower ?? '') && !tokens[verb + 1]?.past);
  const object = copula ? null : firstKey(tokens, verb + 1, to);
  const valueFrom = verb === from ? from + 1 : verb;
  if (object !== null && !isPersonPhrase(tokens, object.phrase)) {
    discourse.topic = object.key;
    return { key: object.key, valueFrom, pronoun: false };
  }
  return { key: discourse.person ?? discourse.topic, valueFrom, pronoun: true };
}

/** A subject that points back ("it", "that", "she", "keep it"): what the discourse holds, unless the clause names its object; null for any other subject. */
function pointingSubject(tokens: readonly TaggedToken[], from: number, to: number, verb: number, discourse: Discourse): Subject | null {
  const first = tokens[from];
  if (first !== undefined && POINTING.has(first.lower)) {
    // "that's a crew of six", "it's a total of £400": what the count is of names it.
    const counted = countedThing(tokens, verb === from ? from + 1 : verb + 1, to);
    if (counted !== null) {
      discourse.topic = counted;
      return { key: counted, valueFrom: from, pronoun: false };
    }
  }
  // "it's 7 feet now", "that's twelve on the books": the topic so far.
  if (verb === from && first !== undefined && POINTING.has(first.lower)) return { key: discourse.topic, valueFrom: from, pronoun: true };
  if (first !== undefined && PERSONAL.has(first.lower) && verb <= from + 1) return personalSubject(tokens, from, to, verb, discourse);
  if (first !== undefined && POINTING.has(first.lower) && verb <= from + 1) {
    // "They log in with Google Workspace SSO": with no topic yet, the object names it.
    if (discourse.topic !== null) return { key: discourse.topic, valueFrom: from, pronoun: true };
    const object = firstKey(tokens, verb + 1, to);
    return { key: object?.key ?? null, valueFrom: from, pronoun: object === null };
  }
  // "Keep it for 14 days": an instruction about the topic.
  if (verb === from && POINTING.has(tokens[verb + 1]?.lower ?? '') && discourse.topic !== null) return { key: discourse.topic, valueFrom: from, pronoun: true };
  return null;
}

/** "a crew of six" at `at`: the thing a count is of ("crew"); null when the words there are not "a … of" and a number. */
function countedThing(tokens: readonly TaggedToken[], at: number, to: number): string | null {
  if (!['a', 'an'].includes(tokens[at]?.lower ?? '')) return null;
  const found = firstKey(tokens, at + 1, Math.min(to, at + 4), 2);
  if (found === null || found.phrase.start !== at + 1 || tokens[found.phrase.end]?.lower !== 'of') return null;
  const count = tokens[found.phrase.end + 1];
  return isValueToken(count) || COUNT_WORDS[count?.lower ?? ''] !== undefined ? found.key : null;
}

/** "I've got 11 staff", "we went with Luis": when the speakers are the subject, the object names it. */
function speakerSubject(first: TaggedToken, tokens: readonly TaggedToken[], from: number, to: number, verb: number, discourse: Discourse): Subject {
  // "I fill it every Sunday": "it" is the topic so far.
  const pointing = tokens[verb + 1] !== undefined && POINTING.has(tokens[verb + 1]?.lower ?? '') && discourse.topic !== null;
  if (pointing) return { key: discourse.topic, valueFrom: from, pronoun: true };
  // The line starts at the verb: "deploy: must never deploy on Fridays", "staff: got 11 staff".
  const valueFrom = first.pos === 'pronoun' && /'(?:m|re|s|ve|d|ll)$/u.test(first.lower) && verb === from ? from + 1 : verb;
  // "I told every client the standard weekly rate is $62": what is reported is about its own subject.
  const reported = REPORTING_VERBS.has(tokens[verb]?.lower ?? '') ? reportedSubject(tokens, verb + 1, to) : null;
  if (reported !== null) {
    discourse.topic = reported.key;
    return { key: reported.key, valueFrom: reported.valueFrom, pronoun: false };
  }
  const object = firstKey(tokens, verb + 1, to);
  if (object === null) {
    // "We deploy on Fridays": with nothing but a day or an amount after it, the verb names it (unless
    // the message announced what it is about: "About the target time. Let's aim for 2:00").
    if (discourse.announced !== undefined && discourse.announced !== null) return { key: discourse.announced, valueFrom, pronoun: false };
    const action = actionKey(tokens, verb, to);
    if (action !== null) return { key: action, valueFrom, pronoun: false };
    return { key: discourse.topic, valueFrom: from, pronoun: true };
  }
  if (!isPersonPhrase(tokens, object.phrase)) discourse.topic = object.key;
  return { key: object.key, valueFrom, pronoun: false };
}

/**
 * Verbs by which someone changes a thing's value, as said after "to" and in the past: "agreed to bring the
 * rent down to £48", "moved the due date to 23 January", "cut the budget by 10%".
 */
const CHANGING: ReadonlyArray<readonly [string, string]> = [
  ['move', 'moved'], ['change', 'changed'], ['shift', 'shifted'], ['push', 'pushed'], ['postpone', 'postponed'], ['reschedule', 'rescheduled'],
  ['delay', 'delayed'], ['bump', 'bumped'], ['raise', 'raised'], ['lower', 'lowered'], ['cut', 'cut'], ['increase', 'increased'],
  ['reduce', 'reduced'], ['extend', 'extended'], ['bring', 'brought'], ['knock', 'knocked'], ['up', 'upped'], ['halve', 'halved'],
  ['double', 'doubled'], ['trim', 'trimmed'], ['cap', 'capped'],
];
const CHANGING_BASES: ReadonlySet<string> = new Set(CHANGING.map(([base]) => base));
const CHANGING_VERBS: ReadonlySet<string> = new Set(CHANGING.map(([, past]) => past));

/** Words after the changed thing that say where its value went ("to", "back", "up", "down", "forward", "by"). */
const CHANGE_DIRECTIONS = new Set(['to', 'back', 'up', 'down', 'forward', 'forwards', 'from', 'by', 'until', 'till']);

/**
 * "Rachel moved the Brightwater due date to 23 January", "the landlord pushed the inspection back a
 * week": the thing changed is what the line is about, not the one who changed it. Null unless the
 * verb changes a value and the phrase after it is followed by where the value went.
 */
function changedObject(tokens: readonly TaggedToken[], found: number, to: number): { key: string; valueFrom: number } | null {
  // ("The committee has agreed to bring the full-plot rent down to £48": the change is the verb after "to".)
  const first = tokens[found]?.pos === 'auxiliary' && tokens[found + 1]?.pos === 'verb' ? found + 1 : found;
  const verb = tokens[first + 1]?.lower === 'to' && CHANGING_BASES.has(tokens[first + 2]?.lower ?? '') ? first + 2 : first;
  if (verb === first && !CHANGING_VERBS.has(tokens[verb]?.lower ?? '')) return null;
  const object = firstKey(tokens, verb + 1, to);
  if (object === null || object.phrase.start > verb + 3 || isPersonPhrase(tokens, object.phrase)) return null;
  const direction = object.phrase.end;
  if (!CHANGE_DIRECTIONS.has(tokens[direction]?.lower ?? '')) return null;
  // (A value must follow at once: "moved the due date to 23 January", "cut the budget by 10%", "pushed the
  // inspection back a week"; not "brought the kids to the Grundschule on 3 May", people moved to a place.)
  let next = direction + 1;
  while (next < to && ['to', 'a', 'an', 'the', 'by', 'until', 'till'].includes(tokens[next]?.lower ?? '')) next += 1;
  const landing = tokens[next];
  if (landing === undefined || !(landing.hasDigit || landing.pos === 'date' || landing.pos === 'value' || DATE_UNITS.has(landing.lower.replace(/s$/u, '')))) return null;
  // The line gives where the value went: "brightwater due date: 23 January" ("back a week" stays as said).
  const lands = tokens[direction]?.lower === 'to' ? direction + 1 : tokens[direction + 1]?.lower === 'to' ? direction + 2 : direction;
  return { key: object.key, valueFrom: lands < to ? lands : direction };
}

/**
 * "The kitchen number is 54 now", "Payroll's in Xero": the noun phrase before the verb names it; "the budget
 * for the kitchen" is the kitchen budget. Null when no usable phrase stands there.
 */
function nounSubject(sentence: AnalysedSentence, from: number, to: number, found: { verb: number; carried: boolean }, discourse: Discourse): Subject | null {
  const tokens = sentence.tokens;
  const { verb, carried } = found;
  const phrases = nounPhrases(tokens, from, appositiveStart(sentence, from, verb) ?? verb + 1);
  const subject = phrases.at(-1) ?? null;
  if (subject === null) return null;
  const head = phrases[0];
  const linked = head !== undefined && head !== subject && ['of', 'for'].includes(tokens[head.end]?.lower ?? '') ? keyFromPhrase(tokens, head, 2) : null;
  const key = linked !== null ? `${keyFromPhrase(tokens, subject, 1) ?? ''} ${linked}`.trim() : keyFromPhrase(tokens, subject, 3);
  if (!usable(key)) return null;
  const changed = changedObject(tokens, verb, to);
  if (changed !== null) {
    discourse.topic = changed.key;
    return { key: changed.key, valueFrom: changed.valueFrom, pronoun: false };
  }
  const person = isPersonPhrase(tokens, subject);
  // "Melanie loves pottery": a person's fact is filed under them and what it is about.
  const object = person && tokens[verb]?.pos !== 'copula' ? firstKey(tokens, verb + 1, to, 2) : null;
  if (object !== null) return { key: `${key.split(' ')[0] ?? key} ${object.key}`, valueFrom: verb, pronoun: false };
  if (!person) discourse.topic = key;
  const copula = tokens[verb]?.pos === 'copula' && verb === subject.end;
  // A subject holding a value keeps it ("A maintenance window of up to 3 hours is fine …").
  if (tokens.slice(from, verb).some(isValueToken)) return { key, valueFrom: from, pronoun: false };
  // The line reads "key: value": the value starts at the verb ("budget: changed to $50,000"), after a bare "is".
  return { key, valueFrom: copula || carried ? verb + 1 : verb, pronoun: false };
}

/**
 * The subject of the clause `span` (see the module comment). `act` and `cue` pick the rule's object;
 * `discourse` gives what pronouns point back to, and is updated with what this clause is about.
 */
export function subjectOf(sentence: AnalysedSentence, span: Span, act: ClauseAct, cue: Cue | null, discourse: Discourse): Subject {
  // ("She's been doing the books since Gerald retired. She charges £90 an hour": "she" opening the clause
  // is who was named before; a name after it is noted once the subject is read, unless a clause of its own
  // holds it: Gerald "since … retired" is not the one spoken of, Marcus in "She hired Marcus" is.)
  const tokens = sentence.tokens;
  const from = skipOpeners(tokens, span);
  if (!SUBJECT_PRONOUNS.has(tokens[from]?.lower ?? '')) return clauseSubject(sentence, span, span, act, cue, discourse);
  const subject = clauseSubject(sentence, [span[0], from], span, act, cue, discourse);
  const named = tokens.slice(from + 1, span[1]).findLast((token, index) => isPersonToken(token) && !SUBORDINATORS.has(tokens[from + index]?.lower ?? ''));
  if (named !== undefined) discourse.person = named.lower.replace(/[’']s$/u, '');
  return subject;
}

const SUBJECT_PRONOUNS = new Set(['he', "he's", 'she', "she's"]);
const SUBORDINATORS = new Set(['since', 'because', 'when', 'after', 'before', 'until', 'while', 'as', 'like']);

/** The subject of the clause `span`, with the mentions of `noted` (the clause up to its first "he" or "she") in the discourse first. */
function clauseSubject(sentence: AnalysedSentence, noted: Span, span: Span, act: ClauseAct, cue: Cue | null, discourse: Discourse): Subject {
  const tokens = sentence.tokens;
  const from = skipOpeners(tokens, span);
  const to = span[1];
  noteMentions(tokens, from, Math.max(from, noted[1]), discourse);
  if (discourse.label !== null) {
    const key = discourse.label;
    discourse.label = null;
    discourse.topic = key;
    return { key, valueFrom: from, pronoun: false, attribute: true };
  }
  // A rule is about what it forbids or requires: "walnut is off the table", "never paying anyone in cash".
  // "…, and that has to stay as it is": a rule about what the clause before said.
  const pointsBack = POINTING.has(tokens[from]?.lower ?? '') && ['modal', 'auxiliary', 'copula', 'verb', 'negation'].includes(tokens[from + 1]?.pos ?? '');
  if (pointsBack && discourse.topic === null && act !== 'rule') {
    // "They log in with Google Workspace SSO": with no topic yet, a verb's object names it.
    // ("It made me think how much work …" names nothing: only "they" doing something with a thing named.)
    const object = tokens[from]?.lower === 'they' && tokens[from + 1]?.pos === 'verb' ? firstKey(tokens, from + 2, to) : null;
    const named = object !== null && tokens.slice(object.phrase.start, object.phrase.end).some((token) => token.pos === 'proper');
    if (object !== null && named && !isPersonPhrase(tokens, object.phrase)) {
      discourse.topic = object.key;
      return { key: object.key, valueFrom: from, pronoun: false };
    }
    return { key: null, valueFrom: from, pronoun: true };
  }
  if ((act === 'rule' || act === 'constraint' || act === 'removal') && cue !== null && !cue.keyword && !pointsBack) {
    const rule = ruleSubject(tokens, from, to, cue, discourse);
    if (rule !== null) return rule;
  }
  const attribute = openingAttribute(tokens, from, to);
  if (attribute !== null) {
    discourse.topic = attribute.key;
    return { key: attribute.key, valueFrom: attribute.valueFrom, pronoun: false, attribute: true };
  }
  const found = firstVerb(tokens, from, to);
  const verb = found.verb;
  if (verb < 0) return verblessSubject(tokens, from, to, discourse);
  const pointing = pointingSubject(tokens, from, to, verb, discourse);
  if (pointing !== null) return pointing;
  const first = tokens[from];
  if (first !== undefined && SPEAKERS.has(first.lower) && verb <= from + 2) return speakerSubject(first, tokens, from, to, verb, discourse);
  const named = nounSubject(sentence, from, to, found, discourse);
  if (named !== null) return named;
  const object = firstKey(tokens, verb + 1, to);
  return { key: object?.key ?? discourse.topic, valueFrom: from, pronoun: object === null };
}
