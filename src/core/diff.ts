import { startDiffApplication } from './diff-application.js';
import { applyAdditions } from './diff-additions.js';
import { applyRemovals } from './diff-removals.js';
import { applyUpdates } from './diff-updates.js';
import { StrataError } from './errors.js';
import { knownInStoreOrder, storeOrder } from './fact-index.js';
import type { ApplyDiffOptions, ApplyDiffResult, FactDiff } from './fact-diff.js';
import { addedFact, restoredFact, revisedFact } from './fact-revision.js';
import type { Fact, FactEvent } from './types.js';

// The shapes of a diff and the helpers for applying one live in their own files; other modules import
// them from here, with `applyDiff`.
export type { ApplyDiffOptions, ApplyDiffResult, DiffEntry, FactDiff, RemoveEntry } from './fact-diff.js';
export { KIND_STRENGTH } from './diff-additions.js';
export { turnReason } from './change-reason.js';
export { matchFact } from './fact-index.js';
export { addedFact, restoredFact, revisedFact } from './fact-revision.js';

export const EMPTY_DIFF: FactDiff = { add: [], update: [], remove: [] };

/**
 * Validate a diff against its exchange and apply it to the facts, in the order remove → update → add.
 * Pure: returns the new facts and the events; the caller persists them in one transaction.
 */
export function applyDiff(options: ApplyDiffOptions): ApplyDiffResult {
  const application = startDiffApplication(options);
  applyRemovals(application, options.diff.remove);
  applyUpdates(application, options.diff.update);
  applyAdditions(application, options.diff.add);
  return application.result();
}

/** Facts in the order a store lists them: by the turn they were created in, then by id. */
export function inStoreOrder(facts: readonly Fact[]): Fact[] {
  return [...facts].sort(storeOrder);
}

/** `facts` itself when already in the order a store lists them (as a diff's result mostly is), else sorted. */
export function keptInStoreOrder<T extends readonly Fact[]>(facts: T): T | Fact[] {
  if (knownInStoreOrder(facts)) return facts;
  for (let index = 1; index < facts.length; index += 1) {
    if (storeOrder(facts[index - 1] as Fact, facts[index] as Fact) > 0) return inStoreOrder(facts);
  }
  return facts;
}

/**
 * Rebuild the base-truth document from its events, optionally as it stood at the end of a turn.
 * An `add` of a fact id that an earlier event removed (an undo) brings the fact back with its first
 * creation turn and time; an `update` or `consolidate` with no new text removes the fact.
 */
export function replayFactEvents(events: readonly FactEvent[], options: { atTurn?: number } = {}): Fact[] {
  const facts = new Map<string, Fact>();
  /** Each event's fact as it stood before the event, for an undo of it (see `FactEvent.undoes`). */
  const before = new Map<string, Fact | undefined>();
  const undone = (event: FactEvent, fact: Fact): Fact => {
    const earlier = event.undoes === undefined ? undefined : before.get(event.undoes);
    return earlier === undefined ? fact : restoredFact(fact, earlier);
  };
  /** Facts removed so far, so one added back keeps its creation turn. */
  const gone = new Map<string, Fact>();
  const drop = (id: string): void => {
    const fact = facts.get(id);
    if (fact !== undefined) gone.set(id, fact);
    facts.delete(id);
  };
  const ordered = [...events].sort((a, b) => a.sequence - b.sequence);
  for (const event of ordered) {
    if (options.atTurn !== undefined && event.turn > options.atTurn) continue;
    if (event.factId === null) continue;
    before.set(event.id, facts.get(event.factId));
    switch (event.op) {
      case 'add': {
        if (event.newText === null) throw new StrataError('INVALID_INPUT', `fact event ${event.id} adds no text`);
        const earlier = gone.get(event.factId);
        gone.delete(event.factId);
        facts.set(event.factId, undone(event, addedFact({ ...event, factId: event.factId }, event.newText, earlier)));
        break;
      }
      case 'update':
      case 'consolidate': {
        const fact = facts.get(event.factId);
        if (fact === undefined) break;
        if (event.newText === null) {
          drop(event.factId);
          break;
        }
        facts.set(event.factId, undone(event, revisedFact(fact, event, event.newText)));
        break;
      }
      case 'remove':
        drop(event.factId);
        break;
      case 'reject':
      case 'warning':
        break;
    }
  }
  return inStoreOrder([...facts.values()]);
}
