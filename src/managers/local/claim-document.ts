/**
 * The base-truth document as a turn's claims change it: the facts before the turn and the lines the
 * turn proposes, which later claims of the turn may target again. It decides which fact a claim is about
 * (the same subject and attribute, never a shared number or common word alone) and keeps the turn's
 * adds, updates and removals.
 */
import { KIND_STRENGTH, type RemoveEntry } from '../../core/diff.js';
import { escapeRegExp, normalizeText, quoted } from '../../core/text.js';
import { aboutNamedChoice, firstWord, talksAboutChoice } from './superseded-choice.js';
import type { Fact, FactKind } from '../../core/types.js';
import type { Claim } from './claims.js';
import { factHolds } from './corrections.js';
import type { Specific } from './specifics.js';
import { classesOfLine, lineHoldsClass, type ValueClass } from './value-classes.js';
import { shiftDays, shiftedDay } from './date-shift.js';
import { keptParts, shownKey, swappedPart, swappedValue } from './line-edits.js';
import { contentStems, doubtedFact } from './claim-doubt.js';
import { BaseLines, KnownLines } from './known-lines.js';
import { NOTHING_LEFT_OUT, type LeftOut } from './left-out.js';
import { removalTarget } from './removal-target.js';
import type { Known } from './known-line.js';
import { subjectWords, targetScore } from './claim-target.js';
import { NUMBER_WORDS, ORDINAL_ENDINGS, ordinalWords } from './ordinal-words.js';

export type { Known } from './known-line.js';

/** A line the turn proposes. */
export interface Line {
  key: string;
  text: string;
  kind: FactKind;
  sources: string[];
  weight: number;
  /** It replaces a document fact (an update), not a new one (an add). */
  replaces: boolean;
  /** For an update: the words that changed the fact. */
  reason: string | undefined;
  /** For an add: the key of a document fact the line may replace (see `claim-doubt.ts`). */
  mayReplace?: string;
  order: number;
}

/** Whether a kind binds: a requirement or a hard rule. */
function isRule(kind: FactKind): boolean {
  return KIND_STRENGTH[kind] >= KIND_STRENGTH.constraint;
}

/** The longest quote of a sentence given as the reason of a change. */
const REASON_CHARACTERS = 160;

const CLASS_NOUN: Readonly<Record<ValueClass, string>> = {
  money: 'cost',
  percent: 'rate',
  date: 'date',
  count: 'count',
  measure: 'size',
  number: 'number',
  person: 'person',
  name: 'choice',
};

/**
 * The ordinal that tells further lines of a subject apart, after its key and class ("dev cost second"),
 * as `ordinalWords` writes it; documents written before it was used past "tenth" may also end in a run of
 * "again" (the first ten ordinals, round again).
 */
const ORDINAL_SUFFIX = `(?:(?:${NUMBER_WORDS.join('|')}) )*(?:${ORDINAL_ENDINGS.join('|')})(?: again)*`;

/** The words a second line of a subject takes after its key. */
const SUFFIX_WORDS: readonly string[] = [...new Set([...Object.values(CLASS_NOUN), 'fact', 'constraint', 'goal', 'preference', 'exception'])];

export class TurnDocument {
  /** The document's facts and the lines of the turn, found by the words of their keys. */
  private readonly known: KnownLines;
  private readonly pending = new Map<string, Line>();
  private readonly removed: RemoveEntry[] = [];
  /** Subject words of the lines the turn wrote (the document's are in its base). */
  private readonly trackedWords = new Set<string>();
  private order = 0;

  /** First names of the people of the turn: a name shared by two keys does not make them one subject. */
  private readonly names = new Set<string>();

  /**
   * `facts` are the facts the turn works on (as `base`, when one is kept for the session: it must hold
   * exactly them); `leftOut` what it knows of the document's other facts, whose keys a new line never takes.
   */
  constructor(
    facts: readonly Fact[],
    names: Iterable<string> = [],
    private readonly leftOut: LeftOut = NOTHING_LEFT_OUT,
    base: BaseLines = new BaseLines(facts),
  ) {
    for (const name of names) this.names.add(name.toLowerCase());
    this.known = new KnownLines(base);
  }

  /** Subject words of texts (a turn's replies), for `echoes`. */
  wordsOf(texts: readonly string[]): ReadonlySet<string> {
    const words = new Set<string>();
    for (const text of texts) for (const word of subjectWords(text)) words.add(word);
    return words;
  }

  /** Whether a key shares a subject word with a fact of the document. */
  tracks(key: string): boolean {
    for (const word of subjectWords(key)) if (this.trackedWords.has(word) || this.known.inBase('subject', word) || this.leftOut.hasWord(word)) return true;
    return false;
  }

  /** Whether a key shares a subject word with `words`. */
  echoes(key: string, words: ReadonlySet<string>): boolean {
    for (const word of subjectWords(key)) if (words.has(word)) return true;
    return false;
  }

  /** The known fact a claim is surely about, or null. */
  sure(claim: Claim, key: string): Known | null {
    const normalized = normalizeText(key);
    const words = subjectWords(key);
    let found: { entry: Known; score: number } | null = null;
    // (Only a line holding a value the claim sets aside may share no word of its key.)
    const candidates = claim.oldValues.length > 0 ? this.known.values() : this.known.withWords('subject', words, [normalized]);
    for (const entry of candidates) {
      const score = targetScore(claim, normalized, words, entry, this.names);
      if (score > 0 && (found === null || score > found.score || (score === found.score && entry.order > found.entry.order))) found = { entry, score };
    }
    if (found === null) return null;
    return found.score >= 5 || (found.score >= 4 && claim.correction) ? found.entry : null;
  }

  /** The one known fact a removal drops, or null (see `removal-target.ts`). */
  removalTarget(claim: Claim): Known | null {
    return removalTarget(this.known, this.names, claim);
  }

  /** Whether a known fact holds the value (its number, or its words). */
  holds(target: Known, item: Specific): boolean {
    return factHolds(target.text, item);
  }

  /** Whether a known fact holds a value of a class that can stand in for `wanted`. */
  holdsClass(target: Known, wanted: ValueClass): boolean {
    return lineHoldsClass(target.text, wanted);
  }

  /** The newest document fact holding one of the values (a line of this turn only when no fact does). */
  holderOf(values: readonly Specific[]): Known | null {
    let best: Known | null = null;
    for (const entry of this.known.values()) {
      if (!values.some((item) => factHolds(entry.text, item))) continue;
      const stored = entry.factId !== null;
      const bestStored = best?.factId !== null && best !== null;
      if (best === null || (stored && !bestStored) || (stored === bestStored && entry.order > best.order)) best = entry;
    }
    return best;
  }

  /** Every known fact and line of the turn. */
  knownLines(): Iterable<Known> {
    return this.known.values();
  }

  /** The known facts holding a value of the class. */
  withClass(wanted: ValueClass): Known[] {
    return [...this.known.values()].filter((entry) => classesOfLine(entry.text).has(wanted));
  }

  /** The newest known fact holding a value of the class. */
  newestWithClass(wanted: ValueClass): Known | null {
    let best: Known | null = null;
    for (const entry of this.known.values()) if (lineHoldsClass(entry.text, wanted) && (best === null || entry.order > best.order)) best = entry;
    return best;
  }

  /** Replace a known fact's line with the claim's (keeping its key), unless that would lose something. */
  update(target: Known, claim: Claim): void {
    // A change keeps the fact as binding as it was: "make that $45k" is still the budget limit.
    const kind = KIND_STRENGTH[claim.kind] >= KIND_STRENGTH[target.kind] ? claim.kind : target.kind;
    // Saying it again changes nothing; nor does a rule said again in other words, or a line with no value
    // for one that holds values (unless it says outright that something changed).
    if (normalizeText(target.text).includes(normalizeText(claim.value)) && kind === target.kind) return;
    if (!claim.correction && (target.kind === 'exception' || (claim.values.length === 0 && classesOfLine(target.text).size > 0))) return;
    // A plain line never takes the place of a requirement ("they fined the Parks $250" is not the HOA's hours):
    // it is a line of its own.
    // Nor does another clause of the same turn take the place of a line the turn just said ("Induction,
    // 30-inch, that's the plan. Aaron has been reading induction reviews"), unless it says a change.
    const sameTurnOther = target.factId === null && claim.key !== null && normalizeText(claim.key) !== target.key;
    // And a rule is not the fact it names ("nothing on a Sunday before 1pm, studio or gig" of "studio: Fernhill, £350 a day").
    const ruleOfFact = isRule(claim.kind) && target.kind === 'fact';
    // Nor does a plain change take the place of a rule it does not name by its key ("Instead we're ordering
    // 100 cassettes" is no change of "nothing on a Sunday before 1pm").
    const factOfRule = isRule(target.kind) && !isRule(claim.kind) && !claim.correction && (claim.key === null || normalizeText(claim.key) !== target.key);
    // Nor does a line about a thing chosen take the place of the choice (see `talksAboutChoice`).
    const factOfChoice = talksAboutChoice(target.text, claim);
    if (factOfRule || factOfChoice || (!claim.correction && (KIND_STRENGTH[target.kind] > KIND_STRENGTH[claim.kind] || sameTurnOther || ruleOfFact))) {
      this.add(claim);
      return;
    }
    // "it is 15 seats, not 12" in a line about the budget for 12 seats swaps the one value and keeps the rest;
    // in a line of several parts, the part holding the old value gives way to the claim.
    const swapped = swappedValue(target, claim) ?? swappedPart(target, claim);
    // A headcount that cannot take the place of one part of a line of several parts is a line of its own.
    if (swapped === null && claim.oldValues.length === 0 && claim.classes.includes('count') && /[,;]\s/u.test(target.text.slice(target.text.indexOf(':') + 1))) {
      this.add(claim);
      return;
    }
    // "pushed the deadline back a week": the line says the day it moved to.
    const days = shiftDays(claim.value);
    const moved = days === null ? null : shiftedDay(target.text, days, claim.sentAt);
    const text = swapped ?? `${shownKey(target)}: ${claim.value}${moved === null ? '' : ` (now ${moved})`}${keptParts(target, claim)}`;
    // A change of a value the target did not hold ("moved the Brightwater due date" of "brightwater: my
    // biggest client", "Kit's first shift was yesterday … the £13.10 we settled on" of his start day) may be
    // the change of another fact holding one ("kit barraclough cost: offering £12.80").
    // (Not a day that only says from when: "the rent is now £1,250 from 1 May" moves no meeting.)
    const held = claim.classes.some((wanted) => lineHoldsClass(target.text, wanted));
    const unheld = claim.classes.filter((wanted) => !lineHoldsClass(target.text, wanted) && !(held && wanted === 'date'));
    const doubted = claim.correction && unheld.length > 0 ? doubtedFact({ ...claim, classes: unheld }, this.others(target), this.names) : null;
    this.write(target.id, {
      key: target.key,
      text,
      kind,
      sources: [claim.messageId],
      weight: claim.weight + 1,
      replaces: target.factId !== null,
      reason: quoted(claim.sentence.text, REASON_CHARACTERS),
      ...(doubted === null ? {} : { mayReplace: doubted.key }),
    });
  }

  /** A new line for the claim; under a key of its own when its key holds another attribute. */
  add(claim: Claim): void {
    if (claim.key === null) return;
    const taken = (key: string): boolean => this.known.hasWord('key', normalizeText(key)) || this.leftOut.hasKey(normalizeText(key));
    // Another line of the subject takes the key and the class of its value ("dev cost"), then an ordinal
    // when that is taken too ("dev cost second"): a key already held would make the add an update of that
    // fact, and a digit in a key is a number the exchange must ground.
    let shown = claim.key;
    if (taken(shown)) {
      const named = `${claim.key} ${claim.classes[0] === undefined ? claim.kind : CLASS_NOUN[claim.classes[0]]}`;
      shown = named;
      // Every key tried is new, so this ends; the first free ordinal is taken, so the same document always gives the same key.
      for (let ordinal = 2; taken(shown); ordinal += 1) shown = `${named} ${ordinalWords(ordinal)}`;
    }
    // (A line of another subject can be the one only for a change said outright.)
    const candidates = claim.correction ? this.known.values() : this.known.withWords('stem', contentStems(claim.key));
    const doubted = doubtedFact(claim, candidates, this.names);
    this.write(`line:${normalizeText(shown)}`, {
      key: normalizeText(shown),
      text: `${shown}: ${claim.value}`,
      kind: claim.kind,
      sources: [claim.messageId],
      weight: claim.weight,
      replaces: false,
      reason: undefined,
      ...(doubted === null ? {} : { mayReplace: doubted.key }),
    });
  }

  /**
   * The other lines of the fact's subject: facts under its key with the suffix a second line of a
   * subject is given ("porto fact", "dev cost", "dev cost second"), and lines about a thing of that
   * subject its own line names, said in a message one of those lines was read from ("porto guesthouse:
   * sort out the Porto guesthouse myself", said with the Porto train): a dropped trip takes its
   * guesthouse with it, not the London office a skipped London trip never mentioned.
   */
  sameSubjectLines(target: Known): Known[] {
    const suffix = new RegExp(`^${escapeRegExp(target.key)} (?:${SUFFIX_WORDS.join('|')})(?: ${ORDINAL_SUFFIX})?$`, 'u');
    const thing = new RegExp(`^${escapeRegExp(target.key)}(?: \\p{L}+){1,2}$`, 'u');
    const lines: Known[] = [];
    const candidates: Known[] = [];
    for (const entry of this.known.values()) {
      if (entry.id === target.id) continue;
      if (suffix.test(entry.key)) lines.push(entry);
      else if (thing.test(entry.key) && entry.text.slice(entry.key.length).toLowerCase().includes(firstWord(entry.key))) candidates.push(entry);
    }
    const said = new Set([target, ...lines].flatMap((entry) => entry.sources ?? []));
    return [...lines, ...candidates.filter((entry) => (entry.sources ?? []).some((source) => said.has(source)))];
  }

  /**
   * The other known lines about the named choice a line is keyed by ("isarhaus", "isarhaus admissions" of
   * "isarhaus international school"; not "kings cross" of "kings college school").
   */
  linesAboutChoice(target: Known): Known[] {
    return this.known.withWords('subject', subjectWords(firstWord(target.key))).filter((entry) => entry.id !== target.id && aboutNamedChoice(entry, target));
  }

  /** Drop a known fact, with the claim's sentence as the reason. */
  remove(target: Known, claim: Claim): void {
    this.removeFor(target, claim.sentence.text, claim.messageId);
  }

  /** Drop a known fact, with `sentence` (of message `messageId`) as the reason. */
  removeFor(target: Known, sentence: string, messageId: string): void {
    this.known.delete(target.id);
    this.pending.delete(target.key);
    if (target.factId === null) return;
    const reason = quoted(sentence, REASON_CHARACTERS);
    if (!this.removed.some((entry) => entry.key === target.key)) this.removed.push({ key: target.key, reason, sourceMessageIds: [messageId] });
  }

  /** The known facts other than `target`. */
  private others(target: Known): Known[] {
    return [...this.known.values()].filter((entry) => entry.id !== target.id);
  }

  lines(): Line[] {
    return [...this.pending.values()];
  }

  removals(): RemoveEntry[] {
    return [...this.removed];
  }

  private write(id: string, line: Omit<Line, 'order'>): void {
    const previous = this.pending.get(line.key);
    // Within a turn the later line wins, but never a weaker kind over a rule.
    if (previous !== undefined && KIND_STRENGTH[previous.kind] > KIND_STRENGTH[line.kind]) return;
    this.order += 1;
    this.pending.set(line.key, {
      ...line,
      sources: [...new Set([...(previous?.sources ?? []), ...line.sources])],
      replaces: line.replaces || previous?.replaces === true,
      reason: line.reason ?? previous?.reason,
      order: this.order,
    });
    // A document fact the turn rewrites stays that fact (a later removal in the turn must remove it).
    const factId = this.known.get(id)?.factId ?? null;
    this.known.set({ id, key: line.key, text: line.text, kind: line.kind, factId, order: Number.MAX_SAFE_INTEGER - 1_000_000 + this.order, sources: line.sources });
    for (const word of subjectWords(line.key)) this.trackedWords.add(word);
  }
}
