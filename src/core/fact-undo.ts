/**
 * Undoing one fact event: the compensating event that puts the fact back as it stood before that event.
 * History is never rewritten; the undo is a new event. Pure.
 */
import { replayFactEvents, restoredFact, revisedFact } from './diff.js';
import { StrataError } from './errors.js';
import { USER_ACTOR } from './fact-edit.js';
import type { Fact, FactEvent, FactEventOp } from './types.js';

/** The ops that change a fact, and so can be undone. */
const UNDOABLE: ReadonlySet<FactEventOp> = new Set<FactEventOp>(['add', 'update', 'remove', 'consolidate']);


export interface PlanUndoOptions {
  /** Every fact event of the session. */
  events: readonly FactEvent[];
  /** The current base-truth document of the session. */
  facts: readonly Fact[];
  /** Id of the event to undo. */
  eventId: string;
  /** The turn the undo is recorded at (the session's latest turn). */
  turn: number;
  /** Sequence number of the undo event. */
  sequence: number;
  now: string;
  newId: () => string;
}

export interface UndoPlan {
  /** The compensating event: `remove` (undo of an add), `add` (a fact brought back) or `update` (old text restored). */
  event: FactEvent;
  /** The fact as it stands after the undo, when it stays in the document. */
  upserts: Fact[];
  /** The fact's id, when the undo takes it out of the document. */
  removedIds: string[];
}

function refuse(message: string, eventId: string): never {
  throw new StrataError('INVALID_INPUT', message, { details: { eventId } });
}

/** The fact as it stood just before `target`: replayed from the earlier events, else read from the event itself. */
function factBefore(events: readonly FactEvent[], target: FactEvent, factId: string): Fact | undefined {
  const replayed = replayFactEvents(events.filter((event) => event.sequence < target.sequence)).find((fact) => fact.id === factId);
  if (replayed !== undefined || target.op === 'add' || target.oldText === null) return replayed;
  return {
    id: factId,
    sessionId: target.sessionId,
    key: target.key,
    text: target.oldText,
    kind: target.kind,
    pinned: target.kind === 'exception',
    sourceMessageIds: target.sourceMessageIds,
    createdTurn: target.turn,
    updatedTurn: target.turn,
    createdAt: target.createdAt,
    updatedAt: target.createdAt,
  };
}

/**
 * Plan the undo of one add, update, remove or consolidate event: undoing an add removes the fact;
 * undoing an update or consolidate restores the old text and kind (bringing the fact back when it was
 * removed); undoing a remove brings the fact back with its old text and original sources. A pinned
 * exception comes back pinned. The event's actor is `user` and its reason `undo of event <id>`.
 *
 * Refuses with INVALID_INPUT an unknown event id, a `reject` or `warning` event (they changed nothing),
 * and an event whose fact a later event changed (that one must be undone first).
 */
export function planUndo(options: PlanUndoOptions): UndoPlan {
  const { eventId } = options;
  const target = options.events.find((event) => event.id === eventId);
  if (target === undefined) {
    refuse(`No fact event "${eventId}" in this session; list its events with \`strata facts <session> --events --json\` or session.factEvents().`, eventId);
  }
  if (!UNDOABLE.has(target.op) || target.factId === null) {
    refuse(`Event "${eventId}" is a ${target.op} event: it changed no fact, so there is nothing to undo. Undo an add, update, remove or consolidate event.`, eventId);
  }
  const factId = target.factId;
  const later = options.events.filter((event) => event.sequence > target.sequence && event.factId === factId && UNDOABLE.has(event.op));
  const newest = later.at(-1);
  if (newest !== undefined) {
    refuse(
      `Fact "${target.key}" changed after event "${eventId}": event "${newest.id}" (${newest.op}, turn ${newest.turn}) changed it since. Undo "${newest.id}" first, then "${eventId}".`,
      eventId,
    );
  }

  const before = factBefore(options.events, target, factId);
  const current = options.facts.find((fact) => fact.id === factId);
  const base = { id: options.newId(), sessionId: target.sessionId, sequence: options.sequence, factId, turn: options.turn, actor: USER_ACTOR, reason: `undo of event ${eventId}`, createdAt: options.now, undoes: eventId };

  if (before === undefined) {
    if (current === undefined) refuse(`Fact "${target.key}" of event "${eventId}" is no longer in the document; there is nothing to undo.`, eventId);
    return {
      event: { ...base, op: 'remove', key: current.key, kind: current.kind, oldText: current.text, newText: null, sourceMessageIds: current.sourceMessageIds },
      upserts: [],
      removedIds: [factId],
    };
  }

  const event: FactEvent =
    current === undefined
      ? { ...base, op: 'add', key: before.key, kind: before.kind, oldText: null, newText: before.text, sourceMessageIds: before.sourceMessageIds }
      : { ...base, op: 'update', key: current.key, kind: before.kind, oldText: current.text, newText: before.text, sourceMessageIds: before.sourceMessageIds };
  return { event, upserts: [restoredFact(revisedFact(current ?? before, event, before.text), before)], removedIds: [] };
}
