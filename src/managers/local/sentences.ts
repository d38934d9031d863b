/**
 * Sentence splitting, tidied for chat text (markdown, abbreviations). The Unicode sentence-break rules
 * (UAX #29, as the ICU segmenter applies them) are implemented directly for ordinary text, which is
 * several times faster than the segmenter; lines with characters those rules treat specially
 * (format and combining characters, other scripts' punctuation, separators) go to the ICU segmenter.
 */
import { mapPacked } from '../../core/packed-map.js';

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Characters the fast splitter does not model: separators, format and combining characters, and
 * punctuation outside Latin-1 other than quotes, dashes, the ellipsis, guillemets and bullets.
 */
const UNUSUAL =
  /[\r\u0085\u2028\u2029\u203c\u2049\p{Cf}\p{M}]|(?!\p{Extended_Pictographic})[\u{10000}-\u{10ffff}]|(?![\u2013\u2014\u2018-\u201f\u2022\u2026\u2039\u203a\u20ac\p{Extended_Pictographic}])[^\t -\u024f\p{L}\p{N}]/u;

const CLOSE = new Set([...'"\'()[]{}«»“”‘’„‚‹›'].map((character) => character.charCodeAt(0)));
const SENTENCE_CONTINUE = new Set([...',-:;–—'].map((character) => character.charCodeAt(0)));
const UPPER = /[\p{Uppercase}\p{Lt}]/u;
const LOWER = /\p{Lowercase}/u;
const LETTER = /\p{Alphabetic}/u;
const DIGIT = /\p{Nd}/u;

function isTerminator(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === 0x3f;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0xa0 || code === 0x0b || code === 0x0c || (code >= 0x2000 && code <= 0x200a) || code === 0x202f || code === 0x205f || code === 0x3000;
}

/** Sentence segments of a line, as the ICU segmenter gives them for text without unusual characters. */
function segmentFast(text: string): string[] {
  const segments: string[] = [];
  let start = 0;
  const length = text.length;
  for (let index = 0; index < length; index += 1) {
    if (!isTerminator(text.charCodeAt(index))) continue;
    let last = index;
    while (last + 1 < length && isTerminator(text.charCodeAt(last + 1))) last += 1;
    const fullStop = text.charCodeAt(last) === 0x2e;
    let next = last + 1;
    while (next < length && CLOSE.has(text.charCodeAt(next))) next += 1;
    while (next < length && isSpace(text.charCodeAt(next))) next += 1;
    index = last;
    if (next >= length) break;
    const following = text.charCodeAt(next);
    if (SENTENCE_CONTINUE.has(following) || isTerminator(following)) continue;
    if (fullStop) {
      const adjacent = next === last + 1;
      // "3.5"; "U.S"; "e.g. the", "etc. and": no sentence end.
      if (adjacent && DIGIT.test(text.charAt(next))) continue;
      const before = text.charAt(last - 1);
      if (adjacent && last > 0 && (UPPER.test(before) || LOWER.test(before)) && UPPER.test(text.charAt(next))) continue;
      let probe = next;
      while (probe < length && !LETTER.test(text.charAt(probe)) && !isTerminator(text.charCodeAt(probe))) probe += 1;
      if (probe < length && LOWER.test(text.charAt(probe))) continue;
    }
    segments.push(text.slice(start, next));
    start = next;
  }
  if (start < length) segments.push(text.slice(start));
  return segments;
}

/** Sentence segments of a line (untrimmed, as the ICU segmenter gives them). */
export function segmentLine(text: string): string[] {
  if (UNUSUAL.test(text)) return [...SEGMENTER.segment(text)].map((part) => part.segment);
  return segmentFast(text);
}

/** Abbreviations after which ICU wrongly ends a sentence ("Dr. Smith"). */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'sr', 'jr', 'vs', 'etc', 'e.g', 'i.e', 'eg', 'ie', 'approx',
  'fig', 'inc', 'ltd', 'co', 'corp', 'mt', 'ft', 'dept', 'est', 'vol', 'cf', 'al',
]);

/** A sentence that only stresses the one before it. */
const EMPHASIS_ONLY = /^(?:ever|never|never ever|period|full stop|no exceptions|not ever|none of it)[.!]*$/iu;

/** Lines longer than this go to the segmenter in pieces: its cost grows faster than linearly with the input. */
const SEGMENTER_CHUNK = 2000;

/** Cut a long line after a sentence end ("… deploy. The …") roughly every `SEGMENTER_CHUNK` characters. */
function chunksOf(line: string): string[] {
  if (line.length <= SEGMENTER_CHUNK) return [line];
  const chunks: string[] = [];
  let start = 0;
  const boundary = /[.!?…]["')\]]*\s+(?=\S)/gu;
  while (line.length - start > SEGMENTER_CHUNK) {
    boundary.lastIndex = start + SEGMENTER_CHUNK / 2;
    const match = boundary.exec(line);
    // No sentence end nearby: cut at a space, so no word is split.
    const space = line.lastIndexOf(' ', start + SEGMENTER_CHUNK);
    const end = match !== null ? match.index + match[0].length : space > start ? space + 1 : start + SEGMENTER_CHUNK;
    chunks.push(line.slice(start, end));
    start = end;
  }
  chunks.push(line.slice(start));
  return chunks;
}

/** Remove markdown decoration that carries no words: list bullets, headings, quotes, emphasis, backticks. */
function cleanLine(line: string): string {
  let cleaned = line.trim();
  if (/^(?:[-*+•>#]|\d{1,3}[.)])/u.test(cleaned)) cleaned = cleaned.replace(/^(?:[-*+•]|\d{1,3}[.)]|#{1,6}|>+)\s+/u, '');
  if (cleaned.includes('`') || cleaned.includes('**') || cleaned.includes('__')) cleaned = cleaned.replace(/\*\*|__|`/gu, '');
  return /\s\s|[\t\r\f\v\u00a0]/u.test(cleaned) ? cleaned.replace(/\s+/gu, ' ').trim() : cleaned;
}

/** A sentence end followed by a sentence that opens with an amount: "my mistake. £790 is silly money". */
// (The look-behind anchors the word's start: without it a long lower-case run backtracks quadratically.)
const BEFORE_AMOUNT = /(?<!\p{Ll})(\p{Ll}{2,})[.!?]["')\]]*\s+(?=[£$€¥]\s?\d|\d[\d,.]*\s)/gu;

/**
 * Where a chat sentence opens with an amount, a new sentence starts: the Unicode rules read the word
 * after it ("£790 is …") as lower case and run on. Not after an abbreviation ("approx. £5").
 */
function splitBeforeAmounts(segment: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const match of segment.matchAll(BEFORE_AMOUNT)) {
    if (ABBREVIATIONS.has((match[1] ?? '').toLowerCase())) continue;
    const end = (match.index ?? 0) + match[0].length;
    pieces.push(segment.slice(start, end));
    start = end;
  }
  if (start === 0) return [segment];
  pieces.push(segment.slice(start));
  return pieces;
}

/** Longest sentence analysed as one piece; longer run-ons are cut at clause marks or every `RUN_ON_PIECE` words. */
const MAX_SENTENCE_WORDS = 120;
const RUN_ON_PIECE = 60;

/** Cut a run-on "sentence" (no full stops) into pieces the analysis can handle in linear time. */
function cutRunOn(sentence: string): string[] {
  // A sentence of n words has at least 2n - 1 characters.
  if (sentence.length < MAX_SENTENCE_WORDS * 2) return [sentence];
  const words = sentence.split(' ');
  if (words.length <= MAX_SENTENCE_WORDS) return [sentence];
  const pieces: string[] = [];
  let current: string[] = [];
  for (const word of words) {
    current.push(word);
    if ((current.length >= RUN_ON_PIECE / 2 && /[,;:]$/u.test(word)) || current.length >= RUN_ON_PIECE) {
      pieces.push(current.join(' '));
      current = [];
    }
  }
  if (current.length > 0) pieces.push(current.join(' '));
  return pieces;
}

/**
 * Split prose into sentences. Line breaks always end a sentence (lists, headings);
 * whitespace inside a sentence is collapsed to single spaces; run-ons are cut into pieces.
 */
export function splitSentences(prose: string): string[] {
  const sentences = splitLines(prose);
  return sentences.some((sentence) => sentence.length >= MAX_SENTENCE_WORDS * 2) ? sentences.flatMap(cutRunOn) : sentences;
}

function splitLines(prose: string): string[] {
  const sentences: string[] = [];
  for (const rawLine of prose.split(/\n/u)) {
    const line = cleanLine(rawLine);
    if (line === '') continue;
    // Most chat lines hold one sentence: no segmenter needed when no sentence end is followed by more text.
    if (!/[.!?…]["')\]]*\s+\S/u.test(line)) {
      sentences.push(line);
      continue;
    }
    let pending = '';
    for (const chunk of chunksOf(line)) {
      for (const segment of segmentLine(chunk).flatMap(splitBeforeAmounts)) {
        const piece = segment.trim();
        if (piece === '') continue;
        pending = pending === '' ? piece : `${pending} ${piece}`;
        // (A whole word: the "st" of "on the 21st." is no "St." before a name.)
        const lastWord = pending.endsWith('.') ? /(?:^|[^\p{L}\p{N}.])([\p{L}.]+)\.$/u.exec(pending)?.[1]?.toLowerCase() : undefined;
        if (lastWord !== undefined && ABBREVIATIONS.has(lastWord)) continue;
        // "No landscape fabric. Ever." — a word of emphasis on its own belongs to the sentence it stresses.
        if (EMPHASIS_ONLY.test(pending) && sentences.length > 0) sentences[sentences.length - 1] = `${sentences[sentences.length - 1] ?? ''} ${pending}`;
        else sentences.push(pending);
        pending = '';
      }
    }
    if (pending !== '') sentences.push(pending);
  }
  return sentences;
}

/** Split a long sentence into clauses at commas, semicolons, dashes and colons (verbatim pieces). */
export function splitClauses(sentence: string): string[] {
  const parts = sentence.split(/(?<=[,;:])\s+|\s+[–—]\s+|\s+-\s+/u);
  return mapPacked(parts, (part) => part.trim()).filter((part) => part !== '');
}
