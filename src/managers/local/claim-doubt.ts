/**
 * A new line that may replace an older fact. When a claim is not surely about any fact (it is added),
 * but a fact of the document holds another value of the same class under a subject the claim shares —
 * "we're now flying on 25 July" beside "hoping to fly on 11 July" — the two may be one attribute said
 * twice. Overwriting would be a guess; keeping both silently leaves a stale line that reads as true. The
 * line names the older fact as one it may replace, and the package shows the older one possibly superseded.
 */
import { KIND_STRENGTH } from '../../core/diff.js';
import type { Claim } from './claims.js';
import type { Known } from './known-line.js';
import { scopedMemo } from '../../core/memo-space.js';
import { stemWord } from '../../core/text.js';
import { factHolds, stem } from './corrections.js';
import { DATE_UNITS, DATE_WORDS, GENERIC_NOUNS, META_NOUNS, MONTHS, RELATIVE_DATE_WORDS, STOP_WORDS, UNIT_WORDS, WEEKDAYS } from './function-words.js';
import type { Specific } from './specifics.js';
import { classesOfLine, classOfSpecific, COMPETING_CLASSES, sameClass, type ValueClass } from './value-classes.js';

/** Words that name a value or its unit, not a subject: two dates "next" week, two counts of "words", are not one thing. */
const isCalendarWord = (word: string): boolean =>
  MONTHS.has(word) || WEEKDAYS.has(word) || DATE_WORDS.has(word) || RELATIVE_DATE_WORDS.has(word) || DATE_UNITS.has(word) || UNIT_WORDS.has(word) || COUNTED.has(stemWord(word));

/** Nouns a measure counts ("150 words", "40 minutes"): the unit, not the thing measured. */
const COUNTED: ReadonlySet<string> = new Set(['word', 'page', 'hour', 'minute', 'second', 'day', 'night', 'item', 'line', 'character', 'slide']);

/**
 * Content words of a text, stemmed: no stop words, generic nouns, calendar words, numbers or short words.
 * Remembered: every new line is compared with every fact of the document.
 */
export const contentStems: (text: string) => ReadonlySet<string> = scopedMemo((text: string): ReadonlySet<string> => {
  const words = text.toLowerCase().match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  const content = words.filter((word) => word.length > 2 && !STOP_WORDS.has(word) && !GENERIC_NOUNS.has(word) && !META_NOUNS.has(word) && !isCalendarWord(word));
  return new Set(content.map(stemWord));
});

/** Endings that make a noun of a verb: "collection" of "collect", "reservation" of "reserve". */
const NOUN_ENDINGS = /^(?:ion|ions|ation|ations)$/u;

/**
 * Whether `word` is a noun made of `stem` ("collection" of "collect", "inspection" of "inspect"), or the
 * other way round; the verb has six letters at least ("station" is not of "state").
 */
function derivedFrom(word: string, stem: string): boolean {
  const [shorter, longer] = word.length < stem.length ? [word, stem] : [stem, word];
  const base = shorter.endsWith('e') ? shorter.slice(0, -1) : shorter;
  return base.length >= 6 && longer.startsWith(base) && NOUN_ENDINGS.test(longer.slice(base.length));
}

/** The unit word after a measure ("10 seconds" → "second"), stemmed; '' when none. */
function unitOf(text: string): string {
  return stem(/^[\d.,\s-]+(\p{L}+)/u.exec(text)?.[1]?.toLowerCase() ?? '');
}

/**
 * Whether the line holds a value that competes with one the claim gives: the same class, and for a
 * measure the same unit ("10 seconds" never competes with "512 MB").
 */
function competes(claim: Claim, classes: readonly ValueClass[], line: string): boolean {
  const held = classesOfLine(line);
  for (const wanted of classes) {
    if (![...held].some((value) => sameClass(value, wanted))) continue;
    if (wanted !== 'measure') return true;
    const lineWords = new Set((line.toLowerCase().match(/\p{L}+/gu) ?? []).map(stem));
    if (claim.values.some((item) => unitOf(item.text) !== '' && lineWords.has(unitOf(item.text)))) return true;
  }
  return false;
}

/** The values the claim's clause names besides the ones it gives: those it sets aside or names its subject by. */
function namedValues(claim: Claim): Specific[] {
  const tokens = claim.sentence.tokens;
  const from = tokens[claim.span[0]]?.start ?? 0;
  const to = tokens[claim.span[1] - 1]?.end ?? 0;
  const given = new Set(claim.values);
  return [...claim.oldValues, ...claim.sentence.specifics.filter((item) => item.start >= from && item.end <= to && !given.has(item) && !claim.oldValues.includes(item))];
}

/** A range of two years: "2010–2022", "2010-22" is not one; a date "2026-03-20" or a phone number is not one either. */
const YEAR_RANGE = /(?<![\d.,:-])((?:19|20)\d\d)\s*[–—-]\s*((?:19|20)\d\d)(?![\d:-]|[.,]\d)/gu;

const rangesIn = (text: string): Array<[string, string]> => [...text.matchAll(YEAR_RANGE)].map((match) => [match[1] ?? '', match[2] ?? '']);

/**
 * Whether a new value revises a range of years a line holds: one end kept, the other moved ("the study
 * period is now 2012–2022" of "… Dundee, 2010–2022"). A span of years is a value of its own shape; one
 * end in common is the same span said again with a change. (Small numbers, "ages 8–12" and "runs
 * 10–12", share ends by chance.)
 */
function revisesRange(value: string, line: string): boolean {
  const held = rangesIn(line);
  if (held.length === 0) return false;
  return rangesIn(value).some(([from, to]) => held.some(([heldFrom, heldTo]) => (from === heldFrom) !== (to === heldTo)));
}

/** Words that open a clause of reason, result or comment after what a claim states. */
const COMMENT_WORDS = ['because', 'since', 'so', 'which', 'although', 'though', 'while', 'but'];
const SUBORDINATE = new RegExp(`\\b(?:${[...COMMENT_WORDS, 'as'].join('|')})\\b`, 'iu');

/** Such a clause set off by a comma after a value: "23 January, so even more breathing room before February". */
export const COMMENT_CLAUSE = new RegExp(`[,;]\\s*(?:${COMMENT_WORDS.join('|')})\\b`, 'iu');

/**
 * The document fact the claim's new line may replace, or null: a fact holding a value of a competing
 * class the claim gives (but not the claim's value itself), whose key shares a subject word with the
 * claim's key, or — for a change said outright — whose line shares one with the claim's clause. People
 * named on both sides must be the same. The strongest match wins; a tie names none.
 */
export function doubtedFact(claim: Claim, facts: Iterable<Known>, names: ReadonlySet<string>): Known | null {
  const classes = claim.classes.filter((value) => COMPETING_CLASSES.has(value));
  // (Bare numbers compete only as a span of years said again: "the study period is now 2012–2022".)
  const ranged = claim.correction && rangesIn(claim.value).length > 0;
  if (claim.key === null || (classes.length === 0 && !ranged) || claim.act === 'removal') return null;
  const keyStems = contentStems(claim.key);
  // What the claim says, not why: "slid to June because a commercial job ran long" is about the start.
  const clauseStems = contentStems(`${claim.key} ${claim.value.split(SUBORDINATE)[0] ?? ''}`);
  const people = [...clauseStems].filter((word) => names.has(word));
  // "his mid-April start slid to June" names the value it changes: only a fact holding it can be the one.
  const named = namedValues(claim).filter((item) => COMPETING_CLASSES.has(classOfSpecific(item)));
  // (With the words of each, for telling a fact's words that belong to another thing's name.)
  const claimNames = claim.sentence.specifics.filter((item) => item.type === 'name').map((item) => ({ item, stems: contentStems(item.text) }));
  const said = [...clauseStems];

  // "We got to VFS at 8:30 … Our new slot is next Tuesday": a change that names no subject is about what
  // the sentence before it named.
  const contextStems = claim.correction ? contentStems(claim.context ?? '') : new Set<string>();
  let best: { fact: Known; score: number } | null = null;
  let tied: Known[] = [];
  const all: Known[] = [];
  for (const fact of facts) {
    all.push(fact);
    if (fact.factId === null || fact.kind === 'exception') continue;
    // A rule never replaces a plain fact: "nothing on a Sunday before 1pm" is no new studio.
    if (KIND_STRENGTH[claim.kind] >= KIND_STRENGTH.constraint && KIND_STRENGTH[fact.kind] < KIND_STRENGTH.constraint) continue;
    // (A span of years revised keeps one end: "2012–2022" of "2010–2022" holds 2022 and is still a change.)
    const revisedRange = ranged && revisesRange(claim.value, fact.text);
    if (!revisedRange && (!competes(claim, classes, fact.text) || claim.values.some((item) => factHolds(fact.text, item)))) continue;
    if (named.length > 0 && !named.some((item) => factHolds(fact.text, item))) continue;
    const factStems = contentStems(fact.text);
    const theirPeople = [...factStems].filter((word) => names.has(word));
    if (people.length > 0 && theirPeople.length > 0 && !people.some((word) => theirPeople.includes(word))) continue;
    const theirKey = contentStems(fact.key);
    const byKey = [...theirKey].filter((word) => keyStems.has(word) && !names.has(word)).length;
    // (A person both lines name counts too: "his INR is next Wednesday instead, with Janet" of "Janet wants to recheck him on the 20th".)
    // (A word of a name the fact does not hold whole is another thing's: "Soar Valley Skips" is not "Soar Community Chest".)
    const otherNames = claimNames.filter(({ item }) => !factHolds(fact.text, item));
    const byLine = [...factStems].filter(
      (word) => !otherNames.some(({ stems }) => stems.has(word)) && (clauseStems.has(word) || said.some((clauseWord) => derivedFrom(clauseWord, word))),
    ).length;
    const score = byKey * 2 + byLine;
    // "flat fee deadline" and "final artwork deadline" each name something the other does not: two subjects.
    const twoSubjects = [...keyStems].some((word) => !theirKey.has(word)) && [...theirKey].some((word) => !keyStems.has(word));
    const byKeyAlone = byKey > 0 && !twoSubjects;
    const byContext = byKey === 0 && byLine === 0 && [...theirKey].some((word) => contextStems.has(word) && !names.has(word));
    if (!byKeyAlone && !(claim.correction && byLine >= 1) && !byContext && !revisedRange) continue;
    if (best !== null && score < best.score) continue;
    tied = best !== null && score === best.score ? [...tied, fact] : [fact];
    if (tied.length === 1 || fact.order > (best?.fact.order ?? -1)) best = { fact, score };
  }
  if (best === null) return claim.correction ? nearAmount(claim, all) : null;
  return tied.length === 1 ? best.fact : (toldApartBySentence(tied, claim) ?? toldApartBySiblings(tied, all, keyStems));
}

/** Amounts of money a text writes in full ("$47,900", "£1,200"), as numbers. */
function amountsIn(text: string): number[] {
  return [...text.matchAll(/[$€£¥]\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d.,]*\s*(?:k|m|bn)\b)/giu)].map((match) => Number((match[1] ?? '').replace(/,/gu, '')));
}

/** How far apart two amounts may be, as a share of the larger, and still be one price revised ("$47,900" → "$49,300"). */
const REVISED_SHARE = 0.05;
/** The least amount read as a price revised: below it, close amounts are too common to tie ("pay £1,500" and "rent £1,450"). */
const REVISED_LEAST = 5_000;

/**
 * "the contract's $49,300 all-in now" of "casa nueva: $47,900, about 6 weeks": a new amount said as a
 * change, with no subject in common with any line, may replace the one line holding a single amount of
 * 5,000 or more within 5 % of it. Null when no line or several do.
 */
function nearAmount(claim: Claim, lines: readonly Known[]): Known | null {
  const given = amountsIn(claim.value);
  const [amount] = given;
  if (given.length !== 1 || amount === undefined || amount < REVISED_LEAST) return null;
  const near = lines.filter((line) => {
    if (line.factId === null || line.kind === 'exception') return false;
    const held = amountsIn(line.text);
    const [old] = held;
    return held.length === 1 && old !== undefined && old !== amount && Math.abs(old - amount) <= REVISED_SHARE * Math.max(old, amount);
  });
  return near.length === 1 ? (near[0] ?? null) : null;
}

/**
 * Of facts a claim fits equally, the only one holding a value its sentence names besides the claim's
 * own, by its words or the day it resolves to: "they're shut tomorrow, so his INR is next Wednesday
 * instead" of "janet recheck: … (20 March 2026)", said on the 19th. Null when none or several do.
 */
function toldApartBySentence(tied: readonly Known[], claim: Claim): Known | null {
  const own = new Set(claim.values);
  const named = claim.sentence.specifics.filter((item) => !own.has(item) && COMPETING_CLASSES.has(classOfSpecific(item)));
  if (named.length === 0) return null;
  const holds = (fact: Known): boolean => named.some((item) => factHolds(fact.text, item) || (item.resolved !== null && fact.text.includes(item.resolved)));
  const told = tied.filter(holds);
  return told.length === 1 ? (told[0] ?? null) : null;
}

/**
 * Of facts a claim fits equally, the only one read from a message whose other lines name the claim's
 * subject: "Rachel moved the Brightwater due date" of "flat fee deadline: $4,800, due 30 January", said
 * in the message that gave "brightwater kids: 12 spot illustrations", and not of another client's
 * deadline. Null when none or several are.
 */
function toldApartBySiblings(tied: readonly Known[], all: readonly Known[], keyStems: ReadonlySet<string>): Known | null {
  // (Only the subject words none of the tied facts says: "due" is in both deadlines.)
  const said = new Set(tied.flatMap((fact) => [...contentStems(fact.text)]));
  const subject = [...keyStems].filter((word) => !said.has(word));
  if (subject.length === 0) return null;
  const naming = new Set<string>();
  for (const line of all) {
    const stems = contentStems(line.text);
    if (subject.some((word) => stems.has(word))) for (const source of line.sources ?? []) naming.add(source);
  }
  const told = tied.filter((fact) => (fact.sources ?? []).some((source) => naming.has(source)));
  return told.length === 1 ? (told[0] ?? null) : null;
}
