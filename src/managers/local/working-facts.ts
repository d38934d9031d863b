/**
 * The facts a turn's claims are compared with. A long conversation's document grows to thousands of
 * lines, and comparing every claim with every line would make each turn slower than the one before.
 * Rules and requirements always take part; of the other facts, the `limit` most recently established.
 */
import type { Fact } from '../../core/types.js';

/** Rules and requirements: the kinds at least as binding as a constraint (see `KIND_STRENGTH`). */
const binds = (fact: Fact): boolean => fact.kind === 'constraint' || fact.kind === 'exception';

/** The facts a turn works on. */
export interface WorkingFacts {
  /** In the document's order: all the facts while there are at most `limit` plain ones. */
  working: readonly Fact[];
  /** Whether facts were left out (see `left-out.ts` for what a turn knows of them). */
  partial: boolean;
}

/** The `k`-th smallest of `values` (from 0), which are reordered: a selection, not a sort (this runs on every turn). */
export function kthSmallest(values: Float64Array, k: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1] as number;
    let left = low;
    let right = high;
    while (left <= right) {
      while ((values[left] as number) < pivot) left += 1;
      while ((values[right] as number) > pivot) right -= 1;
      if (left <= right) {
        const held = values[left] as number;
        values[left] = values[right] as number;
        values[right] = held;
        left += 1;
        right -= 1;
      }
    }
    if (k <= right) high = right;
    else if (k >= left) low = left;
    else break;
  }
  return values[k] as number;
}

/** The rules and the `limit` most recently established plain facts (by turn, then time), in the document's order. */
export function workingSet(facts: readonly Fact[], limit: number): WorkingFacts {
  if (facts.length <= limit) return { working: facts, partial: false };
  // The turns plain facts were last established in (numbers, no map: this runs on every turn).
  const turns = new Float64Array(facts.length);
  let plain = 0;
  for (const fact of facts) if (!binds(fact)) turns[plain++] = fact.updatedTurn;
  if (plain <= limit) return { working: facts, partial: false };
  // From the cut-off turn on, plain facts fit: it is the (limit + 1)-th latest.
  const cutoff = kthSmallest(turns.subarray(0, plain), plain - limit - 1);
  const working: Fact[] = [];
  const atCutoff: Fact[] = [];
  let later = 0;
  for (const fact of facts) {
    const plainFact = !binds(fact);
    if (plainFact && fact.updatedTurn < cutoff) continue;
    working.push(fact);
    if (plainFact && fact.updatedTurn === cutoff) atCutoff.push(fact);
    else if (plainFact) later += 1;
  }
  if (later + atCutoff.length <= limit) return { working, partial: true };
  // Of the facts last established in the cut-off turn, the latest changed fill the room left.
  const dropped = new Set(atCutoff.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0)).slice(limit - later));
  return { working: working.filter((fact) => !dropped.has(fact)), partial: true };
}

/** The facts a turn works on (see `workingSet`). */
export function workingFacts(facts: readonly Fact[], limit: number): readonly Fact[] {
  return workingSet(facts, limit).working;
}
