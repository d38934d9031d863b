/**
 * Statement keys: what a fact line is about. The places a key can come from (statement-key-sources) are
 * tried in turn, the clause's content words last; a key about a person gets the person in front
 * ("caroline support group"), one about a thing of the task does not ("budget", "database").
 */
import type { FactKind } from '../../core/types.js';
import { primaryCue, type Cue } from './cues.js';
import { GENERIC_NOUNS } from './function-words.js';
import { contentKey, firstPhraseAfter, nounPhrases, type NounPhrase } from './noun-phrases.js';
import type { KeySource, StatementContext } from './statement.js';
import { hasPredicateIn } from './statement-clauses.js';
import { factKindOf, plainFactKind, type FoundKind } from './statement-kind.js';
import {
  activityKey, agreedKey, allergyKey, announcedKey, categoryOfPhrase, deadlineKey, keywordKey, objectKey, roleKey, subjectPhraseKey, type KeyChoice,
} from './statement-key-sources.js';
import type { StatementParts } from './statement-parts.js';
import type { TaggedToken } from './tagging.js';

export interface StatementKey {
  key: string;
  source: KeySource;
  /** The key is the clause's subject: the value starts at the predicate. */
  isSubject: boolean;
  /** Where the value starts when the subject is the key or a pronoun. */
  valueFrom: number;
  /** No key could be found: the key is "correction", and the statement can only correct a fact it targets. */
  keyless: boolean;
  /** The kind, and the cue that set it (a keyword cue that names no subject gives way to the next cue). */
  kind: FactKind;
  cue: Cue | null;
  /** An early colon after words that name the key or announce the clause ("Budget: …"), or -1. */
  colon: number;
  /** Where the clause starts after words before a colon that only announce it ("Update from this morning: …"), or -1. */
  announcer: number;
  objectPhrase: NounPhrase | null;
  /** The category of the object, when its head is a known product ("PostgreSQL 16" → database). */
  category: string | null;
  /** The subject is a person's name alone. */
  subjectIsPerson: boolean;
  /** The person the statement is about: one named in the subject, or the last one named for "he" and "she". */
  personName: string | null;
}

const LASTING_CUES = new Set(['from now on', 'going forward', 'for everything', 'by default', 'every time', 'each time']);

/** A colon among the first words ("Budget: …", "Deadline news: …"); -1 when none, or when a full clause follows it. */
function colonAt(tokens: readonly TaggedToken[], from: number, to: number): number {
  const colon = tokens.findIndex((token, index) => index >= from && index < Math.min(to - 1, from + 7) && /:/u.test(token.trailing));
  // "One hard rule: we must never …" — a full clause after the colon: the words before it only announce it.
  if (colon >= 0 && ['pronoun', 'determiner'].includes(tokens[colon + 1]?.pos ?? '') && hasPredicateIn(tokens, colon + 1, to)) return -1;
  return colon;
}

/** The first noun phrase after the predicate (or the cue): the thing acted on. */
function objectPhraseOf(parts: StatementParts): NounPhrase | null {
  const { tokens, to, subjectEnd, primary } = parts;
  let objectPhrase = firstPhraseAfter(tokens, Math.max(subjectEnd, primary?.end ?? parts.removal?.end ?? subjectEnd), to);
  // "Use British spelling for everything", "sign off with … from now on": the cue closes the instruction.
  if (primary !== null && LASTING_CUES.has(primary.phrase) && primary.start > subjectEnd) {
    objectPhrase = firstPhraseAfter(tokens, subjectEnd, primary.start) ?? objectPhrase;
  }
  // "10 GB of storage": the measured thing, not the unit.
  if (objectPhrase !== null && tokens[objectPhrase.start]?.hasDigit === true && tokens[objectPhrase.end]?.lower === 'of') {
    objectPhrase = firstPhraseAfter(tokens, objectPhrase.end + 1, to) ?? objectPhrase;
  }
  return objectPhrase;
}

function joinKey(prefix: string | null, key: string): string {
  if (prefix === null || prefix === '' || key.split(' ').includes(prefix)) return key;
  return `${prefix} ${key}`.split(' ').slice(0, 4).join(' ');
}

/** The person a statement is about: one named in its subject, or for "he" and "she" the last one the message named. */
function personNameOf(parts: StatementParts, lastPerson: StatementContext['lastPerson']): string | null {
  const thirdPerson = parts.subjectTokens.some((token) => /^(?:he|she|his|her|he's|she's)$/u.test(token.lower));
  return parts.person?.text ?? (thirdPerson ? (lastPerson?.name ?? null) : null);
}

/**
 * The key with the person it is about in front. People are told apart in keys about them ("caroline
 * support group", "melanie daughter"), not in keys that name a thing of the task ("budget", "database").
 */
function withPerson(key: string, source: KeySource, parts: StatementParts, kind: FactKind, personName: string | null, speaker: string | null): string {
  const { tokens, from, subjectTokens } = parts;
  const possessive = subjectTokens.some((token) => token.lower === 'my' || (token.entity === 'person' && /'s$/u.test(token.lower)));
  if (source !== 'object' && source !== 'content' && !(source === 'subject' && possessive)) return key;
  const speakerPrefix = speaker === null ? null : speaker.toLowerCase().split(/\s+/u)[0] ?? null;
  const personPrefix = personName === null ? null : personName.toLowerCase().split(/\s+/u)[0] ?? null;
  const singularFirstPerson = [...subjectTokens, tokens[from]].some((token) => token !== undefined && /^(?:i|my|me|i'm|i've|i'd|i'll)$/u.test(token.lower));
  const mine = subjectTokens.some((token) => token.lower === 'my');
  const prefix = (mine ? speakerPrefix : null) ?? personPrefix ?? (singularFirstPerson && kind !== 'exception' && kind !== 'constraint' ? speakerPrefix : null);
  // With a person in front, the thing keeps its last two words ("caroline support group").
  return prefix === null ? key : joinKey(prefix, key.split(' ').slice(-2).join(' '));
}

/**
 * What the statement is about (see `StatementKey`); null when it names nothing it could change, or
 * when its keyword cue turns out to name no subject and nothing else gives it a kind.
 */
export function statementKey(parts: StatementParts, found: FoundKind, context: StatementContext): StatementKey | null {
  const { tokens, from, to, subjectStart, subjectEnd, person } = parts;
  const colon = colonAt(tokens, from, to);
  const objectPhrase = objectPhraseOf(parts);
  const category = categoryOfPhrase(tokens, objectPhrase);
  const colonKey = colon >= 0 ? announcedKey(tokens, from, colon + 1) : null;
  const announcer = colon >= 0 && colonKey === null ? colon + 1 : -1;
  let chosen: KeyChoice | null = colonKey === null ? null : { key: colonKey, source: 'subject', isSubject: true, valueFrom: colon + 1 };
  let { kind } = found;
  let cue = parts.primary;
  const keyword = parts.cues.find((item) => item.keyword);
  if (chosen === null && keyword !== undefined) {
    chosen = keywordKey(parts, keyword);
    if (chosen === null && cue === keyword) {
      // "With a $45,000 budget, I suggest …" is not a statement about the budget.
      cue = primaryCue(parts.cues.filter((item) => !item.keyword));
      const cueKind = cue === null ? plainFactKind(parts) : factKindOf(cue);
      if (cueKind === null) return null;
      kind = cueKind;
    }
  }
  const subjectPhrase = nounPhrases(tokens, subjectStart, subjectEnd).at(-1) ?? null;
  const subjectIsPerson = subjectPhrase !== null && person !== null && (tokens[subjectPhrase.start]?.start ?? -1) === person.start && subjectPhrase.end - subjectPhrase.start === 1;
  chosen ??=
    allergyKey(tokens, cue, to) ??
    roleKey(parts) ??
    subjectPhraseKey(parts, subjectPhrase, subjectIsPerson, kind) ??
    (found.fragment ? agreedKey(tokens, from, to) : null) ??
    (category !== null && kind !== 'exception' ? { key: category, source: 'category' } : null) ??
    objectKey(tokens, objectPhrase, kind) ??
    activityKey(tokens, parts.anchorCue) ??
    deadlineKey(tokens, from, to, parts.specifics);
  const named = chosen?.key ?? contentKey(tokens, Math.max(from, parts.anchorCue?.end ?? subjectEnd), to) ?? contentKey(tokens, from, to);
  if (named === null && parts.correction === null && parts.removal === null) return null;
  // (An accepted proposal whose first phrase names nothing keeps "subject" as the source of its content key.)
  const source = chosen?.source ?? (found.fragment ? 'subject' : 'content');
  const personName = personNameOf(parts, context.lastPerson);
  const key = withPerson(named ?? 'correction', source, parts, kind, personName, context.speaker).replace(/\s+/gu, ' ').trim();
  if (key === '' || GENERIC_NOUNS.has(key)) return null;
  return {
    key,
    source,
    isSubject: chosen?.isSubject ?? false,
    valueFrom: chosen?.valueFrom ?? subjectEnd,
    keyless: named === null,
    kind,
    cue,
    colon,
    announcer,
    objectPhrase,
    category,
    subjectIsPerson,
    personName,
  };
}
