/**
 * The local manager's consolidation: a fact said twice in other words is kept once. A fact whose line the
 * other one holds whole, or that shares nearly all its words with it, leaves the document as a
 * `consolidate` event naming the line that stays. The newer line stays (it is what was said last), a
 * pinned exception always stays, and two pinned exceptions are both kept.
 */
import { boundedMemo } from '../../core/bounded-memo.js';
import { inStoreOrder } from '../../core/diff.js';
import { normalizeText, quoted } from '../../core/text.js';
import type { Fact } from '../../core/types.js';
import type { ConsolidateOptions, ConsolidationResult } from '../memory-manager.js';
import { STOP_WORDS } from './function-words.js';

/** Least share of words (Sørensen–Dice) two lines must have in common to be one fact said twice. */
const NEAR_DUPLICATE = 0.8;

/** A fact's value as compared: normalised and padded with spaces, and its words without stop words. */
interface Compared {
  padded: string;
  words: ReadonlySet<string>;
}

/**
 * A fact's value as compared, remembered by text: a document's lines recur from one consolidation to the
 * next. Room for a document of a few thousand lines, no more: a larger one is compared afresh each time.
 */
const compared = boundedMemo((text: string): Compared => {
  const colon = text.indexOf(':');
  const value = normalizeText(colon > 0 ? text.slice(colon + 1) : text);
  return { padded: value === '' ? '' : ` ${value} `, words: new Set(value.split(' ').filter((word) => word !== '' && !STOP_WORDS.has(word))) };
}, 4_000);

/** Sørensen–Dice coefficient of two word sets. */
function dice(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return (2 * shared) / (left.size + right.size);
}

/** Whether `other` says all that `fact` says: the same line, a line holding it whole, or nearly the same words. */
function repeats(fact: Compared, other: Compared): boolean {
  if (fact.padded === '' || other.padded === '') return false;
  if (other.padded.includes(fact.padded)) return true;
  return fact.words.size > 0 && other.words.size > 0 && dice(fact.words, other.words) >= NEAR_DUPLICATE;
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
 */
function likelyRepeats(forms: readonly Compared[]): (index: number) => number[] {
  const frequency = new Map<string, number>();
  for (const form of forms) for (const word of form.words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const rarestFirst = (a: string, b: string): number => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0);
  const ranked = forms.map((form) => (form.padded === '' ? [] : [...form.words].sort(rarestFirst)));
  const prefixes = ranked.map((words) => words.slice(0, words.length - Math.ceil((2 * words.length) / 3) + 1));
  const byWord = new Map<string, number[]>();
  const byRarest = new Map<string, number[]>();
  const byPrefix = new Map<string, number[]>();
  const add = (index: Map<string, number[]>, word: string, at: number): void => {
    const list = index.get(word);
    if (list === undefined) index.set(word, [at]);
    else list.push(at);
  };
  const wordless: number[] = [];
  ranked.forEach((words, at) => {
    if (forms[at]?.padded === '') return;
    if (words.length === 0) wordless.push(at);
    for (const word of words) add(byWord, word, at);
    if (words[0] !== undefined) add(byRarest, words[0], at);
    for (const word of prefixes[at] ?? []) add(byPrefix, word, at);
  });
  return (index) => {
    const words = ranked[index];
    if (words === undefined || forms[index]?.padded === '') return [];
    if (words.length === 0) return forms.flatMap((other, at) => (at > index && other.padded !== '' ? [at] : []));
    const found = new Set<number>();
    const collect = (list: readonly number[] | undefined): void => {
      for (const at of list ?? []) if (at > index) found.add(at);
    };
    collect(byWord.get(words[0] ?? ''));
    for (const word of words) collect(byRarest.get(word));
    for (const word of prefixes[index] ?? []) collect(byPrefix.get(word));
    collect(wordless);
    return [...found].sort((a, b) => a - b);
  };
}

/** Which of two facts that repeat each other stays: a pinned exception, else the newer, else the longer. */
function keeper(a: Fact, b: Fact): Fact {
  if (a.pinned !== b.pinned) return a.pinned ? a : b;
  if (a.updatedTurn !== b.updatedTurn) return a.updatedTurn > b.updatedTurn ? a : b;
  return b.text.length > a.text.length ? b : a;
}

/** Merge the document's duplicates and near-duplicates (see the module comment). Never fails. */
export function consolidateLocally(options: ConsolidateOptions): ConsolidationResult {
  const gone = new Set<string>();
  const changes: Array<Extract<ConsolidationResult, { outcome: 'accepted' }>['changes'][number]> = [];
  const facts = inStoreOrder(options.facts);
  // Each line is normalised once, not once per pair.
  const forms = new Map(facts.map((fact) => [fact.id, compared(fact.text)]));
  const form = (fact: Fact): Compared => forms.get(fact.id) ?? compared(fact.text);
  const partners = likelyRepeats(facts.map(form));
  for (const [index, fact] of facts.entries()) {
    if (gone.has(fact.id)) continue;
    for (const otherIndex of partners(index)) {
      const other = facts[otherIndex];
      if (other === undefined) continue;
      if (gone.has(other.id) || gone.has(fact.id) || (fact.pinned && other.pinned)) continue;
      const stays = keeper(fact, other);
      const leaves = stays === fact ? other : fact;
      // The line that leaves must be said whole by the one that stays.
      if (!repeats(form(leaves), form(stays))) continue;
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
  return { outcome: 'accepted', changes };
}
