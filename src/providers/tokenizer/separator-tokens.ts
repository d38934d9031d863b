/**
 * What the separators inside a rendered line cost: the space between a line's prefix and its text, and
 * the line break after it. The encodings' pre-tokenizer cuts a text into pieces before byte-pair
 * encoding, and a separator changes only the piece it touches:
 * - a line break joins the piece before it only when that piece is a run of punctuation (with the space
 *   before it): "foo.\n" is as many tokens as "foo.", while after a letter or digit it is a token of
 *   its own;
 * - a space joins the word after it (" budget" is often one token, like "budget").
 * So each costs what it adds to that one short piece, which recurs (".", ")", common words). This is
 * how the bundled encodings cut text (the same fact `line-count-cache` builds on); with another
 * tokenizer these are estimates, and the assembler's exact measurement at the end still keeps the budget.
 */
const WORD_OR_SPACE = /[\s\p{L}\p{N}]/u;

/** The trailing run of characters that are neither whitespace, letters nor digits, with the space before it ("" when none). */
function trailingPunctuation(text: string): string {
  let start = text.length;
  // Code unit by code unit from the end. A surrogate half never tests as a letter or digit, so a trailing
  // supplementary character (an emoji, or a letter such as 𝐀) joins the run whole; for a letter the
  // count is still right, since the break after it is a token of its own either way.
  while (start > 0 && !WORD_OR_SPACE.test(text.charAt(start - 1))) start -= 1;
  if (start === text.length) return '';
  return text.charAt(start - 1) === ' ' ? text.slice(start - 1) : text.slice(start);
}

/**
 * Tokens that a line break adds after `text`: exact when `text` ends in a letter, a digit or punctuation
 * (checked against o200k_base and cl100k_base), and 1 (on the high side) after whitespace.
 */
export function lineBreakTokens(text: string, countShort: (text: string) => number): number {
  const punctuation = trailingPunctuation(text);
  if (punctuation === '') return 1;
  return Math.max(0, countShort(`${punctuation}\n`) - countShort(punctuation));
}

/** A leading word: letters and marks, with an English contraction the o200k pre-tokenizer keeps on it. */
const LEADING_WORD = /^[\p{L}\p{M}]+(?:'(?:s|t|re|ve|m|ll|d))?/iu;

/**
 * Tokens that a space adds before `text` (after a line's prefix): exact when `text` starts with a
 * letter (checked against o200k_base and cl100k_base), and 1 (on the high side) otherwise.
 */
export function spaceTokens(text: string, countShort: (text: string) => number): number {
  const word = LEADING_WORD.exec(text)?.[0];
  if (word === undefined) return 1;
  return Math.max(0, countShort(` ${word}`) - countShort(word));
}
