/**
 * The places a statement's key can come from, each tried in turn (see statement-key): the words before
 * a colon ("Budget: …"), a keyword cue naming the subject ("our budget is …"), what someone is allergic
 * to, a person's role, the subject, an accepted proposal's first phrase, the product category or the
 * object acted on, the activity after a cue ("I love hiking"), a deadline ("done by March 15").
 */
import type { FactKind } from '../../core/types.js';
import { categoryOf, isCategoryName } from './categories.js';
import type { Cue } from './cues.js';
import { META_NOUNS, STOP_WORDS } from './function-words.js';
import { firstPhraseAfter, keyFromPhrase, keyFromTokens, phraseAt, type NounPhrase } from './noun-phrases.js';
import type { Specific } from './specifics.js';
import type { KeySource } from './statement.js';
import { isPronounSubject, type StatementParts } from './statement-parts.js';
import type { TaggedToken } from './tagging.js';
import { endsClause } from './tokens.js';

/** A key found, where it came from, and where the value starts when the key is the clause's subject. */
export interface KeyChoice {
  key: string;
  source: KeySource;
  /** The key is the clause's subject: the value starts at the predicate. */
  isSubject?: boolean;
  /** Where the value starts, when not at the predicate ("Budget: $45,000", "The budget is $45,000"). */
  valueFrom?: number;
}

/** Words that, after a colon opener, only announce what follows ("Deadline news:", "Schedule change:"). */
const ANNOUNCING_WORDS = new Set(['also', 'and', 'but', 'so', 'ok', 'okay', 'one', 'another', 'quick', 'big', 'small', 'bad', 'good', 'great', 'hard', 'final', 'last', 'new', 'more', 'other', 'some', 'latest', 'important', 'main', 'just', 'far']);

/**
 * The key a colon opener names ("Budget: …", "Deadline news: …" → deadline), or null when the words
 * before the colon only announce ("Update from this morning:", "Bad news:", "Results are back:").
 */
export function announcedKey(tokens: readonly TaggedToken[], from: number, end: number): string | null {
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

/** "Our budget is …", "a budget of …", "Deadline: …" — a keyword cue naming the subject; not "With a $45,000 budget, I suggest …". */
export function keywordKey(parts: StatementParts, keyword: Cue): KeyChoice | null {
  const { tokens } = parts;
  const phrase = phraseAt(tokens, keyword.start);
  if (phrase === null) return null;
  const after = tokens[phrase.end];
  const inSubject = phrase.end <= parts.subjectEnd && tokens[parts.from]?.pos !== 'preposition';
  if (!inSubject && after?.pos !== 'copula' && after?.lower !== 'of') return null;
  return { key: keyFromPhrase(tokens, phrase) ?? keyword.phrase, source: 'keyword', isSubject: inSubject };
}

/** "allergic to tree nuts" → "tree nuts allergy", "intolerant to lactose" → "lactose intolerance"; naming nothing, "allergy". */
export function allergyKey(tokens: readonly TaggedToken[], primary: Cue | null, to: number): KeyChoice | null {
  if (primary === null || !/^(?:allergic|intolerant)/u.test(primary.phrase)) return null;
  const phrase = firstPhraseAfter(tokens, primary.end, to);
  const what = phrase === null ? null : keyFromPhrase(tokens, phrase, 2);
  return { key: what === null ? 'allergy' : `${what} ${primary.phrase.startsWith('allergic') ? 'allergy' : 'intolerance'}`, source: 'object' };
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

/** "Our CFO, Martin de Vries, has to sign off …": the role names the fact. */
export function roleKey(parts: StatementParts): KeyChoice | null {
  if (parts.person === null) return null;
  const role = roleIn(parts.tokens, parts.from, parts.subjectEnd);
  return role === null ? null : { key: role, source: 'subject', isSubject: true };
}

/**
 * "The budget is …", "Region should be …": the subject is what the statement is about — after a copula,
 * in a statement with a cue, when it is possessed or when it names a category. Not a pronoun, not a person's name alone.
 */
export function subjectPhraseKey(parts: StatementParts, subjectPhrase: NounPhrase | null, subjectIsPerson: boolean, kind: FactKind): KeyChoice | null {
  const { tokens, subjectStart, subjectEnd } = parts;
  if (subjectPhrase === null || subjectIsPerson || isPronounSubject(tokens, subjectStart, subjectEnd)) return null;
  const key = keyFromPhrase(tokens, subjectPhrase);
  const modalBe = tokens[subjectEnd]?.pos === 'modal' && tokens[subjectEnd + 1]?.lower === 'be';
  const copula = tokens[subjectEnd]?.pos === 'copula' || modalBe;
  // "My daughter Emma turned 7", "Caroline's kids are 5 and 7": the possessed thing names the fact.
  const possessed = parts.subjectTokens.some((token) => token.lower === 'my' || token.lower === 'our' || /'s$/u.test(token.lower));
  if (key === null || !(copula || kind !== 'fact' || possessed || isCategoryName(key))) return null;
  return { key, source: 'subject', isSubject: true, valueFrom: copula ? subjectEnd + (modalBe ? 2 : 1) : undefined };
}

/** "Agreed: TTL 60 seconds on Thursday": an accepted proposal is about its first phrase. */
export function agreedKey(tokens: readonly TaggedToken[], from: number, to: number): KeyChoice | null {
  const phrase = firstPhraseAfter(tokens, from, to);
  const key = phrase === null ? null : keyFromPhrase(tokens, phrase);
  return key === null ? null : { key, source: 'subject' };
}

/**
 * The category of a phrase whose head is a known product ("PostgreSQL 16" → database); "the old
 * Hetzner box" is about a box, not about the cloud provider.
 */
export function categoryOfPhrase(tokens: readonly TaggedToken[], phrase: NounPhrase | null): string | null {
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

/** The object acted on; goals name the activity ("learn spanish"), not just its object. */
export function objectKey(tokens: readonly TaggedToken[], objectPhrase: NounPhrase | null, kind: FactKind): KeyChoice | null {
  const key = objectPhrase === null ? null : keyFromPhrase(tokens, objectPhrase);
  if (objectPhrase === null || key === null) return null;
  const verb = tokens[objectPhrase.start - 1];
  return { key: kind === 'goal' && verb?.pos === 'verb' && !verb.past ? `${verb.lower} ${key}`.split(' ').slice(0, 3).join(' ') : key, source: 'object' };
}

/** "I love hiking": the activity right after the cue. */
export function activityKey(tokens: readonly TaggedToken[], cue: Cue | null): KeyChoice | null {
  const next = cue === null ? undefined : tokens[cue.end];
  return next !== undefined && next.pos === 'verb' && /ing$/u.test(next.lower) ? { key: next.lower, source: 'object' } : null;
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

/** "We want to be done by March 15", "we're live by 1 March": a deadline. */
export function deadlineKey(tokens: readonly TaggedToken[], from: number, to: number, specifics: readonly Specific[]): KeyChoice | null {
  return completionDeadline(tokens, from, to, specifics) ? { key: 'deadline', source: 'keyword' } : null;
}
