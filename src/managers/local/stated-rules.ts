/**
 * Rules said as rules, whatever cue they carry: a clause after a heading that calls it a rule ("One more
 * rule from the guidelines page: they don't want outcome promises") and a ban after words that call it
 * firm ("Dr. Kulkarni was very firm: no sedatives"), with whom the ban is for, and a list of what is
 * refused that spells out the sentence before it ("Not via Dubai, not via Frankfurt, nowhere").
 */
import type { AnalysedSentence } from './analysis.js';

/** The first word of the last name the sentence writes before `offset`, lower case; null when none. */
export function namedBefore(sentence: AnalysedSentence, offset: number): string | null {
  const named = sentence.specifics.filter((item) => item.type === 'name' && item.end <= offset).at(-1);
  return named === undefined ? null : (named.text.toLowerCase().split(/\s+/u)[0] ?? null);
}

/** Words that call what follows them, after a colon, a firm rule: "was very firm:", "is adamant:" (not "clear": "the forecast is clear: no rain"). */
const FIRM_WORDS = new Set(['firm', 'strict', 'adamant', 'categorical', 'emphatic', 'insistent']);
const BANNING_WORDS = new Set(['no', 'never', 'not', 'nothing', "don't", 'none']);

/** Where a ban starts after "firm:" in the clause ("very firm: no sedatives"), or -1. */
export function firmBan(tokens: AnalysedSentence['tokens'], from: number, to: number): number {
  for (let index = from; index < to - 1; index += 1) {
    const token = tokens[index];
    if (token !== undefined && FIRM_WORDS.has(token.lower) && token.trailing.includes(':') && BANNING_WORDS.has(tokens[index + 1]?.lower ?? '')) return index + 1;
  }
  return -1;
}

/** Words before a colon that call what follows a rule: "One more rule from the guidelines page:", "Hard requirement:". */
export const RULE_HEADING = /\b(?:rule|rules|requirement|requirements|non-negotiable|red line)(?:\s+(?:from|for|of|on|in)\b(?![^:.!?]*\b(?:is|are|was|were|has|have|had|got|changed|moved|been)\b)[^:.!?]{0,40})?:\s*$/iu;

/** "Not via Dubai, not via Frankfurt, nowhere": two refusals or more, closed by a word for none at all. */
export const EMPHATIC_REFUSAL = /^(?:not|no)\b[^.!?]*,\s*(?:not|no)\b[^.!?]*,\s*(?:nowhere|nothing|never|none|nobody|no one|at all|ever)\b/iu;

/** A sentence that can be the rule a refusal list spells out: a requirement with a "no …" or an "only" in it, not a question. */
export const REFUSED_RULE = /\bno\s+\p{L}|\bonly\b/iu;

/** Whom a ban is for: "no chocolate for Biscuit" names it itself; else null. */
export function banFor(text: string): string | null {
  return /\bfor\s+(\p{Lu}\p{Ll}+)/u.exec(text)?.[1]?.toLowerCase() ?? null;
}
