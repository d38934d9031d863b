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
  const plain = facts.filter((fact) => !binds(fact));
  if (plain.length <= limit) return facts;
  const newest = new Set(
    [...plain].sort((a, b) => b.updatedTurn - a.updatedTurn || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0)).slice(0, limit),
  );
  return facts.filter((fact) => binds(fact) || newest.has(fact));
}

/** The keys of the facts `working` leaves out. */
export function keysLeftOut(facts: readonly Fact[], working: readonly Fact[]): Set<string> {
  const kept = new Set(working);
  return new Set(facts.filter((fact) => !kept.has(fact)).map((fact) => fact.key));
}
