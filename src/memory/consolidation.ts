/**
 * Consolidation every N turns: the memory manager proposes merges and removals of the base-truth
 * document, already validated; the engine applies an accepted proposal as `consolidate` fact events and
 * records why a rejected or failed one changed nothing.
 *
 * The record of a consolidation that changed nothing:
 * - `rejected` (the proposal broke a rule, e.g. it dropped a pinned exception or removed a fact without
 *   a reason): one `reject` event per problem, with no fact, key `consolidation`, and the reason
 *   `consolidation rejected, document kept as it was: <problem>`;
 * - `failed` (the model gave no usable answer): one `warning` event, key `consolidation`, reason
 *   `consolidation failed, document kept as it was: <error>`.
 */
import { revisedFact } from '../core/diff.js';
import { withChanges } from '../core/fact-index.js';
import type { Fact, FactEvent } from '../core/types.js';
import type { MemoryManager } from '../managers/memory-manager.js';
import type { ConsolidationResult } from '../managers/consolidation.js';
import type { TenantStore } from '../store/store.js';
import type { MemoryState } from './memory-state.js';
import { managerFailure, type FactChanges } from './write-path.js';

/** The key of the events that record a consolidation that changed nothing. */
const CONSOLIDATION_KEY = 'consolidation';

export interface ConsolidateAfterTurnOptions {
  repositories: TenantStore;
  manager: MemoryManager;
  sessionId: string;
  /** The turn whose memory was just written. */
  turn: number;
  /** Consolidate after every N-th turn; 0 never does (the `consolidateEveryTurns` setting, default 15). */
  everyTurns: number;
  now: () => string;
  newId: () => string;
  /**
   * The session's memory state as its turn just wrote it, when the caller holds it: the facts are read
   * from it (they are in the store's order) instead of the store, and what consolidation writes advances it.
   */
  state?: MemoryState;
  /** Told when consolidation itself broke (the store failed, the manager threw); the turn is unaffected. */
  onError?: (error: unknown) => void;
}

/** Whether the turn is one after which the session's facts are consolidated. */
function consolidationDue(turn: number, everyTurns: number, manager: MemoryManager): boolean {
  return everyTurns > 0 && turn > 0 && turn % everyTurns === 0 && typeof manager.consolidate === 'function';
}

type EventFields = Omit<FactEvent, 'id' | 'sessionId' | 'sequence' | 'turn' | 'actor' | 'createdAt'>;

function eventFields(result: ConsolidationResult): EventFields[] {
  const nothingChanged = (op: 'reject' | 'warning', reason: string): EventFields => ({
    factId: null,
    op,
    key: CONSOLIDATION_KEY,
    kind: 'fact',
    oldText: null,
    newText: null,
    reason,
    sourceMessageIds: [],
  });
  switch (result.outcome) {
    case 'accepted':
      return result.changes.map((change) => ({ ...change }));
    case 'rejected':
      return result.problems.map((problem) => nothingChanged('reject', `consolidation rejected, document kept as it was: ${problem}`));
    case 'failed':
      return [nothingChanged('warning', `consolidation failed, document kept as it was: ${result.error.message}`)];
  }
}

/** The document after the accepted changes: the facts rewritten and the ids removed. */
function projection(facts: readonly Fact[], events: readonly FactEvent[]): { upserts: Fact[]; removedIds: string[] } {
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  const upserts = new Map<string, Fact>();
  const removedIds: string[] = [];
  for (const event of events) {
    if (event.op !== 'consolidate' || event.factId === null) continue;
    const fact = byId.get(event.factId);
    if (fact === undefined) continue;
    if (event.newText === null) {
      upserts.delete(fact.id);
      removedIds.push(fact.id);
      continue;
    }
    const next = revisedFact(fact, event, event.newText);
    byId.set(fact.id, next);
    upserts.set(fact.id, next);
  }
  return { upserts: [...upserts.values()], removedIds };
}

/** A consolidation's fact events and the document changes they make, written together (after its turn's own). */
export type ConsolidationWrite = FactChanges;

/** Ask the manager to consolidate `facts` after `turn`: a failure is an outcome, never an exception. */
async function askManager(manager: MemoryManager, facts: readonly Fact[], turn: number): Promise<ConsolidationResult> {
  try {
    if (manager.consolidate === undefined) return { outcome: 'accepted', changes: [] };
    return await manager.consolidate({ facts, turn });
  } catch (error) {
    return { outcome: 'failed', error: managerFailure(error, manager.name, turn, `failed to consolidate at turn ${turn}`) };
  }
}

interface EventNumbering {
  sessionId: string;
  turn: number;
  actor: string;
  createdAt: string;
  /** The sequence of the first event. */
  sequence: number;
  newId: () => string;
}

/** The events of a consolidation, numbered on from the session's, with the changes they make to `facts`. */
function writeOf(facts: readonly Fact[], fields: readonly EventFields[], numbering: EventNumbering): ConsolidationWrite {
  const { sessionId, turn, actor, createdAt } = numbering;
  let sequence = numbering.sequence;
  const events = fields.map((field): FactEvent => ({ id: numbering.newId(), sessionId, sequence: sequence++, turn, actor, createdAt, ...field }));
  return { events, ...projection(facts, events) };
}

/** The state after a consolidation's changes are written. */
function advanceBy(state: MemoryState, write: ConsolidationWrite): void {
  // (A consolidation only rewrites or removes facts, so an upsert replaces its fact in place.)
  state.facts = withChanges(state.facts, write.upserts, write.removedIds);
  state.nextSequence = (write.events.at(-1)?.sequence ?? state.nextSequence - 1) + 1;
}

/**
 * When the turn is due, consolidate the facts of `state` in memory (an import's turns, written batch by
 * batch): the state advances, and the events and changes come back to be written after the turn's own.
 * Null when the turn is not due or the manager had nothing to say.
 */
export async function consolidateState(options: Omit<ConsolidateAfterTurnOptions, 'repositories' | 'state' | 'onError'> & { state: MemoryState }): Promise<ConsolidationWrite | null> {
  const { manager, turn, state } = options;
  if (!consolidationDue(turn, options.everyTurns, manager)) return null;
  const fields = eventFields(await askManager(manager, state.facts, turn));
  if (fields.length === 0) return null;
  const write = writeOf(state.facts, fields, { sessionId: options.sessionId, turn, actor: manager.name, createdAt: options.now(), sequence: state.nextSequence, newId: options.newId });
  advanceBy(state, write);
  return write;
}

/** What a consolidation said, without its event and fact ids: two threads consolidating alike documents give the same. */
export function consolidationSignature(write: ConsolidationWrite | null): string {
  return JSON.stringify((write?.events ?? []).map((event) => [event.op, event.key, event.kind, event.oldText, event.newText, event.reason, event.sourceMessageIds]));
}

/**
 * After a turn's memory is written: when the turn is due (every `everyTurns` turns) and the manager can
 * consolidate, ask it and record the outcome as fact events of that turn (actor: the manager's name;
 * sequence numbers continue the session's). Returns the events written; never throws (failures go to
 * `onError` and leave the document as it was).
 */
export async function consolidateAfterTurn(options: ConsolidateAfterTurnOptions): Promise<FactEvent[]> {
  const { repositories, manager, sessionId, turn } = options;
  if (!consolidationDue(turn, options.everyTurns, manager)) return [];
  try {
    const { state } = options;
    const [facts, readAt] =
      state === undefined
        ? await Promise.all([repositories.facts.list({ sessionId }), repositories.facts.lastSequence({ sessionId })])
        : [state.facts, state.nextSequence - 1];
    const fields = eventFields(await askManager(manager, facts, turn));
    if (fields.length === 0) return [];
    return await repositories.transaction(async (tx) => {
      // The answer fits the document read above only while nothing has changed it since (another process,
      // a user's correction): otherwise it is dropped, and the next consolidation sees the document as it is.
      const last = await tx.facts.lastSequence({ sessionId });
      if (last !== readAt) return [];
      const write = writeOf(facts, fields, { sessionId, turn, actor: manager.name, createdAt: options.now(), sequence: last + 1, newId: options.newId });
      await tx.facts.apply({ sessionId, ...write });
      if (state !== undefined) advanceBy(state, write);
      return write.events;
    });
  } catch (error) {
    options.onError?.(error);
    return [];
  }
}
