/**
 * Which session facts are worth knowing in every later session of the tenant, and under what subject.
 * A session's document holds much that matters only there (a deadline, today's errand, a quote); the
 * long-term memory should get what stands: rules and exceptions stated as standing ("never", "from now
 * on", "every time"), preferences, long-lived goals, and facts about who the user is (where they live,
 * what they do, what they cannot eat). Anything tied to a moment ("today", "next week", "on 4 May") stays
 * in its session, unless the moment is when it starts ("from 1 January I charge €75"). Pure; no I/O.
 */
import type { Fact, FactKind } from './types.js';
import { MAX_MEMORY_VALUE, singularWord } from './long-term-memory.js';
import { words } from './text.js';
import { STOPWORDS } from './query-terms.js';

/** What a promotable fact becomes: the subject it is about, and the broad tag it starts with. */
export interface Promotion {
  /** The fact's key as a subject: lower case, words singular and joined by `-` ("ellie closes" → "ellie-close"). */
  subject: string;
  tag: string;
  /** The fact's text, cut at a word to fit a memory. */
  value: string;
}

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const PERIOD = `(?:morning|afternoon|evening|night|week|weekend|month|year|time|${WEEKDAY})`;

/** Words that tie a statement to one moment: it holds then, not from then on. */
const MOMENT = new RegExp(
  [
    '\\b(?:today|tonight|tomorrow|yesterday|right now|at the moment|for now|just now|this week|soon)\\b',
    `\\b(?:this|next|last) ${PERIOD}\\b`,
    `\\bon ${WEEKDAY}\\b(?!s)`,
    `\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}\\b`,
    `\\b${MONTH} \\d{1,2}(?:st|nd|rd|th)?\\b`,
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
  ].join('|'),
  'giu',
);

/** Words before a moment that make it a start: the statement stands from then on. */
const START = /\b(?:from|since|starting|effective|as of)\s+(?:the\s+)?$/iu;

/** Words that make a rule or a constraint standing rather than a one-off. */
const STANDING = /\b(?:never|always|ever|every\w*|any(?:thing|one|body|more|where|time)?|no longer|from now on|going forward|at all|whenever|each time|by default|as a rule|in general|for good|full stop)\b/iu;

/** Goals meant to last beyond a task. */
const LONG_LIVED = /\b(?:long[- ]term|eventually|one day|some ?day|in the future|over the years|career|my goal|my dream|in life)\b/iu;

/** Statements of who the user is: identity, home, work, diet, health, family, rates. */
const IDENTITY = new RegExp(
  [
    "\\b(?:i'm|i am|i've been|we're|we are)\\s+(?:a|an)\\s",
    '\\bmy (?:name|pronouns)\\b',
    '\\b(?:live|living|based|located|grew up|born|moved)\\s+(?:in|at|near|to)\\b',
    '\\b(?:work|working)\\s+(?:as|at|for)\\b',
    '^(?:[^:]*:\\s*)?(?:run|own|manage)\\s+(?:a|an|my|our)\\b',
    '\\ballergic\\b|\\bintoleran',
    '\\b(?:vegetarian|vegan|pescatarian|halal|kosher|gluten[- ]free|lactose|diabetic|coeliac|celiac)\\b',
    '\\bmy (?:wife|husband|partner|son|daughter|kids?|children|mum|mom|mother|dad|father|brother|sister|dog|cat|birthday)\\b',
    "\\b(?:i|we) (?:charge|bill)\\b|\\b(?:i'm|i am|we're) charging\\b|\\bmy (?:hourly |day )?rate\\b",
  ].join('|'),
  'iu',
);

/** Subjects that are facts about the user whatever the sentence: what they are called, charge, live by. */
const PERSONAL_SUBJECT = /^(?:my-)?(?:name|nickname|pronoun|birthday|hourly-rate|day-rate|rate|salary|job|occupation|profession|employer|home|hometown|home-city|address|home-address|timezone|time-zone|diet|allergy|allergie|intolerance)$/u;

const TAG_OF_KIND: Readonly<Record<FactKind, string>> = { exception: 'rules', constraint: 'rules', preference: 'preferences', goal: 'goals', fact: 'profile' };

/** Whether the text names a moment it holds at (a date or "today"), not one it starts from. */
export function tiedToMoment(text: string): boolean {
  for (const match of text.matchAll(MOMENT)) {
    if (!START.test(text.slice(Math.max(0, match.index - 24), match.index))) return true;
  }
  return false;
}

/** The fact's key as a subject: lower case, each word singular, joined by `-` (empty when nothing is left). */
export function subjectOf(key: string): string {
  return words(key).map(singularWord).join('-').slice(0, 100).replace(/-+$/u, '');
}

/** Whether a fact of this kind, with this text, stands beyond its session (see the module comment). */
export function stands(kind: FactKind, text: string, subject = ''): boolean {
  if (/\?\s*$/u.test(text) || tiedToMoment(text)) return false;
  const value = text.slice(text.indexOf(':') + 1).trim();
  if (value.split(/\s+/u).length < 2) return false;
  switch (kind) {
    case 'preference':
      // "wants a check-in call": someone else's wish, its subject left in the key.
      return !/^(?:(?:he|she|they)\s+)?(?:wants|likes|prefers|needs|asked|said|says)\b/iu.test(value);
    case 'exception':
    case 'constraint':
      return STANDING.test(value);
    case 'goal':
      return LONG_LIVED.test(value);
    case 'fact':
      return IDENTITY.test(text) || PERSONAL_SUBJECT.test(subject);
  }
}

/** Words that make a statement standing or negative: shared, they say nothing about what two statements are about. */
const FRAME_WORDS: ReadonlySet<string> = new Set(['never', 'always', 'ever', 'every', 'anything', 'anyone', 'don', 'can', 'like', 'want', 'prefer', 'rather', 'use', 'get', 'make']);

/**
 * What a statement is about, as words: the content words of its key and value (lower case, singular) and,
 * apart, those of them that are specific (written with a capital inside the sentence, or holding a digit: "Saturday", "Ellie", "V60").
 */
export function aboutWords(text: string): { content: Set<string>; specific: Set<string> } {
  const content = new Set<string>();
  const specific = new Set<string>();
  const value = text;
  for (const match of value.matchAll(/[\p{L}\p{N}]+/gu)) {
    const lower = match[0].toLowerCase();
    const word = singularWord(lower);
    // (Checked as written too: "always" is a frame word, "alway" is not.)
    if (STOPWORDS.has(word) || FRAME_WORDS.has(word) || FRAME_WORDS.has(lower) || word.length < 2) continue;
    content.add(word);
    const first = match.index === 0 || /[:.!?]\s*$/u.test(value.slice(Math.max(0, match.index - 3), match.index));
    if (/\p{N}/u.test(match[0]) || (!first && /^\p{Lu}/u.test(match[0]))) specific.add(word);
  }
  return { content, specific };
}

/**
 * Whether two statements restate the same thing ("never work Saturdays", "don't schedule anything on a
 * Saturday, ever"): their content words overlap by half (shared over all), or by a third when what they
 * share includes a specific word (a name, a day, a number) that both write as specific. "Never schedule
 * anything on a Saturday" and "never send invoices on a Saturday" share a quarter: two rules.
 */
export function restates(left: string, right: string): boolean {
  const a = aboutWords(left);
  const b = aboutWords(right);
  let shared = 0;
  let specific = false;
  for (const word of a.content) {
    if (!b.content.has(word)) continue;
    shared += 1;
    if (a.specific.has(word) && b.specific.has(word)) specific = true;
  }
  const overlap = shared / Math.max(1, new Set([...a.content, ...b.content]).size);
  return overlap >= 0.5 || (specific && overlap >= 1 / 3);
}

/** Words saying a statement changes what held before ("now", "instead", "no longer", "not €65"). */
const CHANGE = /\b(?:now|actually|instead|changed?|changes|no longer|any ?more|from now on|switch(?:ed|ing)?|not (?:the |a |an )?\S+)\b/iu;

/** Whether the statement says it changes something (see `CHANGE`). */
export function saysChange(text: string): boolean {
  return CHANGE.test(text);
}

/** The text cut at a word so it holds at most `MAX_MEMORY_VALUE` characters (with `…` when cut). */
export function memoryValueOf(text: string): string {
  const characters = [...text.trim()];
  if (characters.length <= MAX_MEMORY_VALUE) return characters.join('');
  const head = characters.slice(0, MAX_MEMORY_VALUE - 1).join('');
  const cut = head.lastIndexOf(' ');
  return `${(cut > MAX_MEMORY_VALUE / 2 ? head.slice(0, cut) : head).trimEnd()}…`;
}

/** What the fact becomes in long-term memory, or null when it belongs to its session alone. */
export function promotionOf(fact: Pick<Fact, 'key' | 'kind' | 'text'>): Promotion | null {
  const subject = subjectOf(fact.key);
  if (subject === '' || !stands(fact.kind, fact.text, subject)) return null;
  return { subject, tag: TAG_OF_KIND[fact.kind], value: memoryValueOf(fact.text) };
}

/** Words of taste: a statement holding one is a preference. */
const TASTE = /\b(?:prefers?|preferred|likes?|loves?|enjoys?|hates?|dislikes?|favou?rite|rather|can't stand|cannot stand|fond of)\b/iu;

/**
 * The broad tag a memory made by hand starts with, as promotion would give it (`rules`, `preferences`,
 * `goals`, `profile`), or null when its words say none of these.
 */
export function broadTagOf(text: string): string | null {
  if (TASTE.test(text)) return 'preferences';
  if (LONG_LIVED.test(text)) return 'goals';
  if (IDENTITY.test(text)) return 'profile';
  if (STANDING.test(text)) return 'rules';
  return null;
}
