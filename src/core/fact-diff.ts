import type { Fact, FactEvent, FactKind } from './types.js';

/** A fact line proposed by a memory manager. */
export interface DiffEntry {
  /** The fact line, `key: value` preferred. */
  text: string;
  kind: FactKind;
  /** The key to match on; derived from the text before the first `:` when absent. */
  key?: string;
  sourceMessageIds: string[];
  /**
   * For an update: why the fact changes, in words a person can read (the words of the message that
   * changed it). The event reads `turn N: <reason>`; without one, it quotes the new line.
   */
  reason?: string;
  /**
   * The key (or words) of another, older fact this line may replace, when the manager cannot tell whether
   * the two are about the same subject. Both facts are kept and the package shows the older one as
   * possibly superseded (see `Fact.mayReplace`); a key matching no fact marks nothing.
   */
  mayReplace?: string;
}

export interface RemoveEntry {
  /** Key (or words of the fact) to remove. */
  key: string;
  reason: string;
  sourceMessageIds: string[];
}

/** A base-truth diff for one turn, applied in the order remove → update → add. */
export interface FactDiff {
  add: DiffEntry[];
  update: DiffEntry[];
  remove: RemoveEntry[];
}

export interface ApplyDiffOptions {
  sessionId: string;
  /** The current facts of the session. */
  facts: readonly Fact[];
  diff: FactDiff;
  /** The text of the exchange the diff came from: every entry must be grounded in it. */
  exchange: string;
  /** Ids of the messages of the exchange; entries may only cite these. */
  exchangeMessageIds: readonly string[];
  /** When the exchange's messages were sent (those with a known time): relative dates resolved against them are grounded. */
  exchangeTimes?: readonly string[];
  turn: number;
  actor: string;
  now: string;
  newId: () => string;
  /** Sequence number of the first event produced. */
  firstSequence: number;
  /** Minimum word similarity for the key fallback match (default 0.6). */
  similarityThreshold?: number;
  /** Longest accepted fact line in characters (default 500). */
  maxTextLength?: number;
}

export interface ApplyDiffResult {
  /** The facts after the diff. */
  facts: Fact[];
  /** Every change, rejection and warning, in order. */
  events: FactEvent[];
  /** Facts added or updated by the diff. */
  upserted: Fact[];
  /** Ids of facts removed by the diff. */
  removedIds: string[];
}
