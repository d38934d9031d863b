/**
 * A document's facts by the turn they were last established in and by kind, kept up as facts are set
 * and deleted (it goes with a `FactIndex`), so the most recently established facts are found by walking
 * back from the latest turn instead of reading the whole document.
 */
import { addTo, removeFrom } from './list-map.js';
import { firstIndex } from './sorted.js';
import type { Fact, FactKind } from './types.js';

/** A fact and its place in the document (later facts have higher positions). */
export interface Placed {
  fact: Fact;
  position: number;
}

/** Where `value` is in `sorted` (ascending by `of`), or where it would go. */
const place = <T>(sorted: readonly T[], value: number, of: (item: T) => number): number => firstIndex(sorted, (item) => of(item) >= value);

const itself = (turn: number): number => turn;
const positionOf = (entry: Placed): number => entry.position;

/** Of the latest changed first (by `updatedAt`), in document order on a tie. */
function latestChangedFirst(entries: Placed[]): Placed[] {
  return entries.sort((a, b) => (a.fact.updatedAt < b.fact.updatedAt ? 1 : a.fact.updatedAt > b.fact.updatedAt ? -1 : a.position - b.position));
}

/** Two lists in document order as one. */
function merged(left: readonly Placed[], right: readonly Placed[]): Placed[] {
  const all: Placed[] = [];
  let at = 0;
  for (const entry of left) {
    while (at < right.length && (right[at] as Placed).position < entry.position) all.push(right[at++] as Placed);
    all.push(entry);
  }
  while (at < right.length) all.push(right[at++] as Placed);
  return all;
}

export class FactRecency {
  /** The facts last established in each turn (a few each). */
  private readonly byTurn = new Map<number, Placed[]>();
  /** The turns of `byTurn`, ascending. */
  private readonly turns: number[] = [];
  /** The facts of each kind, in document order. */
  private readonly byKind = new Map<FactKind, Placed[]>();
  private size = 0;

  add(entry: Placed): void {
    const turn = entry.fact.updatedTurn;
    if (!this.byTurn.has(turn)) this.turns.splice(place(this.turns, turn, itself), 0, turn);
    addTo(this.byTurn, turn, entry);
    const kind = this.byKind.get(entry.fact.kind);
    if (kind === undefined) this.byKind.set(entry.fact.kind, [entry]);
    else kind.splice(place(kind, entry.position, positionOf), 0, entry);
    this.size += 1;
  }

  remove(entry: Placed): void {
    const turn = entry.fact.updatedTurn;
    if (this.byTurn.get(turn)?.includes(entry) !== true) return;
    removeFrom(this.byTurn, turn, entry);
    if (!this.byTurn.has(turn)) this.turns.splice(place(this.turns, turn, itself), 1);
    const kind = this.byKind.get(entry.fact.kind) ?? [];
    const index = place(kind, entry.position, positionOf);
    if (kind[index] === entry) kind.splice(index, 1);
    this.size -= 1;
  }

  /**
   * The facts of the kinds in `always` and the `limit` others last established (of the latest turns; of
   * the turn where the limit falls, the latest changed), in document order; null while no more than
   * `limit` facts are of other kinds (then every fact takes part).
   */
  recent(always: readonly FactKind[], limit: number): Fact[] | null {
    let others = this.size;
    for (const kind of always) others -= this.byKind.get(kind)?.length ?? 0;
    if (others <= limit) return null;
    const latest: Placed[] = [];
    for (let at = this.turns.length - 1; at >= 0 && latest.length < limit; at -= 1) {
      const bucket = this.byTurn.get(this.turns[at] as number) ?? [];
      const from = latest.length;
      for (const entry of bucket) if (!always.includes(entry.fact.kind)) latest.push(entry);
      // Where the limit falls within the turn, its latest changed facts take the room left.
      if (latest.length > limit) {
        const chosen = latestChangedFirst(latest.slice(from)).slice(0, limit - from);
        latest.length = from;
        for (const entry of chosen) latest.push(entry);
      }
    }
    let kept = latest.sort((a, b) => a.position - b.position);
    for (const kind of always) kept = merged(this.byKind.get(kind) ?? [], kept);
    return kept.map((entry) => entry.fact);
  }
}
