/**
 * Ordinals in words ("second", "twenty first", "three hundred twelfth"), for telling apart the lines of
 * one subject: a key holds no digit (a number in a key is one the exchange must ground), and a key's
 * length grows with the number of its words, not with how many lines came before it.
 */

const UNITS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
/** Cardinals whose ordinal is not the cardinal and "th". */
const IRREGULAR: Readonly<Record<string, string>> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

/** A whole number from 1 below a billion in words, without "and" or hyphens ("twenty one"). */
function cardinal(value: number): string {
  if (value < 10) return UNITS[value] ?? '';
  if (value < 20) return TEENS[value - 10] ?? '';
  if (value < 100) return [TENS[Math.floor(value / 10)], UNITS[value % 10]].filter(Boolean).join(' ');
  if (value < 1000) return [`${UNITS[Math.floor(value / 100)]} hundred`, value % 100 === 0 ? '' : cardinal(value % 100)].filter(Boolean).join(' ');
  const [scale, size] = value < 1_000_000 ? ['thousand', 1000] : ['million', 1_000_000];
  return [`${cardinal(Math.floor(value / size))} ${scale}`, value % size === 0 ? '' : cardinal(value % size)].filter(Boolean).join(' ');
}

/** The ordinal of a whole number from 1 below a billion, in words: 2 → "second", 21 → "twenty first", 100 → "one hundredth". */
export function ordinalWords(value: number): string {
  const words = cardinal(value).split(' ');
  const last = words.pop() ?? '';
  const ordinal = IRREGULAR[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words, ordinal].join(' ');
}

/** Words an ordinal from `ordinalWords` is made of: the cardinal words of all but its last word. */
export const NUMBER_WORDS: readonly string[] = [...new Set([...UNITS, ...TEENS, ...TENS, 'hundred', 'thousand', 'million'].filter(Boolean))];

/** Last words an ordinal from `ordinalWords` may end with. */
export const ORDINAL_ENDINGS: readonly string[] = NUMBER_WORDS.map((word) => IRREGULAR[word] ?? (word.endsWith('y') ? `${word.slice(0, -1)}ieth` : `${word}th`));
