/** Sentence splitting with the built-in ICU segmenter, tidied for chat text (markdown, abbreviations). */

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Abbreviations after which ICU wrongly ends a sentence ("Dr. Smith"). */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'sr', 'jr', 'vs', 'etc', 'e.g', 'i.e', 'eg', 'ie', 'approx',
  'fig', 'inc', 'ltd', 'co', 'corp', 'mt', 'ft', 'dept', 'est', 'vol', 'cf', 'al',
]);

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

/** Longest sentence analysed as one piece; longer run-ons are cut at clause marks or every `RUN_ON_PIECE` words. */
const MAX_SENTENCE_WORDS = 120;
const RUN_ON_PIECE = 60;

/** Cut a run-on "sentence" (no full stops) into pieces the analysis can handle in linear time. */
function cutRunOn(sentence: string): string[] {
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
  return splitLines(prose).flatMap(cutRunOn);
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
      for (const { segment } of SEGMENTER.segment(chunk)) {
        const piece = segment.trim();
        if (piece === '') continue;
        pending = pending === '' ? piece : `${pending} ${piece}`;
        const lastWord = /([\p{L}.]+)\.$/u.exec(pending)?.[1]?.toLowerCase();
        if (lastWord !== undefined && ABBREVIATIONS.has(lastWord)) continue;
        sentences.push(pending);
        pending = '';
      }
    }
    if (pending !== '') sentences.push(pending);
  }
  return sentences;
}

/** Split a long sentence into clauses at commas, semicolons, dashes and colons (verbatim pieces). */
export function splitClauses(sentence: string): string[] {
  return sentence
    .split(/(?<=[,;:])\s+|\s+[–—]\s+|\s+-\s+/u)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
