/**
 * The matching rule of key-fact retention (`../shared/design/evaluation.md` §2).
 *
 * Text is compared after Unicode NFKC, lower-casing, and collapsing every run of characters that are
 * neither letters, combining marks nor digits (punctuation, symbols, whitespace) to one space; so
 * "$45,000" reads "45 000" and "Node.js" reads "node js".
 *
 * An alternative is either
 * - a word or phrase, normalised the same way and matched as whole words only: "200" does not match
 *   "2000", "45 000" matches "$45,000", "node js" matches "Node.js";
 * - `re:<regex>`: a case-insensitive JavaScript regular expression (flags `iu`). It runs on the
 *   **normalised** text, like phrases, so a pattern never has to cope with case, full-width forms or
 *   punctuation: write `re:node.{0,25}\b22\b`, not `re:Node\.js 22`. A pattern that needs punctuation
 *   ("$", ",", ".") cannot match, because the normalised text has none.
 *
 * Why not `normalizeText` from `core/text.ts`: it also turns combining marks (\p{M}) into spaces. That
 * is harmless for Latin text after NFKC, but it cuts words of scripts that write vowels as marks
 * (Devanagari, Thai, Arabic harakat) and would let "क" match "कि" as a whole word. Here marks stay part
 * of their word; for every other character the two functions agree.
 */

/** Prefix of a regular-expression alternative. */
export const REGEX_PREFIX = 're:';

/** Lower-case, NFKC, and every run of non-letter, non-mark, non-digit characters collapsed to one space. */
export function normalizeForMatching(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
}

/** A parsed alternative of a `mustInclude` group. */
export type Alternative = { kind: 'phrase'; source: string; phrase: string } | { kind: 'regex'; source: string; regex: RegExp };

/** Why an alternative cannot be used (an invalid regex, a phrase with no letters or digits), or null when it is fine. */
export function alternativeProblem(alternative: string): string | null {
  if (alternative.startsWith(REGEX_PREFIX)) {
    const pattern = alternative.slice(REGEX_PREFIX.length);
    if (pattern === '') return `"${alternative}" has an empty regular expression`;
    try {
      new RegExp(pattern, 'iu');
    } catch (error) {
      return `"${alternative}" is not a valid regular expression: ${(error as Error).message}`;
    }
    return null;
  }
  if (normalizeForMatching(alternative) === '') return `"${alternative}" has no letters or digits, so it can never match`;
  return null;
}

/** Parse an alternative; throws on one that `alternativeProblem` rejects. */
export function parseAlternative(alternative: string): Alternative {
  const problem = alternativeProblem(alternative);
  if (problem !== null) throw new Error(problem);
  if (alternative.startsWith(REGEX_PREFIX)) {
    return { kind: 'regex', source: alternative, regex: new RegExp(alternative.slice(REGEX_PREFIX.length), 'iu') };
  }
  return { kind: 'phrase', source: alternative, phrase: normalizeForMatching(alternative) };
}

/** Whether an alternative matches text that is already normalised with `normalizeForMatching`. */
export function alternativeMatches(normalized: string, alternative: Alternative): boolean {
  if (alternative.kind === 'regex') return alternative.regex.test(normalized);
  return ` ${normalized} `.includes(` ${alternative.phrase} `);
}

/** The `mustInclude` groups of a fact, parsed once and applied to many items. */
export class MustInclude {
  private readonly groups: ReadonlyArray<readonly Alternative[]>;

  constructor(groups: ReadonlyArray<readonly string[]>) {
    this.groups = groups.map((group) => group.map(parseAlternative));
  }

  get groupCount(): number {
    return this.groups.length;
  }

  /** For each group, whether one of its alternatives matches the (raw) text. */
  satisfied(text: string): boolean[] {
    const normalized = normalizeForMatching(text);
    return this.groups.map((group) => group.some((alternative) => alternativeMatches(normalized, alternative)));
  }

  /** How many groups the (raw) text satisfies. */
  count(text: string): number {
    return this.satisfied(text).filter(Boolean).length;
  }
}

/** Whether one alternative (phrase or `re:`) matches the raw text. */
export function matchesAlternative(text: string, alternative: string): boolean {
  return alternativeMatches(normalizeForMatching(text), parseAlternative(alternative));
}
