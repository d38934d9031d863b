/** The base-truth document of the in-memory fake store: fact events (append-only) and the current facts. */
import type { Fact, FactEvent } from '../../../src/core/types.js';
import type { FactRepository } from '../../../src/store/store.js';
import { compareText, requireSession, storeFailure, type StateAccess, type TenantState } from './state.js';

function storedEvent(sessionId: string, event: FactEvent): FactEvent {
  const { id, sequence, factId, op, key, kind, oldText, newText, turn, actor, reason, sourceMessageIds, createdAt, mayReplace, undoes } = event;
  const doubt = { ...(mayReplace === undefined ? {} : { mayReplace }), ...(undoes === undefined ? {} : { undoes }) };
  return { id, sessionId, sequence, factId, op, key, kind, oldText, newText, turn, actor, reason, sourceMessageIds: [...sourceMessageIds], createdAt, ...doubt };
}

/** The fact as stored; an update keeps the turn and time the fact was created. */
function storedFact(sessionId: string, fact: Fact, old: Fact | undefined): Fact {
  const { id, key, text, kind, pinned, sourceMessageIds, updatedTurn, updatedAt, mayReplace } = fact;
  const created = { createdTurn: old?.createdTurn ?? fact.createdTurn, createdAt: old?.createdAt ?? fact.createdAt };
  return { id, sessionId, key, text, kind, pinned, sourceMessageIds: [...sourceMessageIds], updatedTurn, updatedAt, ...created, ...(mayReplace === undefined ? {} : { mayReplace }) };
}

/** Refuse events whose sequence the session already holds or whose id the tenant already holds. */
function checkEvents(state: TenantState, sessionId: string, events: readonly FactEvent[]): void {
  const ids = new Set([...state.sessions.values()].flatMap((session) => session.events.map((event) => event.id)));
  const sequences = new Set(state.sessions.get(sessionId)?.events.map((event) => event.sequence));
  for (const event of events) {
    if (ids.has(event.id) || sequences.has(event.sequence)) {
      throw storeFailure(`Fact event "${event.id}" (sequence ${event.sequence}) is already stored for session "${sessionId}".`, { eventId: event.id, sequence: event.sequence });
    }
    ids.add(event.id);
    sequences.add(event.sequence);
  }
}

/** Which session of the tenant holds a fact with this id, if any (fact ids are unique in a tenant). */
function ownerOf(state: TenantState, factId: string): string | undefined {
  for (const [sessionId, session] of state.sessions) if (session.facts.has(factId)) return sessionId;
  return undefined;
}

export function createFactRepository(access: StateAccess): FactRepository {
  return {
    list: ({ sessionId }) =>
      access.read((state) => [...(state.sessions.get(sessionId)?.facts.values() ?? [])].sort((a, b) => a.createdTurn - b.createdTurn || compareText(a.id, b.id))),
    listEvents: ({ sessionId, upToTurn }) =>
      access.read((state) => (state.sessions.get(sessionId)?.events ?? []).filter((event) => event.turn <= (upToTurn ?? Infinity))),
    lastSequence: ({ sessionId }) => access.read((state) => (state.sessions.get(sessionId)?.events ?? []).reduce((last, event) => Math.max(last, event.sequence), 0)),
    apply: ({ sessionId, events, upserts, removedIds }) =>
      access.write((draft) => {
        if (events.length > 0 || upserts.length > 0) requireSession(draft, sessionId, 'facts');
        checkEvents(draft, sessionId, events);
        const session = draft.sessions.get(sessionId);
        if (session === undefined) return;
        session.events.push(...events.map((event) => storedEvent(sessionId, event)));
        session.events.sort((a, b) => a.sequence - b.sequence);
        for (const id of removedIds) session.facts.delete(id);
        for (const fact of upserts) {
          // A fact id another session of the tenant holds is left alone there, as the SQLite adapter does.
          const owner = ownerOf(draft, fact.id);
          if (owner === undefined || owner === sessionId) session.facts.set(fact.id, storedFact(sessionId, fact, session.facts.get(fact.id)));
        }
      }),
  };
}
