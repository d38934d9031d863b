/**
 * How two long-term memories bear on each other, for the linker, the archiver and the condenser: whether
 * they are about the same thing, whether they contradict each other, whether the newer one replaces the
 * older. Offline and deterministic, on the words of their values; every rule leans towards leaving
 * memories as they are, since a wrong archive or rewrite loses what a person said. Pure; no I/O.
 */
import { singularWord } from './long-term-memory.js';
import { aboutWords, saysChange } from './promotion.js';
import { STOPWORDS } from './query-terms.js';

/** Words that deny (the apostrophe straight or curly): one of two statements holding one and the other none say opposite things. */
const DENIAL = /\b(?:not|never|no|none|nothing|nobody|nowhere|neither|nor|without|cannot|no longer|dont|doesnt|didnt|cant|wont|isnt|arent|wasnt|shouldnt|wouldnt|couldnt)\b|n['’]t\b/iu;

/** Words that only say a statement is new ("now", "actually"): two statements differing in them alone say the same thing. */
const CHANGE_WORDS: ReadonlySet<string> = new Set(['now', 'actually', 'instead', 'anymore', 'currently', 'still', 'change', 'changed', 'update', 'updated', 'new']);

const hasDigit = (word: string): boolean => /\p{N}/u.test(word);

/** Whether the statement denies something. */
export function denies(text: string): boolean {
  return DENIAL.test(text);
}

/** The numbers a text gives ("€65", "4 cores", "1,200"), as written without separators. */
export function numbersOf(text: string): Set<string> {
  return new Set([...text.matchAll(/\p{N}+(?:[.,]\p{N}+)*/gu)].map((match) => match[0].replace(/,/gu, '')));
}

/**
 * Every word of a statement that is not a function word or a number, lower case and singular, the
 * apostrophe's tail dropped ("Noor's" → "noor"): unlike the words memories are searched by, "like",
 * "hate", "never" and "always" count, since they are what two statements can differ in.
 */
export function statementWords(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    const word = singularWord(match[0].replace(/['’]s$/u, '').replace(/['’]/gu, ''));
    if (word.length > 1 && !STOPWORDS.has(word) && !hasDigit(word) && !CHANGE_WORDS.has(word)) found.add(word);
  }
  return found;
}

const contains = (outer: ReadonlySet<string>, inner: ReadonlySet<string>): boolean => [...inner].every((word) => outer.has(word));

/** A word as the text writes it (the first form that compares as `word`), for a reason a person reads. */
function written(text: string, word: string): string {
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) if (singularWord(match[0].toLowerCase()) === word) return match[0].toLowerCase();
  return word;
}

/** Content words a text writes with a capital, even at the start of a sentence: its names, days, places ("Noor charges …"). */
function namesOf(text: string): Set<string> {
  const { content } = aboutWords(text);
  return new Set([...text.matchAll(/\p{Lu}[\p{L}\p{N}]*/gu)].map((match) => singularWord(match[0].toLowerCase())).filter((word) => content.has(word)));
}

export interface Comparison {
  /** Content words the two share (numbers left out), in the first's order, as the first writes them. */
  shared: string[];
  /** Shared words over all content words of both (numbers left out): 0–1. */
  overlap: number;
  /** Whether they share a name, a day or another word one of them writes as specific (a capital inside a sentence). */
  sharesSpecific: boolean;
  /** Whether each names someone or something the other does not: about different subjects. */
  namesOthers: boolean;
}

/** What two statements share, apart from their numbers. */
export function compareStatements(left: string, right: string): Comparison {
  const a = aboutWords(left);
  const b = aboutWords(right);
  const wordsA = [...a.content].filter((word) => !hasDigit(word));
  const wordsB = new Set([...b.content].filter((word) => !hasDigit(word)));
  const shared = wordsA.filter((word) => wordsB.has(word));
  const union = new Set([...wordsA, ...wordsB]).size;
  const namesA = namesOf(left);
  const namesB = namesOf(right);
  return {
    shared: shared.map((word) => written(left, word)),
    overlap: shared.length / Math.max(1, union),
    sharesSpecific: shared.some((word) => a.specific.has(word) || b.specific.has(word)),
    namesOthers: [...namesA].some((name) => !namesB.has(name)) && [...namesB].some((name) => !namesA.has(name)),
  };
}

/**
 * Whether the two are about the same thing, loosely, as a link says: half their words shared, or a third
 * with a name or day among them, and neither names someone or something the other does not.
 */
export function sameTopic(comparison: Comparison): boolean {
  if (comparison.namesOthers || comparison.shared.length < 2) return false;
  return comparison.overlap >= 0.5 || (comparison.sharesSpecific && comparison.overlap >= 1 / 3);
}

/**
 * Why two statements contradict each other, or null: they say the same thing in the same words (but for
 * "now", "actually" …) and give other numbers ("Noor charges €76 an hour", "… €78 an hour"), or one
 * denies what the other says ("Ellie works Saturdays", "Ellie never works Saturdays"). Statements that
 * differ in any other word ("kitchen budget", "bathroom budget"; "run 5 km", "swim 2 km") do not.
 */
export function contradiction(left: string, right: string): string | null {
  const neutral = (text: string): Set<string> => new Set([...statementWords(text)].filter((word) => !denies(word)));
  const wordsLeft = neutral(left);
  const wordsRight = neutral(right);
  if (wordsLeft.size < 2 || !contains(wordsLeft, wordsRight) || !contains(wordsRight, wordsLeft)) return null;
  const about = [...wordsLeft]
    .slice(0, 3)
    .map((word) => written(left, word))
    .join(', ');
  const numbersLeft = numbersOf(left);
  const numbersRight = numbersOf(right);
  if (numbersLeft.size > 0 && numbersRight.size > 0 && ![...numbersLeft].some((number) => numbersRight.has(number))) {
    return `both say ${about} but give ${[...numbersLeft].join(', ')} and ${[...numbersRight].join(', ')}`;
  }
  if (denies(left) !== denies(right)) return `both say ${about} but one denies what the other says`;
  return null;
}

/**
 * Why the newer statement replaces the older, or null. It contradicts the older and says it is a change
 * ("now", "instead", "no longer"); or it says the same: every word and number of the older, the same way
 * (neither denies what the other says), perhaps with more. Anything else is left for a person.
 */
export function replacement(newer: string, older: string): string | null {
  const conflict = contradiction(newer, older);
  if (conflict !== null) return saysChange(newer) ? `says it changes this (${conflict})` : null;
  const same = denies(newer) === denies(older) && contains(statementWords(newer), statementWords(older)) && contains(numbersOf(newer), numbersOf(older));
  return same && statementWords(older).size >= 2 ? 'says the same' : null;
}
