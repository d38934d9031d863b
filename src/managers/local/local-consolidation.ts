/**
 * The local manager's consolidation: a fact said twice in other words is kept once. A fact whose line the
 * other one holds whole, or that shares nearly all its words with it, leaves the document as a
 * `consolidate` event naming the line that stays. The newer line stays (it is what was said last), a
 * pinned exception always stays, and two pinned exceptions are both kept.
 */
import { normalizeText } from '../../core/text.js';
import type { Fact } from '../../core/types.js';
import type { ConsolidateOptions, ConsolidationResult } from '../memory-manager.js';
import { STOP_WORDS } from './function-words.js';

/** Least share of words (Sørensen–Dice) two lines must have in common to be one fact said twice. */
const NEAR_DUPLICATE = 0.8;

function value(text: string): string {
  const colon = text.indexOf(':');
  return normalizeText(colon > 0 ? text.slice(colon + 1) : text);
}

function contentWords(text: string): Set<string> {
  return new Set(value(text).split(' ').filter((word) => word !== '' && !STOP_WORDS.has(word)));
}

function dice(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return (2 * shared) / (left.size + right.size);
}

/** Whether `other` says all that `fact` says: the same line, a line holding it whole, or nearly the same words. */
function repeats(fact: Fact, other: Fact): boolean {
  const mine = value(fact.text);
  const theirs = value(other.text);
  if (mine === '' || theirs === '') return false;
  if (` ${theirs} `.includes(` ${mine} `)) return true;
  return dice(contentWords(fact.text), contentWords(other.text)) >= NEAR_DUPLICATE;
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
  const facts = [...options.facts].sort((a, b) => a.createdTurn - b.createdTurn || a.id.localeCompare(b.id));
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
        reason: `said again as "${stays.text.length > 120 ? `${stays.text.slice(0, 117)}…` : stays.text}" (turn ${stays.updatedTurn})`,
        sourceMessageIds: leaves.sourceMessageIds,
      });
    }
  }
  return { outcome: 'accepted', changes };
}
