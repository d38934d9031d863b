/**
 * The local manager's consolidation: a fact said twice in other words is kept once. A fact whose line the
 * other one holds whole, or that shares nearly all its words with it, leaves the document as a
 * `consolidate` event naming the line that stays. The newer line stays (it is what was said last), a
 * pinned exception always stays, and two pinned exceptions are both kept.
 *
 * A manager's `LocalConsolidator` remembers, per session, the lines its last consolidation left: they were
 * all compared with each other then, and two lines compared once decide the same way again while neither
 * changed (its text, turn and pinning decide). So the next consolidation compares only the pairs holding a
 * line added or changed since, and merges exactly what comparing every pair again would.
 */
import { scopedMemo } from '../../core/memo-space.js';
import { keptInStoreOrder } from '../../core/diff.js';
import { addTo } from '../../core/list-map.js';
import { compareText, quoted } from '../../core/text.js';
import type { Fact } from '../../core/types.js';
import type { ConsolidateOptions, ConsolidationChange, ConsolidationResult } from '../consolidation.js';
import { compareForm, mayRepeat, prefixOf, repeats, type Compared } from './line-comparison.js';

/**
 * Work a consolidation does between two turns of the event loop: candidates looked at (about 20–50 ms on
 * a 2-core machine), or lines put in their compared form and indexed (about 40 ms when none is known yet).
 */
const SLICE_CANDIDATES = 200_000;
const FORMS_PER_SLICE = 2_500;

/** The later lines each line is compared with (`of`), and how many candidates finding them has looked at so far. */
interface Partners {
  of(index: number): number[];
  scanned(): number;
}

/**
 * For each line, the later lines that may repeat it or that it may repeat, in order; the rest can never
 * be one fact said twice, so they are not compared (a document of thousands of lines would otherwise cost
 * millions of comparisons). Words are ranked rarest first across the document. A line held whole by
 * another has all its words in it, its rarest word among them; two lines sharing at least 80 % of their
 * words (Dice) share at least two thirds of each one's words, so the first word they share in that
 * ranking is among the first `n - ceil(2n / 3) + 1` words of each (its prefix). So the partners of a line
 * are the lines holding its rarest word, the lines holding it as their rarest word, and the lines whose
 * prefix shares a word with its prefix; a line of stop words only is compared with every later line.
 * Of those, only the pairs `mayRepeat` keeps are returned.
 */
function* likelyRepeats(forms: readonly Compared[]): Generator<void, Partners> {
  const frequency = new Map<string, number>();
  for (const form of forms) for (const word of form.words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const rarestFirst = (a: string, b: string): number => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || compareText(a, b);
  const ranked: string[][] = [];
  const prefixes: Array<readonly string[]> = [];
  const byWord = new Map<string, number[]>();
  const byRarest = new Map<string, number[]>();
  const byPrefix = new Map<string, number[]>();
  const wordless: number[] = [];
  for (const [at, form] of forms.entries()) {
    if (at > 0 && at % FORMS_PER_SLICE === 0) yield;
    const words = form.padded === '' ? [] : [...form.words].sort(rarestFirst);
    const prefix = prefixOf(words);
    ranked.push(words);
    prefixes.push(prefix);
    if (form.padded === '') continue;
    if (words.length === 0) wordless.push(at);
    for (const word of words) addTo(byWord, word, at);
    if (words[0] !== undefined) addTo(byRarest, words[0], at);
    for (const word of prefix) addTo(byPrefix, word, at);
  }
  let scanned = 0;
  const of = (index: number): number[] => {
    const words = ranked[index];
    const form = forms[index];
    if (words === undefined || form === undefined || form.padded === '') return [];
    // Only pairs that may repeat each other are kept (`mayRepeat`): most share a word and nothing more.
    const found = new Set<number>();
    const collect = (list: readonly number[] | undefined): void => {
      if (list === undefined) return;
      scanned += list.length;
      for (const at of list) if (at > index && !found.has(at) && mayRepeat(form, forms[at] as Compared)) found.add(at);
    };
    if (words.length === 0) {
      scanned += forms.length;
      return forms.flatMap((other, at) => (at > index && mayRepeat(form, other) ? [at] : []));
    }
    collect(byWord.get(words[0] ?? ''));
    for (const word of words) collect(byRarest.get(word));
    for (const word of prefixes[index] ?? []) collect(byPrefix.get(word));
    collect(wordless);
    return [...found].sort((a, b) => a - b);
  };
  return { of, scanned: () => scanned };
}

/** Which of two facts that repeat each other stays: a pinned exception, else the newer, else the longer. */
function keeper(a: Fact, b: Fact): Fact {
  if (a.pinned !== b.pinned) return a.pinned ? a : b;
  if (a.updatedTurn !== b.updatedTurn) return a.updatedTurn > b.updatedTurn ? a : b;
  return b.text.length > a.text.length ? b : a;
}

/**
 * The later lines each line may repeat or be repeated by, among the pairs holding at least one `fresh`
 * line. As in `likelyRepeats`, with each line's own ranking (any ranking shared by all lines will do):
 * the lines holding a fresh line's first word, those whose first word it holds, those sharing a prefix
 * word with it, and the lines of stop words only.
 */
function freshPartners(forms: readonly Compared[], fresh: readonly boolean[]): Partners {
  const freshForms = forms.filter((form, index) => fresh[index] === true && form.padded !== '');
  const firsts = new Set(freshForms.flatMap((form) => form.ranked.slice(0, 1)));
  const words = new Set(freshForms.flatMap((form) => form.ranked));
  const prefixWords = new Set(freshForms.flatMap((form) => prefixOf(form.ranked)));
  const holding = new Map<string, number[]>();
  const byFirst = new Map<string, number[]>();
  const byPrefix = new Map<string, number[]>();
  const wordless: number[] = [];
  forms.forEach((form, at) => {
    if (form.padded === '') return;
    if (form.words.size === 0) wordless.push(at);
    for (const word of form.ranked) if (firsts.has(word)) addTo(holding, word, at);
    const first = form.ranked[0];
    if (first !== undefined && words.has(first)) addTo(byFirst, first, at);
    for (const word of prefixOf(form.ranked)) if (prefixWords.has(word)) addTo(byPrefix, word, at);
  });
  const later = new Map<number, Set<number>>();
  forms.forEach((form, index) => {
    if (fresh[index] !== true || form.padded === '') return;
    const others =
      form.words.size === 0
        ? forms.keys()
        : [holding.get(form.ranked[0] ?? '') ?? [], ...form.ranked.map((word) => byFirst.get(word) ?? []), ...prefixOf(form.ranked).map((word) => byPrefix.get(word) ?? []), wordless].flat();
    for (const at of others) {
      if (at === index || !mayRepeat(form, forms[at] as Compared)) continue;
      const [first, second] = at < index ? [at, index] : [index, at];
      const set = later.get(first);
      if (set === undefined) later.set(first, new Set([second]));
      else set.add(second);
    }
  });
  let scanned = 0;
  const of = (index: number): number[] => {
    const found = [...(later.get(index) ?? [])].sort((a, b) => a - b);
    scanned += found.length;
    return found;
  };
  return { of, scanned: () => scanned };
}

/** What decides how a line compares (its turn, pinning and text), as a 53-bit hash. */
function signature(fact: Fact): number {
  const text = `${fact.updatedTurn}\u0000${fact.pinned ? 1 : 0}\u0000${fact.text}`;
  let low = 0x811c9dc5;
  let high = 0x9e3779b9 ^ text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193);
    high = Math.imul(high ^ code, 0x85ebca6b);
    high ^= high >>> 13;
  }
  return (low >>> 0) * 0x200000 + ((high >>> 0) & 0x1fffff);
}

/**
 * Merge the duplicates of `facts` (`forms` are their compared forms), comparing only the pairs `partners`
 * gives, in store order (see the module comment). It stops (yields) after each slice of candidates looked
 * at, so a large document can be consolidated without holding the event loop.
 */
function* merge(facts: readonly Fact[], forms: readonly Compared[], partners: Partners): Generator<void, { gone: Set<string>; changes: ConsolidationChange[] }> {
  const gone = new Set<string>();
  const changes: ConsolidationChange[] = [];
  let sliceEnd = SLICE_CANDIDATES;
  for (const [index, fact] of facts.entries()) {
    if (partners.scanned() >= sliceEnd) {
      sliceEnd = partners.scanned() + SLICE_CANDIDATES;
      yield;
    }
    if (gone.has(fact.id)) continue;
    for (const otherIndex of partners.of(index)) {
      const other = facts[otherIndex];
      if (other === undefined) continue;
      if (gone.has(other.id) || gone.has(fact.id) || (fact.pinned && other.pinned)) continue;
      const stays = keeper(fact, other);
      const [leaves, leavesForm, staysForm] = stays === fact ? [other, forms[otherIndex], forms[index]] : [fact, forms[index], forms[otherIndex]];
      // The line that leaves must be said whole by the one that stays.
      if (leavesForm === undefined || staysForm === undefined || !repeats(leavesForm, staysForm)) continue;
      gone.add(leaves.id);
      changes.push({
        op: 'consolidate',
        factId: leaves.id,
        key: leaves.key,
        kind: leaves.kind,
        oldText: leaves.text,
        newText: null,
        reason: `said again as ${quoted(stays.text, 120)} (turn ${stays.updatedTurn})`,
        sourceMessageIds: leaves.sourceMessageIds,
      });
    }
  }
  return { gone, changes };
}

/** The compared form of each line by its text, kept in the running work's memo space. */
const compared = scopedMemo(compareForm);

/**
 * Consolidation for one manager: what each session's last consolidation left (up to `maxSessions`
 * sessions, the least recently consolidated forgotten first).
 */
export class LocalConsolidator {
  private readonly left = new Map<string, Map<string, number>>();
  /** Signatures by fact: facts are never changed in place, so a fact seen before is not hashed again. */
  private readonly signatures = new WeakMap<Fact, number>();
  /**
   * Compared forms by fact, for the same reason: looking 10,000 lines up by text in the memo space took
   * about 115 ms of each consolidation of such a document (scratch profile), by object about 1.
   */
  private readonly forms = new WeakMap<Fact, Compared>();

  constructor(private readonly maxSessions = 16) {}

  /** Merge the document's duplicates and near-duplicates (see the module comment), in one go. Never fails. */
  consolidate(options: ConsolidateOptions): ConsolidationResult {
    const slices = this.slices(options);
    for (;;) {
      const step = slices.next();
      if (step.done === true) return step.value;
    }
  }

  /**
   * The same consolidation in slices of work: each `next()` does one (about 20–40 ms on a large document)
   * and the last returns the result, so the caller can let other work run between them. Run each slice in
   * the memo space the manager's work uses. The document must not change before the last slice.
   */
  *slices(options: ConsolidateOptions): Generator<void, ConsolidationResult> {
    const facts = keptInStoreOrder(options.facts);
    const sessionId = facts[0]?.sessionId;
    // Each line is normalised once, not once per pair (about 15 µs a line the first time).
    const forms: Compared[] = [];
    for (const [index, fact] of facts.entries()) {
      if (index > 0 && index % FORMS_PER_SLICE === 0) yield;
      let known = this.forms.get(fact);
      if (known === undefined) this.forms.set(fact, (known = compared(fact.text)));
      forms.push(known);
    }
    const signatures = facts.map((fact) => {
      let known = this.signatures.get(fact);
      if (known === undefined) this.signatures.set(fact, (known = signature(fact)));
      return known;
    });
    const before = sessionId === undefined ? undefined : this.left.get(sessionId);
    const fresh = facts.map((fact, index) => before?.get(fact.id) !== signatures[index]);
    const freshCount = fresh.filter(Boolean).length;
    // Many new lines are compared faster through the word index over the whole document.
    const partners = freshCount * 4 > facts.length ? yield* likelyRepeats(forms) : freshPartners(forms, fresh);
    const { gone, changes } = yield* merge(facts, forms, partners);
    if (sessionId !== undefined) {
      this.left.delete(sessionId);
      if (this.left.size >= this.maxSessions) this.left.delete(this.left.keys().next().value ?? '');
      this.left.set(sessionId, new Map(facts.flatMap((fact, index) => (gone.has(fact.id) ? [] : [[fact.id, signatures[index] ?? 0] as const]))));
    }
    return { outcome: 'accepted', changes };
  }
}

/** Merge the document's duplicates and near-duplicates, comparing every pair that may merge (see the module comment). */
export function consolidateLocally(options: ConsolidateOptions): ConsolidationResult {
  return new LocalConsolidator().consolidate(options);
}
