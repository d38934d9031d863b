/**
 * The key a claim's line is filed under. It starts from the claim's subject and is then made to name
 * the subject the way later claims will: a known product by its category ("PostgreSQL 16" and "MySQL"
 * are both the `database`), a completion date as the `deadline`, and — in a conversation between named
 * people — a person's own things under their name ("caroline support group").
 */
import type { AnalysedSentence } from './analysis.js';
import { categoryOf } from './categories.js';
import type { Discourse, Subject } from './claim-subject.js';
import type { Cue } from './cues.js';
import { FIRST_PERSON } from './function-words.js';
import { contentKey } from './noun-phrases.js';

export interface KeyInput {
  sentence: AnalysedSentence;
  /** The clause's first own token (after openers) and its end. */
  from: number;
  to: number;
  subject: Subject;
  /** The speaker's name, when the conversation names people. */
  speaker: string | null;
  cues: readonly Cue[];
  people: boolean;
  discourse: Discourse;
}

const COMPLETION_WORDS = new Set(['done', 'ready', 'live', 'finished', 'complete', 'completed', 'shipped', 'launched', 'delivered', 'submitted', 'moved', 'married']);

/** "We want to be done by March 15", "live by 1 March": a deadline. */
function completionDeadline(sentence: AnalysedSentence, from: number, to: number): boolean {
  const tokens = sentence.tokens;
  for (let index = from; index + 1 < to; index += 1) {
    if (!COMPLETION_WORDS.has(tokens[index]?.lower ?? '')) continue;
    const link = tokens[index + 1]?.lower ?? '';
    if (link === 'by' || link === 'before' || link === 'until') return true;
  }
  return false;
}

/** The category of a key that is only a known product's name ("postgresql" → "database"). */
function categoryKey(key: string): string | null {
  const words = key.split(' ');
  const categories = new Set(words.map((word) => categoryOf(word)));
  if (categories.size !== 1) return null;
  const [category] = categories;
  return category ?? null;
}

const THIRD_PERSON = new Set(['he', "he's", 'she', "she's"]);

/** The first name a person's own facts are filed under, when the conversation names people. */
function personPrefix(input: KeyInput): string | null {
  const first = input.sentence.tokens[input.from]?.lower ?? '';
  // "she has 3 kids" after "Melanie …" is Melanie's.
  if (THIRD_PERSON.has(first)) return input.discourse.person?.split(/\s+/u)[0] ?? null;
  if (!input.people) return null;
  if (FIRST_PERSON.has(first) && !first.startsWith('we') && first !== 'us' && first !== 'our' && first !== "let's") {
    return input.speaker?.toLowerCase().split(/\s+/u)[0] ?? null;
  }
  return null;
}

/** A short term in quotes: "guarantee", “at-risk”. */
const QUOTED = /["“]([^"“”]{2,40})["”]|‘([^‘’]{2,40})’/gu;

/** The quoted terms of a text (at most four words each), in order. */
export function quotedTerms(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((match) => (match[1] ?? match[2] ?? '').trim()).filter((term) => term !== '' && term.split(/\s+/u).length <= 4);
}

/** Words by which a rule points at a term said before: "So that word is banned". */
const TERM_NOUNS = new Set(['word', 'words', 'term', 'terms', 'phrase', 'phrases', 'expression', 'label']);

/** The key of a claim (see the module comment), at most four words; null when nothing names it. */
export function claimKey(input: KeyInput): string | null {
  const { sentence, from, to } = input;
  const rule = input.cues.some((cue) => cue.kind === 'exception' || cue.kind === 'constraint' || cue.kind === 'removal');
  // A rule about a term names it: “So "guarantee" is out”, or "that word is banned" after “"at-risk"”.
  if (rule) {
    const start = sentence.tokens[from]?.start ?? 0;
    const end = sentence.tokens[to - 1]?.end ?? sentence.text.length;
    const own = quotedTerms(sentence.text.slice(start, end))[0];
    if (own !== undefined) return own.toLowerCase();
    const pointing = sentence.tokens.slice(from, to).some((token) => TERM_NOUNS.has(token.lower));
    if (pointing && input.discourse.quoted) return input.discourse.quoted.toLowerCase();
  }
  let key = completionDeadline(sentence, from, to) ? 'deadline' : (input.subject.key ?? contentKey(sentence.tokens, from, to));
  if (key === null) return null;
  key = categoryKey(key) ?? key;
  const prefix = personPrefix(input);
  // With a person in front, the thing keeps its last two words ("caroline support group").
  if (prefix !== null && !key.split(' ').includes(prefix)) key = `${prefix} ${key.split(' ').slice(-2).join(' ')}`;
  return key.split(' ').slice(0, 4).join(' ');
}
