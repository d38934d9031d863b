/**
 * How two long-term memories bear on each other, for the linker and the archiver: whether they are about
 * the same thing, whether they contradict each other (the same subject with other numbers, or one denies
 * what the other says), and whether the newer one says it replaces the older. Offline and deterministic,
 * on the words of their values (`aboutWords`). Pure; no I/O.
 */
import { singularWord } from './long-term-memory.js';
import { aboutWords, restates, saysChange } from './promotion.js';

/** Words that deny: one of two statements about the same thing holding one and the other none is a contradiction. */
const DENIAL = /\b(?:not|never|no|none|nothing|nobody|don't|doesn't|didn't|won't|can't|cannot|isn't|aren't|wasn't|no longer|dont|doesnt|cant|wont)\b/iu;

/** Content words a text writes with a capital, even at the start of a sentence: its names, days, places ("Noor charges …"). */
function namesOf(text: string): Set<string> {
  const { content } = aboutWords(text);
  return new Set([...text.matchAll(/\p{Lu}[\p{L}\p{N}]*/gu)].map((match) => singularWord(match[0].toLowerCase())).filter((word) => content.has(word)));
}

/**
 * Whether each names something the other does not ("Noor charges €76", "Kit charges €78"): then they are
 * about different people, places or days, however many other words they share.
 */
function nameOthers(left: string, right: string): boolean {
  const a = namesOf(left);
  const b = namesOf(right);
  return [...a].some((name) => !b.has(name)) && [...b].some((name) => !a.has(name));
}

export interface Comparison {
  /** Content words the two share (numbers left out), in the first's order. */
  shared: string[];
  /** Shared words over all content words of both (numbers left out): 0–1. */
  overlap: number;
  /** Whether they share a name, a day or another word one of them writes as specific (a capital inside a sentence). */
  sharesSpecific: boolean;
  /** Whether each names someone or something the other does not: about different subjects. */
  namesOthers: boolean;
}

const hasDigit = (word: string): boolean => /\p{N}/u.test(word);

/** What two statements share, apart from their numbers (which is what two values of one subject differ in). */
export function compareStatements(left: string, right: string): Comparison {
  const a = aboutWords(left);
  const b = aboutWords(right);
  const wordsA = [...a.content].filter((word) => !hasDigit(word));
  const wordsB = new Set([...b.content].filter((word) => !hasDigit(word)));
  const shared = wordsA.filter((word) => wordsB.has(word));
  const union = new Set([...wordsA, ...wordsB]).size;
  return {
    shared,
    overlap: shared.length / Math.max(1, union),
    sharesSpecific: shared.some((word) => a.specific.has(word) || b.specific.has(word)),
    namesOthers: nameOthers(left, right),
  };
}

/**
 * Whether the two are about the same thing: half their words shared, or a third with a name or day among
 * them, and neither names someone or something the other does not.
 */
export function sameTopic(comparison: Comparison): boolean {
  if (comparison.namesOthers || comparison.shared.length < 2) return false;
  return comparison.overlap >= 0.5 || (comparison.sharesSpecific && comparison.overlap >= 1 / 3);
}

/** The numbers a text gives ("€65", "4 cores", "1,200"), as written without separators. */
function numbersOf(text: string): Set<string> {
  return new Set([...text.matchAll(/\p{N}+(?:[.,]\p{N}+)*/gu)].map((match) => match[0].replace(/,/gu, '')));
}

/**
 * Why two statements about the same thing contradict each other, or null when they do not: they give
 * other numbers ("€65 an hour", "€75 an hour"), or one denies what the other says ("works Saturdays",
 * "never works Saturdays").
 */
export function contradiction(left: string, right: string): string | null {
  const comparison = compareStatements(left, right);
  if (!sameTopic(comparison)) return null;
  const numbersLeft = numbersOf(left);
  const numbersRight = numbersOf(right);
  const about = comparison.shared.slice(0, 3).join(', ');
  if (numbersLeft.size > 0 && numbersRight.size > 0 && ![...numbersLeft].some((number) => numbersRight.has(number))) {
    return `both are about ${about} but give ${[...numbersLeft].join(', ')} and ${[...numbersRight].join(', ')}`;
  }
  if (DENIAL.test(left) !== DENIAL.test(right)) return `both are about ${about} but one denies what the other says`;
  return null;
}

/**
 * Why the newer statement replaces the older, or null: it contradicts it and says it is a change ("now",
 * "instead", "no longer"), or it restates it without contradicting it (a duplicate). A contradiction that
 * does not say which holds is left for a person.
 */
export function replacement(newer: string, older: string): string | null {
  const conflict = contradiction(newer, older);
  if (conflict !== null) return saysChange(newer) ? `says it changes this (${conflict})` : null;
  return restates(newer, older) ? 'says the same' : null;
}
