/**
 * Analysis of one message: code blocks apart, sentences, tokens, cues, specifics.
 * Every sentence gets cheap lexicon tagging (compromise's word list plus closed-class lists). The costly
 * NLP runs only where it pays and only up to `maxAnalysedWords` words per message, sentences with cue
 * words first: compromise tagging on sentences with a rule, goal, preference or correction cue that hold
 * words the lexicon does not know (at most `maxTaggedSentences` per turn); the date parser around date words and
 * date-shaped digits ("today", "yesterday", "tomorrow" alone are resolved without it).
 */
import { finish, mappingInSlices } from '../../core/slices.js';
import { isWhitespace } from '../../core/text.js';
import type { TurnMessageInput } from '../memory-manager.js';
import { findCodeBlocks, proseOf } from './code-blocks.js';
import type { CodeBlock } from './code-blocks.js';
import { findCues } from './cues.js';
import type { Cue } from './cues.js';
import { mayHaveDate, type DateReference } from './dates.js';
import { findSpecifics } from './entities.js';
import type { Specific } from './specifics.js';
import { PRONOUNS, QUESTION_OPENERS, QUESTION_WORDS, SMALL_TALK_WORDS } from './function-words.js';
import { splitSentences } from './sentences.js';
import { isUnknownWord, tagInPlace, tagWithCompromise } from './tagging.js';
import type { TaggedToken, TaggerMode } from './tagging.js';
import { tokenize } from './tokens.js';

export interface AnalysedSentence {
  /** Position of the sentence in its message. */
  index: number;
  /** The sentence, whitespace collapsed, markdown decoration removed. */
  text: string;
  tokens: TaggedToken[];
  /** Whether compromise tagged the sentence (false: lexicon tagging only). */
  tagged: boolean;
  cues: Cue[];
  specifics: Specific[];
  question: boolean;
  /** Greeting, thanks, reaction: nothing to remember. */
  smallTalk: boolean;
}

export interface AnalysedMessage {
  message: TurnMessageInput;
  codeBlocks: CodeBlock[];
  /** The message without its code blocks. */
  prose: string;
  sentences: AnalysedSentence[];
  /** Words of the prose (code excluded). */
  words: number;
  /** Every sentence is small talk and there is no code. */
  smallTalk: boolean;
}

export interface AnalysisOptions {
  maxAnalysedWords: number;
  /** Words of the prose read at all; a longer message is read to there (see `LocalManagerSettings.maxReadWords`). */
  maxReadWords: number;
  /**
   * Sentences compromise may still tag in this turn; shared by the turn's messages and decreased
   * as they are tagged (the most telling sentences of each message first).
   */
  taggingBudget: { sentences: number };
  tagger: TaggerMode;
  reference: DateReference;
}

/** Longest sentence worth compromise's time (longer ones are lists or run-ons: lexicon tagging suffices). */
const MAX_TAGGED_SENTENCE_WORDS = 40;

interface Draft {
  index: number;
  text: string;
  tokens: TaggedToken[];
  cues: Cue[];
  /** May hold a specific (digit, name, date word): worth looking for specifics. */
  candidate: boolean;
  /** May hold a date: worth the date parser. */
  dated: boolean;
  /** Would gain from compromise tagging: a statement candidate with words the lexicon does not know. */
  needsTagging: boolean;
  question: boolean;
}

const CUE_RANK: Readonly<Record<Cue['kind'], number>> = { exception: 6, constraint: 5, correction: 4, removal: 4, goal: 3, preference: 2 };

/** How much a sentence's cues make it worth analysing: rules before corrections, goals, preferences. */
function cueRank(cues: readonly Cue[]): number {
  let rank = 0;
  for (const cue of cues) if (!cue.weak) rank = Math.max(rank, cue.keyword ? 1 : CUE_RANK[cue.kind]);
  return rank;
}

function hasNameShape(tokens: readonly TaggedToken[]): boolean {
  return tokens.some(
    (token, index) =>
      (index > 0 && token.capitalised && token.lower !== 'i' && !token.lower.startsWith("i'")) ||
      (token.text !== token.lower && /.\p{Lu}/u.test(token.text)) ||
      token.entity !== null,
  );
}

function isQuestion(text: string, tokens: readonly TaggedToken[]): boolean {
  if (/\?\s*["')\]]*$/u.test(text)) return true;
  if (/[.!]\s*$/u.test(text)) return false;
  const first = tokens[0]?.lower ?? '';
  const second = tokens[1]?.lower ?? '';
  return QUESTION_WORDS.has(first) || (QUESTION_OPENERS.has(first) && PRONOUNS.has(second));
}

function isSmallTalk(tokens: readonly TaggedToken[], cues: readonly Cue[], specifics: readonly Specific[]): boolean {
  if (cues.some((cue) => !cue.weak && cue.kind !== 'preference')) return false;
  if (specifics.some((item) => item.type !== 'date' && (item.type !== 'name' || item.entity !== 'person'))) return false;
  return tokens.every((token) => SMALL_TALK_WORDS.has(token.lower) || token.entity === 'person' || (token.capitalised && token.pos === 'proper'));
}

/** Where the `count`-th word of `text` ends, scanning from the start (`text.length` when it has fewer). */
function endOfWords(text: string, count: number): number {
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index += 1) {
    const space = isWhitespace(text.charCodeAt(index));
    if (space && inWord && words >= count) return index;
    if (!space && !inWord) words += 1;
    inWord = !space;
  }
  return text.length;
}

/** Where the last `count` words of `text` start (0 when it has fewer). */
function startOfLastWords(text: string, count: number): number {
  let words = 0;
  let inWord = false;
  for (let index = text.length - 1; index >= 0; index -= 1) {
    const space = isWhitespace(text.charCodeAt(index));
    if (space && inWord && words >= count) return index + 1;
    if (!space && !inWord) words += 1;
    inWord = !space;
  }
  return 0;
}

/**
 * The part of a message read when it has more than `max` words: its beginning and, a sixth of `max`,
 * its end (where a long paste often says what is asked or ruled), joined by an ellipsis. Linear in that
 * part, whatever the message's length.
 */
export function readPart(text: string, max: number): string {
  const tail = Math.floor(max / 6);
  const head = endOfWords(text, max - tail);
  if (head === text.length) return text;
  const end = startOfLastWords(text, tail);
  return end <= head ? text : `${text.slice(0, head)}\n…\n${text.slice(end)}`;
}

/**
 * Sentences analysed between two yields of `analysing`: one, as parsing a sentence's dates may take
 * milliseconds (whoever runs the slices decides how many go between two turns of the event loop).
 */
const SENTENCES_PER_SLICE = 1;

/** Analyse one message of a turn, all at once. */
export function analyseMessage(message: TurnMessageInput, options: AnalysisOptions): AnalysedMessage {
  return finish(analysing(message, options));
}

/** Analyse one message of a turn, yielding between slices of its sentences. */
export function* analysing(message: TurnMessageInput, options: AnalysisOptions): Generator<void, AnalysedMessage, void> {
  const codeBlocks = findCodeBlocks(message.content);
  const prose = readPart(proseOf(message.content, codeBlocks), options.maxReadWords);
  const drafts: Draft[] = yield* mappingInSlices(splitSentences(prose), SENTENCES_PER_SLICE, (text, index) => {
    const tokens = tagInPlace(tokenize(text));
    const cues = findCues(tokens);
    const named = hasNameShape(tokens);
    const digits = tokens.some((token) => token.hasDigit);
    const dated = mayHaveDate(tokens);
    const candidate = named || digits || dated || cues.length > 0;
    // compromise tags the sentences whose key matters most: rules, goals, preferences and corrections
    // with words the lexicon does not know.
    const ruleCue = cues.some((cue) => !cue.weak && !cue.keyword);
    const question = isQuestion(text, tokens);
    const needsTagging = ruleCue && tokens.length <= MAX_TAGGED_SENTENCE_WORDS && !question && tokens.some(isUnknownWord);
    return { index, text, tokens, cues, candidate, dated, needsTagging, question };
  });

  // The NLP budget goes to sentences with cues first, then the others, in order.
  const analysed = new Set<number>();
  const tagging = new Set<number>();
  let budget = options.maxAnalysedWords;
  const ranked = drafts
    .filter((draft) => draft.needsTagging || draft.dated)
    .sort((a, b) => cueRank(b.cues) - cueRank(a.cues) || a.index - b.index);
  for (const draft of ranked) {
    if (draft.tokens.length > budget) continue;
    budget -= draft.tokens.length;
    analysed.add(draft.index);
    if (draft.needsTagging && options.taggingBudget.sentences > 0) {
      options.taggingBudget.sentences -= 1;
      tagging.add(draft.index);
    }
  }

  const sentences = yield* mappingInSlices(drafts, SENTENCES_PER_SLICE, (draft): AnalysedSentence => {
    const withinBudget = analysed.has(draft.index);
    const tagged = tagging.has(draft.index);
    const tokens = tagged ? tagWithCompromise(draft.text, draft.tokens, options.tagger) : draft.tokens;
    // Tagging may change parts of speech, never the words: cues found on the lexicon tags stay valid.
    const specifics = draft.candidate ? findSpecifics(draft.text, tokens, { dates: withinBudget && draft.dated, reference: options.reference }) : [];
    return {
      index: draft.index,
      text: draft.text,
      tokens,
      tagged,
      cues: draft.cues,
      specifics,
      // Tagging changes parts of speech, not the words or the punctuation a question is read from.
      question: tagged ? isQuestion(draft.text, tokens) : draft.question,
      smallTalk: isSmallTalk(tokens, draft.cues, specifics),
    };
  });
  const words = sentences.reduce((sum, sentence) => sum + sentence.tokens.length, 0);
  return {
    message,
    codeBlocks,
    prose,
    sentences,
    words,
    smallTalk: codeBlocks.length === 0 && sentences.every((sentence) => sentence.smallTalk),
  };
}
