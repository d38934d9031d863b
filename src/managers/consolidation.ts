/**
 * The consolidation part of the memory-manager port: what a manager is asked to consolidate and what it
 * answers. Adapters implement it; the engine applies an accepted answer as `consolidate` fact events.
 */
import type { StrataError } from '../core/errors.js';
import type { Fact, FactKind } from '../core/types.js';

export interface ConsolidateOptions {
  /** The base-truth document to consolidate. */
  facts: readonly Fact[];
  /** The turn the document stands at. */
  turn: number;
}

/**
 * One accepted change, shaped as a fact event with op `consolidate` minus what the engine assigns (id,
 * session, sequence, turn, actor, time). `newText` null means the fact leaves the document.
 */
export interface ConsolidationChange {
  op: 'consolidate';
  factId: string;
  key: string;
  kind: FactKind;
  oldText: string;
  newText: string | null;
  reason: string;
  sourceMessageIds: string[];
}

/** What a manager proposes for the document: facts merged, removed or said more clearly, each with a reason. */
export interface ConsolidationProposal {
  merge: Array<{ ids: string[]; text: string; kind: FactKind; reason: string }>;
  remove: Array<{ id: string; reason: string }>;
  update: Array<{ id: string; text: string; kind: FactKind; reason: string }>;
}

/**
 * What a consolidation came to: `accepted` (the changes to record as `consolidate` fact events, possibly
 * none), `rejected` (the proposal broke a rule: keep the document as it was and record the problems), or
 * `failed` (the model gave no usable answer: keep the document; the error says why).
 */
export type ConsolidationResult =
  | { outcome: 'accepted'; changes: ConsolidationChange[] }
  | { outcome: 'rejected'; problems: string[]; proposal: ConsolidationProposal }
  | { outcome: 'failed'; error: StrataError };
