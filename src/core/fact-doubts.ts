/**
 * Doubts between facts: a fact added with `mayReplace` (its manager could not tell whether it is about the
 * same subject as an older fact), or changed with it, leaves the older fact in place, possibly superseded.
 * A doubt holds while both facts exist and the older one has not been established again since the newer
 * one last changed.
 */
import type { Fact } from './types.js';

/** The doubts of a document, and how a listing shows them. */
export interface FactDoubts {
  /** The newer fact that may supersede a fact, by the older fact's id. */
  supersededBy: ReadonlyMap<string, Fact>;
  /** The unpinned older facts a listing shows inside a newer fact's line, by the newer fact's id. */
  inside: ReadonlyMap<string, readonly Fact[]>;
  /** Ids of the facts shown only inside another fact's line (a pinned exception always keeps its own). */
  folded: ReadonlySet<string>;
}

/** Whether the older fact was established again after the newer one last changed (a later turn, or a later edit of that turn). */
function restatedSince(older: Fact, newer: Fact): boolean {
  return older.updatedTurn > newer.updatedTurn || (older.updatedTurn === newer.updatedTurn && older.updatedAt > newer.updatedAt);
}

/**
 * The doubts that still hold: the newer fact and the older one both exist, and the older one has not
 * been established again since the newer one last changed.
 */
export function factDoubts(facts: readonly Fact[]): FactDoubts {
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  const inside = new Map<string, Fact[]>();
  const folded = new Set<string>();
  const supersededBy = new Map<string, Fact>();
  for (const newer of facts) {
    const older = newer.mayReplace === undefined ? undefined : byId.get(newer.mayReplace);
    if (older === undefined || older.id === newer.id || restatedSince(older, newer)) continue;
    supersededBy.set(older.id, newer);
    if (older.pinned) continue;
    inside.set(newer.id, [...(inside.get(newer.id) ?? []), older]);
    folded.add(older.id);
  }
  return { supersededBy, inside, folded };
}

/** ` — possibly superseded by "cutover" (turn 14)`: the note a listing appends to a doubted fact's line ('' when none). */
export function doubtNote(newer: Fact | undefined): string {
  return newer === undefined ? '' : ` — possibly superseded by "${newer.key}" (turn ${newer.createdTurn})`;
}
