/**
 * Which known line a claim is about, and how surely: the same key, a value it sets aside, or a subject
 * word both keys share, with the value classes agreeing. People and things named in the keys count as
 * subjects of their own: sharing a name is not sharing a subject.
 */
import { scopedMemo } from '../../core/memo-space.js';
import { normalizeText } from '../../core/text.js';
import type { Claim } from './claims.js';
import { stem } from './corrections.js';
import { GENERIC_NOUNS, META_NOUNS, STOP_WORDS } from './function-words.js';
import type { Known } from './known-line.js';
import { holdsValue } from './line-edits.js';
import { classesOfLine, sameClass, type ValueClass } from './value-classes.js';

/**
 * The words of a key that tell one subject from another (no stop words, no generic nouns), stemmed.
 * Remembered: every turn compares its claims with the keys and lines of the whole document.
 */
export const subjectWords: (key: string) => ReadonlySet<string> = scopedMemo((key: string): ReadonlySet<string> => {
  const words = normalizeText(key).split(' ');
  return new Set(words.filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !GENERIC_NOUNS.has(word) && !META_NOUNS.has(word)).map(stem));
});

/** Whether the claim's value can stand in for a value the line holds: true, false, or null when either holds none. */
function compatible(claim: Claim, text: string, ignoreNames = false): boolean | null {
  const named = (valueClass: ValueClass): boolean => ignoreNames && (valueClass === 'name' || valueClass === 'person');
  const held = [...classesOfLine(text)].filter((valueClass) => !named(valueClass));
  const classes = claim.classes.filter((valueClass) => !named(valueClass));
  if (classes.length === 0 || held.length === 0) return null;
  // A clause may state two things ("first shift yesterday … the £13.10 we settled on"): any of its values may be the one.
  for (const wanted of classes) for (const value of held) if (sameClass(value, wanted)) return true;
  return false;
}

/** Whether the claim's sentence writes its key as a name ("Osian", "Hartwell Barn"). */
function isWrittenName(claim: Claim, key: string): boolean {
  if (claim.sentence.specifics.some((item) => item.type === 'name' && normalizeText(item.text) === key)) return true;
  // ("Deskwise says …": a name opening the sentence is no name specific, but the tagger knows it for one.)
  const first = claim.sentence.tokens[0];
  return first?.pos === 'proper' && first.lower === key;
}

/** The words of the names each sentence writes, by sentence: a claim is compared with every fact. */
const namesWritten = new WeakMap<Claim['sentence'], ReadonlySet<string>>();

/** The words of the names the claim's sentence writes ("Dev actually laughed" writes "Dev"). */
function writtenNameWords(claim: Claim): ReadonlySet<string> {
  let words = namesWritten.get(claim.sentence);
  if (words === undefined) {
    words = new Set(claim.sentence.specifics.filter((item) => item.type === 'name').flatMap((item) => normalizeText(item.text).split(' ')));
    namesWritten.set(claim.sentence, words);
  }
  return words;
}

/** The last word of a key, stemmed: the thing it names ("school project" → "project"). */
const headOf = (key: string): string => [...subjectWords(key.split(' ').at(-1) ?? '')][0] ?? '';

/**
 * Whether every word of the known key stands before the claim key's head, which the known key lacks:
 * "school" of "anika school project", "kitchen" of "kitchen tap". Not "budget" of "kitchen budget".
 */
function describesOnly(knownKey: string, claimKey: string): boolean {
  const head = headOf(claimKey);
  const knownWords = subjectWords(knownKey);
  if (head === '' || knownWords.has(head) || knownWords.size === 0) return false;
  const before = subjectWords(claimKey.split(' ').slice(0, -1).join(' '));
  return [...knownWords].every((word) => before.has(word));
}

/**
 * How surely a claim is about a known fact: 10 an old value it holds, 8 the same key, 4+ a shared subject
 * word; 0 none. A subject is a thing and, in keys about people, a person: "anna office" and "tom office"
 * are two subjects, and so are "caroline support group" and "caroline puppy".
 */
export function targetScore(claim: Claim, key: string, words: ReadonlySet<string>, known: Known, names: ReadonlySet<string>): number {
  if (claim.oldValues.some((item) => holdsValue(known.text, item))) return 10;
  const fit = compatible(claim, known.text);
  // Under one key, a line of another kind with no value to compare is another attribute ("Target is AWS" is not "no clicking in the AWS console").
  if (key === known.key) {
    // A key that only names a person holds many attributes: "anika: 8" is no "anika: gets a German tutor",
    // though both lines name people; only a value of another class, or a change said outright, is the same one.
    // So does a key that is a name the claim writes as one ("Osian has asthma", "Hartwell is all on one level").
    const person = (words.size > 0 && [...words].every((word) => names.has(word))) || isWrittenName(claim, key);
    // A change whose value is only a name ("he's been moved to Dr Okonkwo") is not the line of his age.
    const onlyNames = claim.classes.every((valueClass) => valueClass === 'name' || valueClass === 'person');
    if (person && (!claim.correction || onlyNames) && compatible(claim, known.text, true) !== true) return 0;
    return fit === false || (fit === null && !claim.correction && claim.kind !== known.kind) ? 0 : 8;
  }
  const knownWords = subjectWords(known.key);
  // A name shared by two keys does not make them one subject: "dev cost" is not what "Dev actually laughed" is about.
  const written = writtenNameWords(claim);
  const isName = (word: string): boolean => names.has(word) || written.has(word);
  const people = [...words].filter((word) => names.has(word));
  const knownPeople = [...knownWords].filter((word) => names.has(word));
  if (people.length > 0 && knownPeople.length > 0 && !people.some((word) => knownWords.has(word))) return 0;
  let shared = 0;
  for (const word of knownWords) if (words.has(word) && !isName(word)) shared += 1;
  // "the £13.10 we settled on in the end" about Kit: a change of a value of Kit's, of the same class.
  // (Not when the claim names a thing of its own: "Rohan … now says 'Servus' every morning" is about YouTube videos, not his start date.)
  const ownThings = [...words].filter((word) => !knownWords.has(word) && !isName(word));
  if (shared === 0 && claim.correction && fit === true && ownThings.length === 0 && people.some((word) => knownWords.has(word))) return 4;
  if (shared === 0 || fit === false) return 0;
  // "anika school project" is about a project, not the school: a key that only describes the claim's own
  // head noun names another thing.
  // (A change said outright may still be the same attribute: "the kitchen budget is now £9,500" of "kitchen: £8,000".)
  if (!claim.correction && describesOnly(known.key, key)) return 0;
  // "quarterly report" and "report deadline" each name something the other does not: two attributes of
  // one thing, unless a change is said outright.
  const ownWords = [...words].filter((word) => !knownWords.has(word) && !names.has(word));
  const otherWords = [...knownWords].filter((word) => !words.has(word) && !names.has(word));
  if (!claim.correction && ownWords.length > 0 && otherWords.length > 0) return 2 + shared;
  // A value of the same class, or a change said outright, makes it sure enough.
  return fit === true || claim.correction ? 4 + shared : 2 + shared;
}
