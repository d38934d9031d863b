/**
 * The Porter stemmer of SQLite's FTS5 (fts5_tokenize.c), rule for rule and with its quirks, so the
 * PostgreSQL store stems words as the SQLite store's index does: "painted", "painting" and "paint"
 * are one term, as are "tomatoes" and "tomato". It works on a word of single-byte characters (FTS5
 * stems UTF-8 bytes); the caller decides which tokens are stemmed (search-terms.ts).
 */

/** Whether `letter` is a consonant, given whether the one before it was ("y" after a consonant is a vowel). */
const isConsonant = (letter: string | undefined, afterConsonant: boolean): boolean =>
  !(letter === 'a' || letter === 'e' || letter === 'i' || letter === 'o' || letter === 'u' || (letter === 'y' && afterConsonant));

/** From `start`, past a vowel and the consonant after it: the index after that consonant, or 0 when there is none. */
function vowelThenConsonant(stem: string, start: number, afterConsonant: boolean): number {
  let consonant = afterConsonant;
  let index = start;
  for (; index < stem.length; index += 1) {
    consonant = isConsonant(stem[index], consonant);
    if (!consonant) break;
  }
  for (index += 1; index < stem.length; index += 1) {
    consonant = isConsonant(stem[index], consonant);
    if (consonant) return index + 1;
  }
  return 0;
}

/** Porter's measure m of a stem (its vowel-then-consonant sequences), counted up to 2. */
function measure(stem: string): number {
  const first = vowelThenConsonant(stem, 0, false);
  if (first === 0) return 0;
  return vowelThenConsonant(stem, first, true) === 0 ? 1 : 2;
}
const measureAbove0 = (stem: string): boolean => measure(stem) > 0;
const measureAbove1 = (stem: string): boolean => measure(stem) > 1;

/** Whether the stem has a vowel ("y" counts anywhere but first). */
function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index += 1) if (!isConsonant(stem[index], index > 0)) return true;
  return false;
}

/** Whether the stem ends consonant, vowel, consonant, the last not "w", "x" or "y". */
function endsConsonantVowelConsonant(stem: string): boolean {
  const last = stem[stem.length - 1];
  if (last === 'w' || last === 'x' || last === 'y') return false;
  let pattern = 0;
  let consonant = false;
  for (let index = 0; index < stem.length; index += 1) {
    consonant = isConsonant(stem[index], consonant);
    pattern = ((pattern << 1) | (consonant ? 1 : 0)) & 7;
  }
  return pattern === 5;
}

interface Rule {
  suffix: string;
  replacement: string;
  applies: (stem: string) => boolean;
}

/** Rules of one condition, each written "suffix replacement" (no replacement: the suffix is dropped). */
const rules = (applies: (stem: string) => boolean, ...written: string[]): Rule[] =>
  written.map((rule) => {
    const [suffix = '', replacement = ''] = rule.split(' ');
    return { suffix, replacement, applies };
  });

/** A step's rules by the next-to-last letter of their suffix, in order (as FTS5 looks them up). */
function byNextToLast(list: readonly Rule[]): ReadonlyMap<string, Rule[]> {
  const grouped = new Map<string, Rule[]>();
  for (const rule of list) {
    const letter = rule.suffix[rule.suffix.length - 2] ?? '';
    grouped.set(letter, [...(grouped.get(letter) ?? []), rule]);
  }
  return grouped;
}

const endsSOrT = (stem: string): boolean => (stem.endsWith('s') || stem.endsWith('t')) && measureAbove1(stem);
const STEP_1B_ENDINGS = byNextToLast(rules(() => true, 'at ate', 'bl ble', 'iz ize'));
const STEP_2 = byNextToLast(rules(measureAbove0, 'ational ate', 'tional tion', 'enci ence', 'anci ance', 'izer ize', 'logi log', 'bli ble', 'alli al',
  'entli ent', 'eli e', 'ousli ous', 'ization ize', 'ation ate', 'ator ate', 'alism al', 'iveness ive', 'fulness ful', 'ousness ous',
  'aliti al', 'iviti ive', 'biliti ble'));
const STEP_3 = byNextToLast(rules(measureAbove0, 'ical ic', 'ness', 'icate ic', 'iciti ic', 'ful', 'ative', 'alize al'));
const STEP_4 = byNextToLast([
  ...rules(measureAbove1, 'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent'),
  ...rules(endsSOrT, 'ion'),
  ...rules(measureAbove1, 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'),
]);

/** The first rule whose suffix ends the word (leaving something) decides: applied when its condition holds. Null when none ends it. */
function applyFirst(word: string, step: ReadonlyMap<string, Rule[]>): string | null {
  for (const rule of step.get(word[word.length - 2] ?? '') ?? []) {
    if (word.length <= rule.suffix.length || !word.endsWith(rule.suffix)) continue;
    const stem = word.slice(0, word.length - rule.suffix.length);
    return rule.applies(stem) ? stem + rule.replacement : word;
  }
  return null;
}

/** Step 1a: plurals ("sses" → "ss", "ies" → "i", "s" dropped but after "s"). */
function step1a(word: string): string {
  if (!word.endsWith('s')) return word;
  if (word.endsWith('es')) return (word.length > 4 && word.endsWith('sses')) || (word.length > 3 && word.endsWith('ies')) ? word.slice(0, -2) : word.slice(0, -1);
  return word.endsWith('ss') ? word : word.slice(0, -1);
}

/** Step 1b: "eed" → "ee" when m > 0; "ed" and "ing" dropped after a vowel, then the stem's end restored. */
function step1b(word: string): string {
  if (word.length > 3 && word.endsWith('eed')) return measureAbove0(word.slice(0, -3)) ? word.slice(0, -1) : word;
  const suffix = word.length > 2 && word.endsWith('ed') ? 2 : word.length > 3 && word.endsWith('ing') ? 3 : 0;
  const stem = word.slice(0, word.length - suffix);
  if (suffix === 0 || !hasVowel(stem)) return word;
  const restored = applyFirst(stem, STEP_1B_ENDINGS);
  if (restored !== null) return restored;
  const last = stem[stem.length - 1];
  if (isConsonant(last, false) && last !== 'l' && last !== 's' && last !== 'z' && last === stem[stem.length - 2]) return stem.slice(0, -1);
  return measure(stem) === 1 && endsConsonantVowelConsonant(stem) ? `${stem}e` : stem;
}

/** FTS5's Porter stemmer, on a lower-case word of single-byte characters (a byte outside ASCII is a consonant). */
export function porterStem(token: string): string {
  let word = step1b(step1a(token));
  if (word.endsWith('y') && hasVowel(word.slice(0, -1))) word = `${word.slice(0, -1)}i`;
  for (const step of [STEP_2, STEP_3, STEP_4]) word = applyFirst(word, step) ?? word;
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    if (measure(stem) > 1 || (measure(stem) === 1 && !endsConsonantVowelConsonant(stem))) word = stem;
  }
  return word.endsWith('ll') && measureAbove1(word.slice(0, -1)) ? word.slice(0, -1) : word;
}
