import type { Fact, FactEvent } from './types.js';

/** A fact as an `add` event creates it (with `earlier`'s creation turn and time when it comes back after a removal). */
export function addedFact(event: FactEvent & { factId: string }, text: string, earlier?: Fact): Fact {
  return {
    id: event.factId,
    sessionId: event.sessionId,
    key: event.key,
    text,
    kind: event.kind,
    pinned: event.kind === 'exception',
    sourceMessageIds: event.sourceMessageIds,
    createdTurn: earlier?.createdTurn ?? event.turn,
    updatedTurn: event.turn,
    createdAt: earlier?.createdAt ?? event.createdAt,
    updatedAt: event.createdAt,
    ...(event.mayReplace === undefined ? {} : { mayReplace: event.mayReplace }),
  };
}

/**
 * A fact as an `update` or `consolidate` event leaves it: the event's text, kind and sources, pinned when
 * an exception, and the fact it may replace when the event names one.
 */
export function revisedFact(fact: Fact, event: FactEvent, text: string): Fact {
  return {
    ...fact,
    text,
    kind: event.kind,
    pinned: event.kind === 'exception',
    sourceMessageIds: event.sourceMessageIds,
    updatedTurn: event.turn,
    updatedAt: event.createdAt,
    ...(event.mayReplace === undefined ? {} : { mayReplace: event.mayReplace }),
  };
}

/**
 * `fact` as an undo leaves it: as the state it returns to (`before`) was established (its turn and time,
 * not the undo's) and with the older fact it then may have replaced.
 */
export function restoredFact(fact: Fact, before: Pick<Fact, 'updatedTurn' | 'updatedAt' | 'mayReplace'>): Fact {
  const { mayReplace: _current, ...rest } = fact;
  return { ...rest, updatedTurn: before.updatedTurn, updatedAt: before.updatedAt, ...(before.mayReplace === undefined ? {} : { mayReplace: before.mayReplace }) };
}
