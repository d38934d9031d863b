/**
 * The base-truth document as a turn's claims change it: the facts before the turn and the lines the
 * turn proposes, which later claims of the turn may target again. It decides which fact a claim is about
 * (the same subject and attribute, never a shared number or common word alone) and keeps the turn's
 * adds, updates and removals.
 */
import { boundedMemo } from '../../core/bounded-memo.js';
import { KIND_STRENGTH, type RemoveEntry } from '../../core/diff.js';
import { normalizeText, quoted } from '../../core/text.js';
import type { Fact, FactKind } from '../../core/types.js';
import type { Claim } from './claims.js';
import { factHolds, stem } from './corrections.js';
import type { Specific } from './specifics.js';
import { GENERIC_NOUNS, META_NOUNS, STOP_WORDS } from './function-words.js';
import { classOfSpecific, classesOfLine, lineHoldsClass, sameClass, type ValueClass } from './value-classes.js';
import { numbersIn } from '../../core/grounding.js';
import { shiftDays, shiftedDay } from './date-shift.js';
import { doubtedFact } from './claim-doubt.js';

/** A fact of the document or a line proposed earlier in the turn. */
export interface Known {
  id: string;
  key: string;
  text: string;
  kind: FactKind;
  /** The document fact's id; null for a line of this turn. */
  factId: string | null;
  order: number;
}

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
 * The words of a key that tell one subject from another (no stop words, no generic nouns), stemmed.
 * Remembered: every turn compares its claims with the keys and lines of the whole document.
 */
export const subjectWords: (key: string) => ReadonlySet<string> = boundedMemo((key: string): ReadonlySet<string> => {
  const words = normalizeText(key).split(' ');
  return new Set(words.filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !GENERIC_NOUNS.has(word) && !META_NOUNS.has(word)).map(stem));
}, 20_000);

/** Whether the claim's value can stand in for a value the line holds: true, false, or null when either holds none. */
function compatible(claim: Claim, text: string): boolean | null {
  const held = classesOfLine(text);
  if (claim.classes.length === 0 || held.size === 0) return null;
  // A clause may state two things ("first shift yesterday … the £13.10 we settled on"): any of its values may be the one.
  for (const wanted of claim.classes) for (const value of held) if (sameClass(value, wanted)) return true;
  return false;
}

/** "54 now, not 60" of a budget of $60,000: a bare number may stand for thousands of an amount. */
function holdsValue(text: string, item: Specific): boolean {
  if (factHolds(text, item)) return true;
  if (item.type !== 'number' || !/^\d{1,3}$/u.test(item.text.trim())) return false;
  const thousands = String(Number(item.text.trim()) * 1000);
  return /[$€£¥]|\b(?:k|usd|eur|gbp|dollars?|euros?|pounds?)\b/iu.test(text) && numbersIn(text).includes(thousands);
}

/**
 * How surely a claim is about a known fact: 10 an old value it holds, 8 the same key, 4+ a shared subject
 * word; 0 none. A subject is a thing and, in keys about people, a person: "anna office" and "tom office"
 * are two subjects, and so are "caroline support group" and "caroline puppy".
 */
function targetScore(claim: Claim, key: string, words: ReadonlySet<string>, known: Known, names: ReadonlySet<string>): number {
  if (claim.oldValues.some((item) => holdsValue(known.text, item))) return 10;
  const fit = compatible(claim, known.text);
  // Under one key, a line of another kind with no value to compare is another attribute ("Target is AWS" is not "no clicking in the AWS console").
  if (key === known.key) return fit === false || (fit === null && !claim.correction && claim.kind !== known.kind) ? 0 : 8;
  const knownWords = subjectWords(known.key);
  const people = [...words].filter((word) => names.has(word));
  const knownPeople = [...knownWords].filter((word) => names.has(word));
  if (people.length > 0 && knownPeople.length > 0 && !people.some((word) => knownWords.has(word))) return 0;
  let shared = 0;
  for (const word of knownWords) if (words.has(word) && !names.has(word)) shared += 1;
  // "the £13.10 we settled on in the end" about Kit: a change of a value of Kit's, of the same class.
  if (shared === 0 && claim.correction && fit === true && people.some((word) => knownWords.has(word))) return 4;
  if (shared === 0 || fit === false) return 0;
  // "quarterly report" and "report deadline" each name something the other does not: two attributes of
  // one thing, unless a change is said outright.
  const ownWords = [...words].filter((word) => !knownWords.has(word) && !names.has(word));
  const otherWords = [...knownWords].filter((word) => !words.has(word) && !names.has(word));
  if (!claim.correction && ownWords.length > 0 && otherWords.length > 0) return 2 + shared;
  // A value of the same class, or a change said outright, makes it sure enough.
  return fit === true || claim.correction ? 4 + shared : 2 + shared;
}

export class TurnDocument {
  private readonly known = new Map<string, Known>();
  private readonly pending = new Map<string, Line>();
  private readonly removed: RemoveEntry[] = [];
  private readonly trackedWords = new Set<string>();
  private order = 0;

  /** First names of the people of the turn: a name shared by two keys does not make them one subject. */
  private readonly names = new Set<string>();

  constructor(facts: readonly Fact[], names: Iterable<string> = []) {
    for (const name of names) this.names.add(name.toLowerCase());
    for (const fact of facts) {
      this.known.set(`fact:${fact.id}`, { id: `fact:${fact.id}`, key: fact.key, text: fact.text, kind: fact.kind, factId: fact.id, order: fact.updatedTurn });
      for (const word of subjectWords(fact.key)) this.trackedWords.add(word);
    }
  }

  /** Subject words of texts (a turn's replies), for `echoes`. */
  wordsOf(texts: readonly string[]): ReadonlySet<string> {
    const words = new Set<string>();
    for (const text of texts) for (const word of subjectWords(text)) words.add(word);
    return words;
  }

  /** Whether a key shares a subject word with a fact of the document. */
  tracks(key: string): boolean {
    for (const word of subjectWords(key)) if (this.trackedWords.has(word)) return true;
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
    for (const entry of this.known.values()) {
      const score = targetScore(claim, normalized, words, entry, this.names);
      if (score > 0 && (found === null || score > found.score || (score === found.score && entry.order > found.entry.order))) found = { entry, score };
    }
    if (found === null) return null;
    return found.score >= 5 || (found.score >= 4 && claim.correction) ? found.entry : null;
  }

  /**
   * The fact a removal describes rather than keys: "we don't need to migrate the socket.io chat widget"
   * drops "widget: the live chat widget … has to be migrated". The clause must share a word with the
   * fact's key and at least two with its line; the fact sharing most wins, and a tie names none.
   */
  describedBy(claim: Claim): Known | null {
    const words = subjectWords(claim.value);
    let best: { entry: Known; shared: number } | null = null;
    let tied = false;
    for (const entry of this.known.values()) {
      if (![...subjectWords(entry.key)].some((word) => words.has(word) && !this.names.has(word))) continue;
      let shared = 0;
      for (const word of subjectWords(entry.text)) if (words.has(word)) shared += 1;
      if (shared < 2 || (best !== null && shared < best.shared)) continue;
      tied = best !== null && shared === best.shared;
      if (!tied || entry.order > (best?.entry.order ?? -1)) best = { entry, shared };
    }
    return best === null || tied ? null : best.entry;
  }

  /** The newest known fact under exactly this key. */
  sameKey(key: string): Known | null {
    const normalized = normalizeText(key);
    let best: Known | null = null;
    for (const entry of this.known.values()) if (entry.key === normalized && (best === null || entry.order > best.order)) best = entry;
    return best;
  }

  /**
   * "Jonas is out": for a key that is one person's name, the one fact whose key names that person
   * ("colleague jonas meier"); null when none or several do.
   */
  onlyKeyNaming(key: string): Known | null {
    const name = normalizeText(key);
    if (name.includes(' ') || !this.names.has(name)) return null;
    const naming = [...this.known.values()].filter((entry) => entry.key.split(' ').includes(name));
    return naming.length === 1 ? (naming[0] ?? null) : null;
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
    this.write(target.id, { key: target.key, text, kind, sources: [claim.messageId], weight: claim.weight + 1, replaces: target.factId !== null, reason: quoted(claim.sentence.text, REASON_CHARACTERS) });
  }

  /** A new line for the claim; under a key of its own when its key holds another attribute. */
  add(claim: Claim): void {
    if (claim.key === null) return;
    const key = normalizeText(claim.key);
    const taken = [...this.known.values()].some((entry) => entry.key === key);
    const shown = taken ? `${claim.key} ${claim.classes[0] === undefined ? claim.kind : CLASS_NOUN[claim.classes[0]]}` : claim.key;
    const doubted = doubtedFact(claim, this.known.values(), this.names);
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

  /** Drop a known fact, with the claim's sentence as the reason. */
  remove(target: Known, claim: Claim): void {
    this.known.delete(target.id);
    this.pending.delete(target.key);
    if (target.factId === null) return;
    const reason = quoted(claim.sentence.text, REASON_CHARACTERS);
    if (!this.removed.some((entry) => entry.key === target.key)) this.removed.push({ key: target.key, reason, sourceMessageIds: [claim.messageId] });
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
    this.known.set(id, { id, key: line.key, text: line.text, kind: line.kind, factId, order: Number.MAX_SAFE_INTEGER - 1_000_000 + this.order });
    for (const word of subjectWords(line.key)) this.trackedWords.add(word);
  }
}

/**
 * The target line with the one value the claim sets aside replaced by its one new value of the same
 * class, when the line holds more than that value or is about another subject; null otherwise.
 */
function swappedValue(target: Known, claim: Claim): string | null {
  const [old] = claim.oldValues;
  if (old === undefined || claim.oldValues.length > 1) return null;
  const oldClass = classOfSpecific(old);
  const fresh = claim.values.filter((item) => sameClass(classOfSpecific(item), oldClass));
  const [next] = fresh;
  if (next === undefined || fresh.length !== 1) return null;
  const colon = target.text.indexOf(':');
  const sameSubject = claim.key !== null && normalizeText(claim.key) === target.key;
  if (sameSubject && numbersIn(target.text.slice(colon + 1)).length < 2) return null;
  // A bare number set aside ("not 12") swaps for the new number alone ("15", not "15 seats").
  const replacement = /^\d[\d,.]*$/u.test(old.text.trim()) ? (/\d[\d,.]*/u.exec(next.text)?.[0] ?? next.text) : next.text;
  const at = factHolds(target.text, old) ? target.text.toLowerCase().indexOf(old.text.toLowerCase(), colon + 1) : -1;
  if (at > colon) return `${target.text.slice(0, at)}${replacement}${target.text.slice(at + old.text.length)}`;
  // "54 now, not 60" in "$60,000 all in" gives "$54,000 all in".
  const shorthand = holdsValue(target.text, old) ? /[$€£¥]?\s?\d{1,3}[,.]000\b/u.exec(target.text.slice(colon + 1)) : null;
  if (shorthand !== null && /^\d{1,3}$/u.test(replacement)) {
    const start = colon + 1 + shorthand.index;
    const written = shorthand[0].replace(/\d{1,3}(?=[,.]000)/u, replacement);
    return `${target.text.slice(0, start)}${written}${target.text.slice(start + shorthand[0].length)}`;
  }
  // The same number written differently ("12" for "12 contractor seats"): swap the number.
  const [oldNumber] = numbersIn(old.text);
  const newNumber = /\d[\d,.]*/u.exec(next.text)?.[0];
  if (oldNumber === undefined || newNumber === undefined) return null;
  for (const match of target.text.matchAll(/\d[\d,.]*\d|\d/gu)) {
    if (match.index <= colon || numbersIn(match[0])[0] !== oldNumber) continue;
    return `${target.text.slice(0, match.index)}${newNumber}${target.text.slice(match.index + match[0].length)}`;
  }
  return null;
}

/**
 * The target line with the one comma-separated part that holds the claim's old value replaced by the
 * claim's value, when the line has other parts: "parse_events(path) returning a list of dicts, with ts
 * parsed from ISO 8601 strings" keeps the list and takes the new ts. Null otherwise.
 */
function swappedPart(target: Known, claim: Claim): string | null {
  // The part holding the old value, or, for a headcount changed without saying the old one ("that's
  // thirteen of us now"), the one part holding a count of people.
  const byCount = claim.oldValues.length === 0 && claim.correction && claim.classes.includes('count');
  const holds = (part: string): boolean => (byCount ? classesOfLine(`x: ${part}`).has('count') : claim.oldValues.some((item) => factHolds(part, item)));
  if (claim.oldValues.length === 0 && !byCount) return null;
  const colon = target.text.indexOf(':');
  const parts = target.text.slice(colon + 1).split(/(,\s+|;\s+)/u);
  const holding = parts.map((part, index) => (index % 2 === 0 && holds(part) ? index : -1)).filter((index) => index >= 0);
  if (parts.length < 3 || holding.length !== 1) return null;
  const [at = 0] = holding;
  const label = claim.key !== null && normalizeText(claim.key) !== target.key && !byCount ? `${claim.key}: ` : '';
  parts[at] = `${at === 0 ? ' ' : ''}${label}${claim.value}`;
  return `${target.text.slice(0, colon + 1)}${parts.join('')}`;
}

/** Classes of the values that make a part of a line an attribute of its own (not a name). */
const ATTRIBUTE_VALUES: ReadonlySet<ValueClass> = new Set(['money', 'percent', 'date', 'count', 'measure']);

/**
 * The parts of the target line a change of another attribute leaves standing: "budget: €18,000 a year,
 * for 42 agent seats" raised to €22,000 still covers 42 seats. A part stays when it holds a value of a
 * class the claim gives none of (and not a value the claim sets aside); '' when none does.
 */
function keptParts(target: Known, claim: Claim): string {
  if (target.factId === null || claim.classes.length === 0) return '';
  const parts = target.text.slice(target.text.indexOf(':') + 1).split(/[,;]\s+/u);
  if (parts.length < 2) return '';
  const kept = parts.filter((part) => {
    const held = [...classesOfLine(`x: ${part}`)].filter((value) => ATTRIBUTE_VALUES.has(value));
    // (A bare "8" from "Anika, 8, and Vihaan, 6" is no attribute.)
    if (held.length === 0 || part.trim().split(/\s+/u).length < 3 || claim.oldValues.some((item) => factHolds(part, item))) return false;
    return held.every((value) => !claim.classes.some((wanted) => sameClass(value, wanted)));
  });
  return kept.map((part) => `; ${part.trim()}`).join('');
}

/** The key as the fact line writes it. */
function shownKey(entry: Known): string {
  const colon = entry.text.indexOf(':');
  const written = colon > 0 ? entry.text.slice(0, colon).trim() : '';
  return written !== '' && normalizeText(written) === entry.key ? written : entry.key;
}
