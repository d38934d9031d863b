/**
 * The fake store's tokenizer: lower-cased words with diacritics removed, each cut to a stem by a small
 * English suffix stemmer, so "painted", "painting" and "paint" are one term, as are "tomatoes" and "tomato".
 * Messages and query terms go through the same function.
 */
export function termsOf(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  return folded
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map(stem);
}

/** The stem of a lower-cased word (a few suffix rules, not Porter's algorithm). */
export function stem(word: string): string {
  let base = word;
  // Plurals: berries → berry, glasses → glass, paints → paint, tomatoes → tomatoe (→ tomato below).
  if (base.length > 4 && base.endsWith('ies')) base = `${base.slice(0, -3)}y`;
  else if (base.endsWith('sses')) base = base.slice(0, -2);
  else if (base.length > 3 && /[^su]s$/u.test(base)) base = base.slice(0, -1);
  // Verb endings, when a stem with a vowel remains: painted, painting → paint; stopped → stop.
  const verb = /^(.+?)(?:ed|ing)$/u.exec(base)?.[1];
  if (verb !== undefined && verb.length >= 3 && /[aeiouy]/u.test(verb)) base = /([^aeiouylsz])\1$/u.test(verb) ? verb.slice(0, -1) : verb;
  // A final e: hope, hoped → hop; tomatoe → tomato.
  if (base.length > 3 && base.endsWith('e')) base = base.slice(0, -1);
  return base;
}
