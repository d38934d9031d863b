/**
 * The facts a turn's claims are compared with. A long conversation's document grows to thousands of
 * lines, and comparing every claim with every line would make each turn slower than the one before.
 * Rules and requirements always take part; of the other facts, the `limit` most recently established.
 */
import { indexOf } from '../../core/fact-index.js';
import type { Fact, FactKind } from '../../core/types.js';

/** Rules and requirements: the kinds at least as binding as a constraint (see `KIND_STRENGTH`). */
const BINDING: readonly FactKind[] = ['constraint', 'exception'];

/** The facts a turn works on. */
export interface WorkingFacts {
  /** In the document's order: all the facts while there are at most `limit` plain ones. */
  working: readonly Fact[];
  /** Whether facts were left out (see `left-out.ts` for what a turn knows of them). */
  partial: boolean;
}

/**
 * The rules and the `limit` most recently established plain facts (by turn, then time), in the document's
 * order. From the document's index (`core/fact-index.ts`), which goes with the facts from turn to turn
 * and keeps them by turn, so this reads the latest turns, not the whole document.
 */
export function workingSet(facts: readonly Fact[], limit: number): WorkingFacts {
  if (facts.length <= limit) return { working: facts, partial: false };
  const recent = indexOf(facts).recent(BINDING, limit);
  return recent === null ? { working: facts, partial: false } : { working: recent, partial: true };
}

/** The facts a turn works on (see `workingSet`). */
export function workingFacts(facts: readonly Fact[], limit: number): readonly Fact[] {
  return workingSet(facts, limit).working;
}
