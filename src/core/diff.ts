import { startDiffApplication } from './diff-application.js';
import { applyAdditions } from './diff-additions.js';
import { applyRemovals } from './diff-removals.js';
import { applyUpdates } from './diff-updates.js';
import { StrataError } from './errors.js';
import type { ApplyDiffOptions, ApplyDiffResult, FactDiff } from './fact-diff.js';
import { addedFact, revisedFact } from './fact-revision.js';
import { compareText } from './text.js';
import type { Fact, FactEvent } from './types.js';

// The shapes of a diff and the helpers for applying one live in their own files; other modules import
// them from here, with `applyDiff`.
export type { ApplyDiffOptions, ApplyDiffResult, DiffEntry, FactDiff, RemoveEntry } from './fact-diff.js';
export { KIND_STRENGTH } from './diff-additions.js';
export { turnReason } from './change-reason.js';
export { matchFact } from './fact-match.js';
export { addedFact, revisedFact } from './fact-revision.js';

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
  return [...facts].sort((a, b) => a.createdTurn - b.createdTurn || compareText(a.id, b.id));
}

/**
 * Rebuild the base-truth document from its events, optionally as it stood at the end of a turn.
 * Events apply in turn order (then as they were written): a turn whose memory was recovered after later
 * turns takes its place among them. An `add` of a fact id that an earlier event removed (an undo) brings
 * the fact back with its first creation turn and time; an `update` or `consolidate` with no new text
 * removes the fact.
 */
export function replayFactEvents(events: readonly FactEvent[], options: { atTurn?: number } = {}): Fact[] {
  const facts = new Map<string, Fact>();
  /** Facts removed so far, so one added back keeps its creation turn. */
  const gone = new Map<string, Fact>();
  /** The fact holding each key: the document never holds two facts under one key. */
  const byKey = new Map<string, string>();
  /**
   * Ids of facts added under a key another fact held (a later turn written before a recovered earlier
   * one added it anew): the fact holding the key stands for them.
   */
  const aliases = new Map<string, string>();
  const drop = (id: string): void => {
    const fact = facts.get(id);
    if (fact !== undefined) gone.set(id, fact);
    if (fact !== undefined && byKey.get(fact.key) === id) byKey.delete(fact.key);
    facts.delete(id);
  };
  const ordered = [...events].sort((a, b) => a.turn - b.turn || a.sequence - b.sequence);
  for (const event of ordered) {
    if (options.atTurn !== undefined && event.turn > options.atTurn) continue;
    if (event.factId === null) continue;
    const factId = aliases.get(event.factId) ?? event.factId;
    switch (event.op) {
      case 'add': {
        if (event.newText === null) throw new StrataError('INVALID_INPUT', `fact event ${event.id} adds no text`);
        const holder = facts.get(byKey.get(event.key) ?? '');
        if (holder !== undefined && holder.id !== factId) {
          aliases.set(event.factId, holder.id);
          facts.set(holder.id, revisedFact(holder, event, event.newText));
          break;
        }
        const earlier = gone.get(factId);
        gone.delete(factId);
        facts.set(factId, addedFact({ ...event, factId }, event.newText, earlier));
        byKey.set(event.key, factId);
        break;
      }
      case 'update':
      case 'consolidate': {
        const fact = facts.get(factId);
        if (fact === undefined) break;
        if (event.newText === null) {
          drop(factId);
          break;
        }
        const revised = revisedFact(fact, event, event.newText);
        if (revised.key !== fact.key && byKey.get(fact.key) === factId) byKey.delete(fact.key);
        byKey.set(revised.key, factId);
        facts.set(factId, revised);
        break;
      }
      case 'remove':
        drop(factId);
        break;
      case 'reject':
      case 'warning':
        break;
    }
  }
  return inStoreOrder([...facts.values()]);
}
