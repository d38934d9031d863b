import { firstIndex } from '../../core/sorted.js';

/** Where a session's messages sit, oldest first: ids, turns, positions and search-index rowids (`seq`). */
export class SessionMessages {
  readonly ids: string[] = [];
  readonly turns: number[] = [];
  readonly positions: number[] = [];
  private readonly seqs: number[] = [];
  /** Built only if the rowids ever stop rising with the position (SQLite gives appended rows higher ones). */
  private bySeq: Map<number, number> | null = null;

  get lastPosition(): number {
    return this.positions.at(-1) ?? -1;
  }

  /** The rowid of the newest message, or -1. */
  get lastSeq(): number {
    return this.seqs.at(-1) ?? -1;
  }

  get size(): number {
    return this.ids.length;
  }

  /** Whether the rowids rise with the position, as SQLite gives appended rows (so rowid order is conversation order). */
  get inRowidOrder(): boolean {
    return this.bySeq === null;
  }

  /** How many messages belong to turns after `turn`. */
  countAfterTurn(turn: number): number {
    return this.ids.length - firstIndex(this.turns, (value) => value > turn);
  }

  append(row: { seq: number; id: string; turn: number; position: number }): void {
    const last = this.seqs.at(-1);
    if (this.bySeq === null && last !== undefined && row.seq <= last) this.bySeq = new Map(this.seqs.map((seq, index) => [seq, index]));
    this.bySeq?.set(row.seq, this.seqs.length);
    this.seqs.push(row.seq);
    this.ids.push(row.id);
    this.turns.push(row.turn);
    this.positions.push(row.position);
  }

  /** The index of the message whose rowid is `seq`, or -1 when it is not one of this session's. */
  indexOfSeq(seq: number): number {
    if (this.bySeq !== null) return this.bySeq.get(seq) ?? -1;
    const index = firstIndex(this.seqs, (value) => value >= seq);
    return this.seqs[index] === seq ? index : -1;
  }

  /** Ids of the messages of turns ≤ `toTurn`, oldest first. */
  idsUpToTurn(toTurn: number): string[] {
    return this.ids.slice(0, firstIndex(this.turns, (turn) => turn > toTurn));
  }
}
