/**
 * A choice made again: "I've gone with Harbourline" then, in a message that tells why it fell through,
 * "we cancelled … and went with Kestrel in the end". The new choice supersedes the one the message names
 * and sets aside; the old line goes. Without a word of change ("cancelled", "in the end", "instead" …),
 * two choices in one conversation are two things chosen (a builder and an insurer).
 */
import { escapeRegExp, normalizeText } from '../../core/text.js';
import type { AnalysedMessage } from './analysis.js';
import type { Claim } from './claims.js';
import { factHolds } from './corrections.js';
import type { Known } from './known-line.js';

/** "went with Kestrel", "gone with Harbourline", "switched to Octopus": the phrase and the name chosen. */
const CHOICE = /\b(?:went|gone|going|go|goes|sticking|stuck|switched|switching|changed) (?:with|to|over to) (?:the )?(\p{Lu}[\p{L}\p{N}'’&-]*(?: \p{Lu}[\p{L}\p{N}'’&-]*)*)/u;

/** Words saying the choice before fell through. */
const CHANGE = /\b(?:cancel(?:l?ed|l?ing)?|in the end|instead|switch(?:ed|ing)?|changed (?:our|my) minds?|pulled out|backed out|fell through|dropped|no longer)\b/iu;

function chosen(text: string): string | null {
  return CHOICE.exec(text)?.[1]?.toLowerCase() ?? null;
}

/**
 * Whether a claim would only talk about what a line chose ("Emailing Hartwell now", "Hartwell's limiter
 * is set at 90 decibels" of "went with Hartwell in the end"), rather than choose again: it names the thing
 * chosen, or, for a line whose choice has no name to read ("booked the 9:40"), it says no change.
 */
export function talksAboutChoice(lineText: string, claim: Claim): boolean {
  if (claim.act === 'decision' || claim.oldValues.length > 0) return false;
  const name = chosen(lineText);
  if (name !== null) return claim.sentence.text.toLowerCase().includes(name);
  return !claim.correction && /\b(?:booked|chose|chosen|picked|hired|signed with)\b/iu.test(lineText);
}

/** Words saying a choice holds: "Harbourline stays as our insurer". */
const KEPT = /\b(?:stays|staying|still|keep|keeping|kept|sticking|remains)\b/iu;

/**
 * The one known choice (of `lines`, read only when the claim makes a choice) the claim's new choice supersedes, or null: a change word in the claim's sentence
 * or in a sentence naming the old choice (as a whole word), and no sentence naming it says it holds.
 */
export function supersededChoice(lines: () => readonly Known[], message: AnalysedMessage, claim: Claim): Known | null {
  const choice = chosen(claim.sentence.text);
  if (choice === null || (claim.act !== 'decision' && !claim.correction)) return null;
  const earlier = lines().filter((entry) => {
    const old = chosen(entry.text);
    if (old === null || old === choice || old.includes(choice) || choice.includes(old)) return false;
    const naming = new RegExp(`\\b${escapeRegExp(old)}\\b`, 'iu');
    const sentences = message.sentences.filter((sentence) => naming.test(sentence.text));
    if (sentences.length === 0 || sentences.some((sentence) => KEPT.test(sentence.text))) return false;
    return CHANGE.test(claim.sentence.text) || sentences.some((sentence) => CHANGE.test(sentence.text));
  });
  return earlier.length === 1 ? (earlier[0] ?? null) : null;
}

/** A name a choice is weighed against: "they were £30 cheaper than Hurst" ("over" is too often a time or a medium: "over Zoom", "over Easter"). */
const WEIGHED_AGAINST = /\bthan\s+(\p{Lu}[\p{L}\p{N}'’&-]*(?:\s+\p{Lu}[\p{L}\p{N}'’&-]*)*)/gu;

/** Capitalised words after "than" that name nothing set aside: "better than I expected". */
const NOT_NAMES = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'expected', 'planned', 'usual', 'last']);

/**
 * The one known line naming what a choice made in the end was weighed against ("than …"), and not the
 * choice itself: "We went with Soar Valley Skips in the end, they were £30 cheaper than Hurst" of "quote:
 * got a quote from Hurst Skips for a 6-yard one at £240". Null without a choice and a word of change, or
 * when no line or several name it.
 */
export function weighedAlternative(lines: () => readonly Known[], claim: Claim): Known | null {
  const sentence = claim.sentence.text;
  const choice = chosen(sentence);
  if (choice === null || (claim.act !== 'decision' && !claim.correction) || !CHANGE.test(sentence) || KEPT.test(sentence)) return null;
  const others = [...sentence.matchAll(WEIGHED_AGAINST)]
    .map((match) => (match[1] ?? '').toLowerCase())
    .filter((name) => name.length >= 3 && !NOT_NAMES.has(name.split(' ')[0] ?? '') && !choice.includes(name));
  for (const other of others) {
    const naming = lines().filter((line) => line.factId !== null && namesWord(line.text, other) && !line.text.toLowerCase().includes(choice));
    if (naming.length === 1) return naming[0] ?? null;
  }
  return null;
}

/** Whether the target's key is a value the claim sets aside ("halcombe hall" of "… instead of Halcombe"), and not the claim's own subject. */
export function namedBySetAside(target: Known, claim: Claim): boolean {
  const keyWords = new Set(target.key.split(' '));
  if (claim.key !== null && claim.key.split(' ').some((word) => keyWords.has(word))) return false;
  return claim.oldValues.some((item) => item.type === 'name' && normalizeText(item.text).split(' ').every((word) => keyWords.has(word)));
}

/**
 * Whether a change completed later in its message puts a new named choice in place of the one a line is
 * keyed by: "I've changed my mind about the school … They're going to the Grundschule" of "isarhaus
 * international school: looking at Isarhaus International School". The line is keyed by a name its text
 * writes capitalised, which the claim's sentence never says, and the claim gives a name of its own.
 */
export function replacesNamedChoice(target: Known, claim: Claim): boolean {
  if (choiceName(target) === null || talksOfNamedChoice(target, claim)) return false;
  return claim.values.some((item) => item.type === 'name' && item.entity !== 'person' && !target.text.toLowerCase().includes(item.text.toLowerCase()));
}

/** Whether the claim's sentence names the choice a line is keyed by: "Isarhaus replied: no place …" tells why, it chooses nothing new. */
export function talksOfNamedChoice(target: Known, claim: Claim): boolean {
  const named = choiceName(target);
  return named !== null && namesWord(claim.sentence.text, named);
}

const namesWord = (text: string, word: string): boolean => new RegExp(`(?<![\\p{L}])${escapeRegExp(word)}(?![\\p{L}])`, 'iu').test(text);

/** The first word of a key: the name a line about a named choice is keyed by ("isarhaus"). */
export const firstWord = (key: string): string => key.split(' ')[0] ?? '';

/** The name a line is keyed by: its key's first word, written capitalised in its text ("isarhaus"); null when none. */
function choiceName(target: Known): string | null {
  const named = firstWord(target.key);
  if (named.length < 3) return null;
  return writtenRun(target.text, named) === null ? null : named;
}

/**
 * The capitalised words a text writes starting with `word` ("Isarhaus International School" for
 * "isarhaus"), lower-cased; null when the text never writes it capitalised.
 */
function writtenRun(text: string, word: string): string | null {
  const run = new RegExp(`(?<![\\p{L}])${escapeRegExp(word.charAt(0).toUpperCase())}${escapeRegExp(word.slice(1))}(?![\\p{L}])(?:\\s+\\p{Lu}[\\p{L}'’-]*)*`, 'u').exec(text);
  return run === null ? null : run[0].toLowerCase().replace(/\s+/gu, ' ');
}

/**
 * Whether a line is about the named choice `target` is keyed by: its key extends the choice's key, or
 * starts with the name and the name it writes is the choice's or a shorter form of it ("Isarhaus" of
 * "Isarhaus International School", not "Kings Cross" of "Kings College").
 */
export function aboutNamedChoice(line: Known, target: Known): boolean {
  const named = firstWord(target.key);
  if (firstWord(line.key) !== named) return false;
  // ("isarhaus international school cost" is a thing of the choice by its key alone.)
  if (line.key.startsWith(`${target.key} `)) return true;
  const choice = writtenRun(target.text, named);
  const written = writtenRun(line.text, named);
  return choice !== null && written !== null && (choice === written || choice.startsWith(`${written} `));
}

/** Words saying someone or something chosen can no longer be: "she's out", "pulled out", "retired", "can't do it". */
const UNAVAILABLE =
  /\b(?:(?:is|are|was|were)\s+(?:now\s+)?(?:out|off|unavailable|away|on leave)|(?:she|he|they|it)['’](?:s|re)\s+(?:out|off|unavailable|away|on leave)|can['’]t|cannot|can no longer|pulled out|dropped out|backed out|retired|retiring|quit|fell through|(?:has|have)\s+left)\b/iu;

/**
 * The one known line holding a name that a sentence of the message says is no longer available, when
 * the claim chooses something else instead: "Annika's baby arrived, so she's out for the revision. I
 * went with Petra Holm instead" of "usual reviser: Annika Strand, €0.04 a word". With it, whether the
 * line is keyed by that name ("halcombe hall") rather than by the role the name fills ("usual reviser").
 * Null when none or several lines hold such a name.
 */
export function unavailableChoice(lines: () => readonly Known[], message: AnalysedMessage, claim: Claim): { line: Known; keyedByName: boolean } | null {
  // (The clause that chooses, not another clause of its sentence: "…; she revised pharma for years".)
  if (chosen(claim.value) === null || !/\binstead\b/iu.test(claim.sentence.text)) return null;
  const chosenNow = claim.values.map((item) => item.text.toLowerCase());
  const unavailable = message.sentences.filter((sentence) => UNAVAILABLE.test(sentence.text));
  const named = unavailable.flatMap((sentence) => sentence.specifics.filter((item) => item.type === 'name' && !chosenNow.includes(item.text.toLowerCase())));
  // (The people it names first: "Annika's baby arrived … she's out for the CSR revision" sets Annika aside, not the CSR.)
  const people = named.filter((item) => item.entity === 'person');
  const gone = people.length > 0 ? people : named;
  if (gone.length === 0) return null;
  const all = lines().filter((line) => line.factId !== null && gone.some((item) => factHolds(line.text, item)));
  // (Of several, the one whose value is the name: "usual reviser: Annika Strand", not "… before Annika even sees it".)
  const valueIs = (line: Known): boolean => gone.some((item) => line.text.slice(line.key.length + 1).trim().toLowerCase().startsWith(item.text.replace(/[’']s$/u, '').toLowerCase()));
  const holding = all.length > 1 ? all.filter(valueIs) : all;
  const [line] = holding;
  if (line === undefined || holding.length > 1) return null;
  const keyWords = line.key.split(' ');
  const keyedByName = gone.some((item) => factHolds(line.text, item) && normalizeText(item.text).split(' ').some((word) => keyWords.includes(word)));
  // (A role must be what the message speaks of: "out for the CSR revision" of the "reviser"; "Maria is away"
  // says nothing of the party Green Kitchen now caters.)
  if (!keyedByName && !namesRole(line.key, [claim.sentence.text, ...unavailable.map((sentence) => sentence.text)])) return null;
  return { line, keyedByName };
}

/** Whether one of the texts has a word of the same root as a word of the key ("revision" of "reviser"): five letters in common at the start. */
function namesRole(key: string, texts: readonly string[]): boolean {
  const roots = new Set(key.split(' ').filter((word) => word.length >= 5).map((word) => word.slice(0, 5)));
  return texts.some((text) => (text.toLowerCase().match(/\p{L}{5,}/gu) ?? []).some((word) => roots.has(word.slice(0, 5))));
}
