/**
 * Text normalisation shared by key matching, grounding and evaluation.
 * Lower-case, Unicode NFKC, punctuation collapsed to single spaces.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whole words of the normalised text. */
export function words(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** Whether a UTF-16 code unit is one of the characters JavaScript's `\s` matches. */
export function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/**
 * Number of whitespace-separated words (raw, not normalised) of `text`, or of `text.slice(start, end)`;
 * counting stops at `most` (a long text need not be read to its end to know it has that many).
 */
export function countWords(text: string, start = 0, end = text.length, most = Number.POSITIVE_INFINITY): number {
  let count = 0;
  let inWord = false;
  const last = Math.min(end, text.length);
  for (let index = Math.max(0, start); index < last && count < most; index += 1) {
    const space = isWhitespace(text.charCodeAt(index));
    if (!space && !inWord) count += 1;
    inWord = !space;
  }
  return count;
}

/** `text` as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** The key of a fact line: the text before the first `:`, normalised ('' when there is no `:`). */
export function factKey(text: string): string {
  const colon = text.indexOf(':');
  return colon <= 0 ? normalizeText(text) : normalizeText(text.slice(0, colon));
}

/** Sørensen–Dice coefficient over the word sets of two texts (0–1). */
export function wordSimilarity(left: string, right: string): number {
  const a = new Set(words(left));
  const b = new Set(words(right));
  if (a.size === 0 && b.size === 0) return 1;
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

/** Cut text to at most `limit` words, adding an ellipsis when something was cut. */
export function limitWords(text: string, limit: number): string {
  const parts = text.trim().split(/\s+/u).filter((part) => part !== '');
  if (parts.length <= limit) return parts.join(' ');
  return `${parts.slice(0, limit).join(' ')}…`;
}

/** Whether the text contains a lone UTF-16 surrogate; returns its index or -1. */
export function loneSurrogateIndex(text: string): number {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
      return index;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return index;
  }
  return -1;
}

/**
 * Where to cut `text` at `at` without splitting a surrogate pair: an end (`away` -1) moves back before a
 * pair's first half, a start (`away` 1) moves on past a pair's second half.
 */
export function cutBetweenCharacters(text: string, at: number, away: -1 | 1): number {
  const code = text.charCodeAt(away < 0 ? at - 1 : at);
  const splits = away < 0 ? code >= 0xd800 && code <= 0xdbff : code >= 0xdc00 && code <= 0xdfff;
  return splits ? at + away : at;
}

/** `"text"` in quotes, cut to `maxLength` characters with an ellipsis (never between the halves of a surrogate pair). */
export function quoted(text: string, maxLength: number): string {
  if (text.length <= maxLength) return `"${text}"`;
  return `"${text.slice(0, cutBetweenCharacters(text, maxLength - 3, -1))}…"`;
}

/** Code-unit order, the same as SQLite's default collation: stable across locales. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A Markdown code fence longer than any backtick run in `content` (at least three), so the content cannot close it. */
export function codeFence(content: string): string {
  let longest = 0;
  for (const match of content.matchAll(/`+/gu)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A light stem so "painting" finds "paints" and "painted": plural and verb endings only. */
export function stemWord(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ied')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('es') && /(?:ch|sh|ss|x|z)es$/u.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
