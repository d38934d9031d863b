/**
 * The local manager's consolidation: a fact said twice in other words is kept once. A fact whose line the
 * other one holds whole, or that shares nearly all its words with it, leaves the document as a
 * `consolidate` event naming the line that stays. The newer line stays (it is what was said last), a
 * pinned exception always stays, and two pinned exceptions are both kept.
 */
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

function compared(text: string): Compared {
  const colon = text.indexOf(':');
  const value = normalizeText(colon > 0 ? text.slice(colon + 1) : text);
  return { padded: value === '' ? '' : ` ${value} `, words: new Set(value.split(' ').filter((word) => word !== '' && !STOP_WORDS.has(word))) };
}

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
 * For each line, the later lines that may repeat it or that it may repeat, in order: those sharing a word
 * with it (a line said whole by another, or nearly the same words, shares its words), and, for a line of
 * stop words only, every later line. The rest can never be one fact said twice, so they are not compared:
 * a document of thousands of lines would otherwise cost millions of comparisons.
 */
function likelyRepeats(forms: readonly Compared[]): (index: number) => number[] {
  const byWord = new Map<string, number[]>();
  const wordless: number[] = [];
  forms.forEach((form, index) => {
    if (form.padded === '') return;
    if (form.words.size === 0) wordless.push(index);
    for (const word of form.words) {
      const list = byWord.get(word);
      if (list === undefined) byWord.set(word, [index]);
      else list.push(index);
    }
  });
  return (index) => {
    const form = forms[index];
    if (form === undefined || form.padded === '') return [];
    if (form.words.size === 0) return forms.flatMap((other, at) => (at > index && other.padded !== '' ? [at] : []));
    const found = new Set<number>();
    for (const word of form.words) for (const at of byWord.get(word) ?? []) if (at > index) found.add(at);
    for (const at of wordless) if (at > index) found.add(at);
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
