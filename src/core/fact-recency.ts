/**
 * A document's facts by the turn they were last established in and by kind, kept up as facts are set
 * and deleted (it goes with a `FactIndex`), so the most recently established facts are found by walking
 * back from the latest turn instead of reading the whole document.
 */
import { firstIndex } from './sorted.js';
import type { Fact, FactKind } from './types.js';

/** A fact and its place in the document (later facts have higher positions). */
export interface Placed {
  fact: Fact;
  position: number;
}

/** Where `value` is in `sorted` (ascending by `of`), or where it would go. */
const place = <T>(sorted: readonly T[], value: number, of: (item: T) => number): number => firstIndex(sorted, (item) => of(item) >= value);

const turnOf = (entry: Placed): number => entry.fact.updatedTurn;
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
  /**
   * Every fact, by the turn it was last established (ascending; in the order added within a turn). A fact
   * of an earlier turn than the last is added at the end and the list sorted when next read, so a document
   * listed by creation (its facts in no order of turn) is indexed with one sort, not a splice per fact.
   */
  private readonly entries: Placed[] = [];
  private unsorted = false;
  /** The facts of each kind, in document order. */
  private readonly byKind = new Map<FactKind, Placed[]>();

  /** The facts by turn, sorted (a stable sort keeps the order they were added in within a turn). */
  private get byTurn(): Placed[] {
    if (this.unsorted) {
      this.entries.sort((a, b) => turnOf(a) - turnOf(b));
      this.unsorted = false;
    }
    return this.entries;
  }

  add(entry: Placed): void {
    const last = this.entries[this.entries.length - 1];
    if (last !== undefined && turnOf(last) > turnOf(entry)) this.unsorted = true;
    this.entries.push(entry);
    const kind = this.byKind.get(entry.fact.kind);
    if (kind === undefined) this.byKind.set(entry.fact.kind, [entry]);
    else kind.splice(place(kind, entry.position, positionOf), 0, entry);
  }

  remove(entry: Placed): void {
    const turn = entry.fact.updatedTurn;
    const byTurn = this.byTurn;
    const end = place(byTurn, turn + 1, turnOf);
    let index = place(byTurn, turn, turnOf);
    while (index < end && byTurn[index] !== entry) index += 1;
    if (index === end) return;
    byTurn.splice(index, 1);
    const kind = this.byKind.get(entry.fact.kind) ?? [];
    const at = place(kind, entry.position, positionOf);
    if (kind[at] === entry) kind.splice(at, 1);
  }

  /**
   * The facts of the kinds in `always` and the `limit` others last established (of the latest turns; of
   * the turn where the limit falls, the latest changed), in document order; null while no more than
   * `limit` facts are of other kinds (then every fact takes part). Walks back from the latest fact, so it
   * reads about `limit` facts, not every turn of the conversation.
   */
  recent(always: readonly FactKind[], limit: number): Fact[] | null {
    let others = this.entries.length;
    for (const kind of always) others -= this.byKind.get(kind)?.length ?? 0;
    if (others <= limit) return null;
    const byTurn = this.byTurn;
    const latest: Placed[] = [];
    for (let end = byTurn.length; end > 0 && latest.length < limit; ) {
      const turn = (byTurn[end - 1] as Placed).fact.updatedTurn;
      // (A turn establishes a few facts: its first is found by walking back, not by a search.)
      let start = end - 1;
      while (start > 0 && (byTurn[start - 1] as Placed).fact.updatedTurn === turn) start -= 1;
      const from = latest.length;
      for (let index = start; index < end; index += 1) {
        const entry = byTurn[index] as Placed;
        if (!always.includes(entry.fact.kind)) latest.push(entry);
      }
      // Where the limit falls within the turn, its latest changed facts take the room left.
      if (latest.length > limit) {
        const chosen = latestChangedFirst(latest.slice(from)).slice(0, limit - from);
        latest.length = from;
        for (const entry of chosen) latest.push(entry);
      }
      end = start;
    }
    let kept = latest.sort((a, b) => a.position - b.position);
    for (const kind of always) kept = merged(this.byKind.get(kind) ?? [], kept);
    return kept.map((entry) => entry.fact);
  }
}
