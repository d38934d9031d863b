/**
 * What changed between the facts a kept structure was last brought up to and a session's facts now. Both
 * lists are in the store's order and facts are never changed in place, so they are walked side by side:
 * the very same fact costs a comparison, and only a fact that is not costs a lookup.
 */
import type { Fact } from '../../core/types.js';

export interface DocumentChanges {
  /** Facts of before that are gone. */
  gone: Fact[];
  /** Facts that are there still, as other objects (perhaps saying the same). */
  changed: Fact[];
  /** Facts `known` did not know. */
  added: Fact[];
}

/**
 * The changes from `before` to `facts`, or null when the facts `known` knows are in another order than
 * before (or, with `addedLast`, when a new fact comes before one known): the caller then starts afresh.
 */
export function changesFrom(before: readonly Fact[], facts: readonly Fact[], known: (id: string) => boolean, addedLast: boolean): DocumentChanges | null {
  let at = 0;
  const changes: DocumentChanges = { gone: [], changed: [], added: [] };
  const outOfOrder = (): boolean => addedLast && changes.added.length > 0;
  for (const fact of facts) {
    if (before[at] === fact) {
      at += 1;
      if (outOfOrder()) return null;
      continue;
    }
    if (!known(fact.id)) {
      changes.added.push(fact);
      continue;
    }
    // Facts of before passed over are gone; one of them coming back later would be out of order.
    while (at < before.length && before[at]?.id !== fact.id) changes.gone.push(before[at++] as Fact);
    if (outOfOrder() || at === before.length) return null;
    at += 1;
    changes.changed.push(fact);
  }
  while (at < before.length) changes.gone.push(before[at++] as Fact);
  return changes;
}
