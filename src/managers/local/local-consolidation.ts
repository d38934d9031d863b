/**
 * The local manager's consolidation: a fact said twice in other words is kept once. A fact whose line the
 * other one holds whole, or that shares nearly all its words with it, leaves the document as a
 * `consolidate` event naming the line that stays. The newer line stays (it is what was said last), a
 * pinned exception always stays, and two pinned exceptions are both kept.
 */
import { inStoreOrder } from '../../core/diff.js';
import { normalizeText, quoted, wordSimilarity } from '../../core/text.js';
import type { Fact } from '../../core/types.js';
import type { ConsolidateOptions, ConsolidationResult } from '../memory-manager.js';
import { STOP_WORDS } from './function-words.js';

/** Least share of words (Sørensen–Dice) two lines must have in common to be one fact said twice. */
const NEAR_DUPLICATE = 0.8;

function value(text: string): string {
  const colon = text.indexOf(':');
  return normalizeText(colon > 0 ? text.slice(colon + 1) : text);
}

/** The value's words without stop words, as one string. */
function contentWords(text: string): string {
  return value(text)
    .split(' ')
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .join(' ');
}

/** Whether `other` says all that `fact` says: the same line, a line holding it whole, or nearly the same words. */
function repeats(fact: Fact, other: Fact): boolean {
  const mine = value(fact.text);
  const theirs = value(other.text);
  if (mine === '' || theirs === '') return false;
  if (` ${theirs} `.includes(` ${mine} `)) return true;
  const [left, right] = [contentWords(fact.text), contentWords(other.text)];
  return left !== '' && right !== '' && wordSimilarity(left, right) >= NEAR_DUPLICATE;
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
  for (const [index, fact] of facts.entries()) {
    if (gone.has(fact.id)) continue;
    for (const other of facts.slice(index + 1)) {
      if (gone.has(other.id) || gone.has(fact.id) || (fact.pinned && other.pinned)) continue;
      const stays = keeper(fact, other);
      const leaves = stays === fact ? other : fact;
      // The line that leaves must be said whole by the one that stays.
      if (!repeats(leaves, stays)) continue;
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
