import { isWhitespace } from '../../core/text.js';

/** A whitespace-delimited word of a sentence, with its surrounding punctuation split off. */
export interface Token {
  /** The word as written, without leading or trailing punctuation. */
  text: string;
  /** Lower-case form with curly apostrophes straightened. */
  lower: string;
  /** Offset of `text` in the sentence. */
  start: number;
  /** Offset just after `text` in the sentence. */
  end: number;
  /** Punctuation written right after the word ('' when none), including stand-alone dashes that follow. */
  trailing: string;
  /** Whether the word starts with an upper-case letter. */
  capitalised: boolean;
  /** Whether the word contains a digit. */
  hasDigit: boolean;
}

/** Coarse part of speech: enough to find subjects, verbs and noun phrases. */
export type PartOfSpeech =
  | 'noun'
  | 'proper'
  | 'verb'
  | 'adjective'
  | 'adverb'
  | 'determiner'
  | 'pronoun'
  | 'preposition'
  | 'conjunction'
  | 'copula'
  | 'modal'
  | 'auxiliary'
  | 'negation'
  | 'value'
  | 'date'
  | 'question'
  | 'other';

export type EntityType = 'person' | 'place' | 'organization';

/** A token with its part of speech (`tokenize` gives untagged ones, which `tagInPlace` tags). */
export interface TaggedToken extends Token {
  pos: PartOfSpeech;
  /** Named-entity class from the NLP lexicon or tagger; null when unknown. */
  entity: EntityType | null;
  /** Whether the verb is in the past tense or a past participle. */
  past: boolean;
}

const LEADING_PUNCTUATION = new Set([...'("\'“‘[{*_`<>•-–—'].map((character) => character.charCodeAt(0)));
const TRAILING_PUNCTUATION = new Set([...')"\'”’]}*_`.,!?;:…>-–—'].map((character) => character.charCodeAt(0)));
const WORD_CHARACTER = /[\p{L}\p{N}$€£¥%#@]/u;
const NON_ASCII = /[^\t\n\r -~]/u;
const LETTER_DOT_LETTER = /\p{L}\.\p{L}$/u;
const NUMBER = /\p{N}/u;

function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Whether the word holds a letter, a digit or one of $ € £ ¥ % # @. */
function hasWordCharacter(core: string): boolean {
  for (let index = 0; index < core.length; index += 1) {
    const code = core.charCodeAt(index);
    if (isAsciiLetterOrDigit(code) || code === 0x24 || code === 0x25 || code === 0x23 || code === 0x40) return true;
    if (code > 0x7f) return WORD_CHARACTER.test(core);
  }
  return false;
}

/** A code that names something ("H1", "H2", "PM10", "B12"), not a value; a quarter ("Q3") is a date. */
const CODE_NAME = /^(?!Q[1-4]$)[A-Z]{1,3}\d{1,2}$/u;

function hasDigitIn(core: string, ascii: boolean): boolean {
  if (!ascii) return NUMBER.test(core);
  for (let index = 0; index < core.length; index += 1) {
    const code = core.charCodeAt(index);
    if (code >= 0x30 && code <= 0x39) return true;
  }
  return false;
}

/**
 * Split a sentence into word tokens. Pure punctuation is attached to the previous token's `trailing`.
 * The tokens carry untagged part-of-speech fields, so tagging fills them in place.
 */
export function tokenize(sentence: string): TaggedToken[] {
  const tokens: TaggedToken[] = [];
  const length = sentence.length;
  let index = 0;
  while (index < length) {
    while (index < length && isWhitespace(sentence.charCodeAt(index))) index += 1;
    if (index >= length) break;
    const offset = index;
    while (index < length && !isWhitespace(sentence.charCodeAt(index))) index += 1;
    const chunkEnd = index;
    let coreStart = offset;
    while (coreStart < chunkEnd && LEADING_PUNCTUATION.has(sentence.charCodeAt(coreStart))) coreStart += 1;
    let coreEnd = chunkEnd;
    while (coreEnd > coreStart && TRAILING_PUNCTUATION.has(sentence.charCodeAt(coreEnd - 1))) coreEnd -= 1;
    let core = sentence.slice(coreStart, coreEnd);
    let trailing = sentence.slice(coreEnd, chunkEnd);
    // Keep the dot of an abbreviation such as "U.S." or "e.g." inside the word.
    if (trailing.startsWith('.') && LETTER_DOT_LETTER.test(core)) {
      core = `${core}.`;
      trailing = trailing.slice(1);
    }
    if (core === '' || !hasWordCharacter(core)) {
      const previous = tokens[tokens.length - 1];
      if (previous !== undefined) previous.trailing += sentence.slice(offset, chunkEnd);
      continue;
    }
    const ascii = !NON_ASCII.test(core);
    let lower = core.toLowerCase();
    if (!ascii && (lower.includes('’') || lower.includes('‘'))) lower = lower.replace(/[’‘]/gu, "'");
    const first = core.charAt(0);
    tokens.push({
      text: core,
      lower,
      start: coreStart,
      end: coreStart + core.length,
      trailing,
      capitalised: first !== first.toLowerCase() && first === first.toUpperCase(),
      hasDigit: hasDigitIn(core, ascii) && !CODE_NAME.test(core),
      pos: 'other',
      entity: null,
      past: false,
    });
  }
  return tokens;
}

/** Whether a clause ends after this token (comma, semicolon, colon, dash, sentence end). */
export function endsClause(token: Token): boolean {
  return /[,;:.!?…–—-]/u.test(token.trailing);
}

/** The sentence text from the start of token `from` to the end of token `to` (inclusive), verbatim. */
export function sliceTokens(sentence: string, tokens: readonly Token[], from: number, to: number): string {
  const first = tokens[from];
  const last = tokens[to];
  if (first === undefined || last === undefined || to < from) return '';
  return sentence.slice(first.start, last.end);
}
