/** Sentence splitting with the built-in ICU segmenter, tidied for chat text (markdown, abbreviations). */

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Abbreviations after which ICU wrongly ends a sentence ("Dr. Smith"). */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'sr', 'jr', 'vs', 'etc', 'e.g', 'i.e', 'eg', 'ie', 'approx',
  'fig', 'inc', 'ltd', 'co', 'corp', 'mt', 'ft', 'dept', 'est', 'vol', 'cf', 'al',
]);

/** Remove markdown decoration that carries no words: list bullets, headings, quotes, emphasis, backticks. */
function cleanLine(line: string): string {
  return line
    .replace(/^\s*(?:[-*+•]|\d{1,3}[.)]|#{1,6}|>+)\s+/u, '')
    .replace(/\*\*|__|`/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Split prose into sentences. Line breaks always end a sentence (lists, headings);
 * whitespace inside a sentence is collapsed to single spaces.
 */
export function splitSentences(prose: string): string[] {
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
    for (const { segment } of SEGMENTER.segment(line)) {
      const piece = segment.trim();
      if (piece === '') continue;
      pending = pending === '' ? piece : `${pending} ${piece}`;
      const lastWord = /([\p{L}.]+)\.$/u.exec(pending)?.[1]?.toLowerCase();
      if (lastWord !== undefined && ABBREVIATIONS.has(lastWord)) continue;
      sentences.push(pending);
      pending = '';
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
