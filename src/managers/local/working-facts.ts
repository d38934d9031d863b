/**
 * The facts a turn's claims are compared with. A long conversation's document grows to thousands of
 * lines, and comparing every claim with every line would make each turn slower than the one before.
 * Rules and requirements always take part; of the other facts, the `limit` most recently established.
 */
import { KIND_STRENGTH } from '../../core/diff.js';
import type { Fact } from '../../core/types.js';

const binds = (fact: Fact): boolean => KIND_STRENGTH[fact.kind] >= KIND_STRENGTH.constraint;

/** The facts a turn works on, in the document's order: all of them while there are at most `limit` plain ones. */
export function workingFacts(facts: readonly Fact[], limit: number): readonly Fact[] {
  if (facts.length <= limit) return facts;
  // The turn from which on plain facts fit the limit (one pass, no sort of the whole document).
  const perTurn = new Map<number, number>();
  let plain = 0;
  for (const fact of facts) {
    if (binds(fact)) continue;
    plain += 1;
    perTurn.set(fact.updatedTurn, (perTurn.get(fact.updatedTurn) ?? 0) + 1);
  }
  if (plain <= limit) return facts;
  let kept = 0;
  let cutoff = Infinity;
  for (const turn of [...perTurn.keys()].sort((a, b) => b - a)) {
    if (kept + (perTurn.get(turn) ?? 0) > limit) {
      cutoff = turn;
      break;
    }
    kept += perTurn.get(turn) ?? 0;
  }
  // Of the facts last established in the cut-off turn, the latest changed fill the room left.
  const boundary = new Set(
    facts
      .filter((fact) => !binds(fact) && fact.updatedTurn === cutoff)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
      .slice(0, limit - kept),
  );
  return facts.filter((fact) => binds(fact) || fact.updatedTurn > cutoff || boundary.has(fact));
}

/** The keys of the facts `working` leaves out. */
export function keysLeftOut(facts: readonly Fact[], working: readonly Fact[]): Set<string> {
  const kept = new Set(working);
  return new Set(facts.filter((fact) => !kept.has(fact)).map((fact) => fact.key));
}
