import { scopedMemo } from '../../core/memo-space.js';
import { mapPacked } from '../../core/packed-map.js';
import {
  AUXILIARIES,
  CONJUNCTIONS,
  COPULAS,
  DETERMINERS,
  MODALS,
  MONTHS,
  NEGATIONS,
  PREPOSITIONS,
  PRONOUNS,
  QUESTION_WORDS,
  WEEKDAYS,
} from './function-words.js';
import { lexiconTag, nlp } from './compromise-lexicon.js';
import { fixByNeighbours, fixCopulaSubjects, fixDescribedNouns, fixFamilyNames, fixImperatives, fixParticles } from './tag-repairs.js';
import type { EntityType, PartOfSpeech, TaggedToken, Token } from './tokens.js';

export type { EntityType, PartOfSpeech, TaggedToken } from './tokens.js';

/**
 * `fast`: compromise's lexicon and pre-tagger (about 0.15 ms per sentence);
 * `accurate`: the full compromise pipeline with its post-tagger corrections (about 0.6 ms per sentence).
 */
export type TaggerMode = 'fast' | 'accurate';

const FAST_HOOKS = ['lexicon', 'contractionTwo', 'preTagger'];

const PERSON_TAGS = new Set(['Person', 'FirstName', 'MaleName', 'FemaleName', 'LastName', 'Honorific']);
const PLACE_TAGS = new Set(['Place', 'Country', 'City', 'Region', 'Address']);
const ORGANIZATION_TAGS = new Set(['Organization', 'SportsTeam', 'School', 'Company']);
const DATE_TAGS = new Set(['Date', 'Month', 'WeekDay', 'Holiday', 'Time', 'Year']);
const VERB_TAGS = new Set(['Verb', 'PresentTense', 'Infinitive', 'Imperative', 'Gerund', 'PastTense', 'Participle', 'PhrasalVerb']);
const ADJECTIVE_TAGS = new Set(['Adjective', 'Comparative', 'Superlative', 'Comparable']);
const VALUE_TAGS = new Set(['Value', 'Cardinal', 'NumericValue', 'Money', 'Percent', 'Ordinal', 'TextValue', 'Fraction']);
const NOUN_TAGS = new Set(['Noun', 'Singular', 'Plural', 'Uncountable', 'Actor', 'Activity', 'Unit', 'Demonym', 'Acronym']);

function entityOfTags(tags: ReadonlySet<string>): EntityType | null {
  for (const tag of tags) {
    if (PERSON_TAGS.has(tag)) return 'person';
    if (PLACE_TAGS.has(tag)) return 'place';
    if (ORGANIZATION_TAGS.has(tag)) return 'organization';
  }
  return null;
}

/** Part of speech of closed-class words, decided by our own lists (more reliable than a tagger). */
function closedClassOf(lower: string): PartOfSpeech | null {
  // "I've", "we'd", "let's": a pronoun carrying a verb; the statement code reads the verb from the contraction.
  if (/^(?:i|we|you|he|she|they|it|that|there|let|here|what|who)'(?:m|re|s|ve|d|ll)$/u.test(lower)) return 'pronoun';
  if (NEGATIONS.has(lower) && !MODALS.has(lower) && !AUXILIARIES.has(lower) && !COPULAS.has(lower)) return 'negation';
  if (COPULAS.has(lower)) return 'copula';
  if (MODALS.has(lower)) return 'modal';
  if (AUXILIARIES.has(lower)) return 'auxiliary';
  if (QUESTION_WORDS.has(lower)) return 'question';
  if (PRONOUNS.has(lower)) return 'pronoun';
  if (DETERMINERS.has(lower)) return 'determiner';
  if (lower === 'to') return 'preposition';
  if (PREPOSITIONS.has(lower) && lower !== 'like') return 'preposition';
  if (CONJUNCTIONS.has(lower)) return 'conjunction';
  return null;
}

/** Every closed-class word with its part of speech, built once. */
const CLOSED_CLASS: ReadonlyMap<string, PartOfSpeech> = (() => {
  const map = new Map<string, PartOfSpeech>();
  for (const set of [NEGATIONS, COPULAS, MODALS, AUXILIARIES, QUESTION_WORDS, PRONOUNS, DETERMINERS, PREPOSITIONS, CONJUNCTIONS]) {
    for (const word of set) {
      const pos = closedClassOf(word);
      if (pos !== null) map.set(word, pos);
    }
  }
  map.set('to', 'preposition');
  return map;
})();

interface TagInfo {
  pos: PartOfSpeech;
  entity: EntityType | null;
  past: boolean;
}

/** What a single lexicon tag means; the lexicon uses about a hundred distinct tags, so this stays small. */
const TAG_INFO = new Map<string, TagInfo>();

function tagInfo(tag: string): TagInfo {
  let info = TAG_INFO.get(tag);
  if (info === undefined) {
    const tags = new Set([tag]);
    info = { pos: posOfTags(tags), entity: entityOfTags(tags), past: isPastTags(tags) };
    TAG_INFO.set(tag, info);
  }
  return info;
}

/** Endings that tell a word's class well enough without a tagger. */
const TELLING_SUFFIX = /(?:ly|ing|ed|tion|sion|ness|ment|ity|ship|ism|ist|ance|ence|ous|ful|less|able|ible|ive|ize|ise)$/u;

/**
 * Whether neither the lexicon, the closed-class lists nor the word's shape tell its class:
 * such words are what compromise's tagger (suffix and neighbour models) is for.
 */
export function isUnknownWord(token: Token): boolean {
  if (token.capitalised || token.hasDigit) return false;
  const lower = token.lower.endsWith("'s") ? token.lower.slice(0, -2) : token.lower;
  if (CLOSED_CLASS.has(lower) || lexiconTag(lower) !== undefined || TELLING_SUFFIX.test(lower)) return false;
  if (lower.endsWith('ies') && lexiconTag(`${lower.slice(0, -3)}y`) !== undefined) return false;
  if (lower.endsWith('es') && lexiconTag(lower.slice(0, -2)) !== undefined) return false;
  if (lower.endsWith('s') && lexiconTag(lower.slice(0, -1)) !== undefined) return false;
  return /^\p{L}[\p{L}'-]*$/u.test(lower);
}

function posOfTags(tags: ReadonlySet<string>): PartOfSpeech {
  const has = (set: ReadonlySet<string>): boolean => {
    for (const tag of tags) if (set.has(tag)) return true;
    return false;
  };
  if (has(VALUE_TAGS)) return 'value';
  if (has(DATE_TAGS) && !tags.has('Duration')) return 'date';
  if (tags.has('ProperNoun') || has(PERSON_TAGS) || has(PLACE_TAGS) || has(ORGANIZATION_TAGS)) return 'proper';
  if (tags.has('Copula')) return 'copula';
  if (tags.has('Modal')) return 'modal';
  if (tags.has('Auxiliary')) return 'auxiliary';
  if (tags.has('Negative')) return 'negation';
  if (tags.has('Pronoun')) return 'pronoun';
  if (tags.has('Determiner')) return 'determiner';
  if (tags.has('Preposition')) return 'preposition';
  if (tags.has('Conjunction')) return 'conjunction';
  if (tags.has('QuestionWord')) return 'question';
  if (has(VERB_TAGS)) return 'verb';
  if (has(ADJECTIVE_TAGS)) return 'adjective';
  if (tags.has('Adverb')) return 'adverb';
  if (has(NOUN_TAGS)) return 'noun';
  return 'other';
}

function isPastTags(tags: ReadonlySet<string>): boolean {
  return tags.has('PastTense') || tags.has('Participle');
}

/** Guess the part of speech of a word no list knows, from its shape. */
function guessFromShape(token: Token, first: boolean): { pos: PartOfSpeech; past: boolean } {
  if (token.hasDigit || /^[$€£¥]/u.test(token.text)) return { pos: 'value', past: false };
  if (token.capitalised && (!first || /\p{Lu}.*\p{Lu}|\d/u.test(token.text.slice(1)))) return { pos: 'proper', past: false };
  const lower = token.lower;
  if (/ly$/u.test(lower)) return { pos: 'adverb', past: false };
  if (/ed$/u.test(lower)) return { pos: 'verb', past: true };
  if (/ing$/u.test(lower)) return { pos: 'verb', past: false };
  if (/(?:ous|ful|ive|able|ible|less|ic|al)$/u.test(lower)) return { pos: 'adjective', past: false };
  if (token.capitalised && first) return { pos: 'noun', past: false };
  return { pos: 'noun', past: false };
}

function tagged(token: Token, pos: PartOfSpeech, entity: EntityType | null, past: boolean): TaggedToken {
  return {
    text: token.text,
    lower: token.lower,
    start: token.start,
    end: token.end,
    trailing: token.trailing,
    capitalised: token.capitalised,
    hasDigit: token.hasDigit,
    pos,
    entity,
    past,
  };
}

/** What the word lists say about a lower-case word: a date word, a closed-class word, a lexicon entry, or nothing. */
type WordClass =
  | { type: 'month' }
  | { type: 'weekday' }
  | { type: 'closed'; pos: PartOfSpeech }
  | { type: 'lexicon'; info: TagInfo }
  | { type: 'unknown' };

function classify(lower: string): WordClass {
  if (MONTHS.has(lower)) return { type: 'month' };
  if (WEEKDAYS.has(lower)) return { type: 'weekday' };
  const closed = CLOSED_CLASS.get(lower);
  if (closed !== undefined) return { type: 'closed', pos: closed };
  const tag = lexiconTag(lower.endsWith("'s") ? lower.slice(0, -2) : lower);
  return tag === undefined ? { type: 'unknown' } : { type: 'lexicon', info: tagInfo(tag) };
}

/** Word classes by lower-case word, remembered (the lists never change). */
const wordClass = scopedMemo(classify);

/** Tag tokens from word lists only: compromise's lexicon plus shape rules. Costs about a microsecond per word. */
export function tagWithLexicon(tokens: readonly Token[]): TaggedToken[] {
  return tagInPlace(mapPacked(tokens, (token) => tagged(token, 'other', null, false)));
}

/** `tagWithLexicon` on tokens from `tokenize`, which carry their (untagged) fields already: no copies are made. */
export function tagInPlace(tokens: TaggedToken[]): TaggedToken[] {
  const set = (token: TaggedToken, pos: PartOfSpeech, entity: EntityType | null, past: boolean): void => {
    token.pos = pos;
    token.entity = entity;
    token.past = past;
  };
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) continue;
    const lower = token.lower;
    let word = wordClass(lower);
    if (word.type === 'month') {
      if (token.capitalised && (index > 0 || lower !== 'may')) {
        set(token, 'date', null, false);
        continue;
      }
      // A month name written in lower case ("may", "march") is an ordinary word.
      const closed = CLOSED_CLASS.get(lower);
      const tag = closed === undefined ? lexiconTag(lower.endsWith("'s") ? lower.slice(0, -2) : lower) : undefined;
      word = closed !== undefined ? { type: 'closed', pos: closed } : tag === undefined ? { type: 'unknown' } : { type: 'lexicon', info: tagInfo(tag) };
    }
    if (word.type === 'weekday') {
      set(token, 'date', null, false);
      continue;
    }
    if (word.type === 'closed') {
      set(token, word.pos, null, false);
      continue;
    }
    if (word.type === 'lexicon') {
      const info = word.info;
      const proper = token.capitalised && index > 0 && (info.pos === 'noun' || info.pos === 'other' || info.pos === 'adjective');
      set(token, proper ? 'proper' : info.pos, info.entity, info.past);
      continue;
    }
    const guess = guessFromShape(token, index === 0);
    set(token, guess.pos, null, guess.past);
  }
  fixByNeighbours(tokens);
  return tokens;
}

/**
 * Tag tokens with compromise: the sentence is tagged as a whole and each token takes the tags of the
 * compromise term that starts inside it. Closed-class words keep the part of speech of our own lists.
 * `lexical` is the lexicon tagging of the sentence's tokens (`tagWithLexicon`), which this refines.
 */
export function tagWithCompromise(sentence: string, lexical: readonly TaggedToken[], mode: TaggerMode): TaggedToken[] {
  const document = mode === 'accurate' ? nlp(sentence) : nlp.tokenize(sentence).compute(FAST_HOOKS);
  const starts: { start: number; tags: ReadonlySet<string> }[] = [];
  let cursor = 0;
  for (const phrase of document.docs) {
    for (const term of phrase) {
      if (term.text === '') continue;
      const at = sentence.indexOf(term.text, cursor);
      if (at < 0) continue;
      starts.push({ start: at, tags: term.tags ?? new Set<string>() });
      cursor = at + term.text.length;
    }
  }
  let next = 0;
  const result = mapPacked(lexical, (token) => {
    while (next < starts.length && (starts[next]?.start ?? Infinity) < token.start) next += 1;
    // The term that starts at or inside the token (a leading bracket may belong to the term).
    let found: ReadonlySet<string> | undefined;
    const candidate = starts[next];
    if (candidate !== undefined && candidate.start < token.end) found = candidate.tags;
    else {
      const previous = starts[next - 1];
      if (previous !== undefined && previous.start >= token.start - 2) found = previous.tags;
    }
    if (found === undefined) return token;
    if (token.pos === 'date' || CLOSED_CLASS.has(token.lower)) return token;
    let pos = posOfTags(found);
    if (pos === 'other') pos = token.pos;
    // A capitalised word in the middle of a sentence is a name, whatever the tagger thought.
    if (token.capitalised && token.start > 0 && (pos === 'noun' || pos === 'adjective' || pos === 'verb')) pos = 'proper';
    const entity = entityOfTags(found) ?? token.entity;
    return tagged(token, pos, entity, isPastTags(found) || token.past);
  });
  fixFamilyNames(result);
  fixDescribedNouns(result);
  fixImperatives(result);
  fixCopulaSubjects(result);
  fixParticles(result);
  return result;
}

/** Run compromise once so its lazily built models are ready before the first real turn. */
export function warmUpTagger(mode: TaggerMode): void {
  const sentence = 'We must never store the customers passwords in plaintext backlogs.';
  tagWithCompromise(sentence, tagWithLexicon(tokenizeForWarmUp(sentence)), mode);
}

function tokenizeForWarmUp(sentence: string): Token[] {
  let offset = 0;
  return sentence.split(' ').map((word) => {
    const start = offset;
    offset += word.length + 1;
    const text = word.replace(/\.$/u, '');
    return { text, lower: text.toLowerCase(), start, end: start + text.length, trailing: word.endsWith('.') ? '.' : '', capitalised: /^\p{Lu}/u.test(text), hasDigit: false };
  });
}
