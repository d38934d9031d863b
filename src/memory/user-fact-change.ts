/** A person's change of a session's facts (a correction or an undo): its event and the document change, in one transaction. */
import type { Fact, FactEvent } from '../core/types.js';
import type { TenantStore } from '../store/store.js';

/** The session's facts and events a change is planned against, and where its event goes. */
export interface FactState {
  facts: Fact[];
  events: FactEvent[];
  /** The session's latest turn: the change is recorded at it. */
  turn: number;
  /** The sequence number of the change's event. */
  sequence: number;
}

/** What a planned change writes. */
export interface FactChange {
  event: FactEvent;
  upserts: Fact[];
  removedIds: string[];
}

/**
 * Plan a change against the session's current facts and events and apply it; returns its event. Run it
 * as the session's memory work, so no turn's diff interleaves with it. When `plan` throws, nothing is written.
 */
export async function applyUserChange(repositories: TenantStore, sessionId: string, plan: (state: FactState) => FactChange): Promise<FactEvent> {
  return repositories.transaction(async (tx) => {
    const [session, events, facts] = await Promise.all([tx.sessions.get({ sessionId }), tx.facts.listEvents({ sessionId }), tx.facts.list({ sessionId })]);
    const change = plan({
      facts,
      events,
      turn: Math.max(session?.turnCount ?? 0, events.reduce((latest, event) => Math.max(latest, event.turn), 0)),
      // Events come in sequence order: the last one holds the session's last sequence.
      sequence: (events.at(-1)?.sequence ?? 0) + 1,
    });
    await tx.facts.apply({ sessionId, events: [change.event], upserts: change.upserts, removedIds: change.removedIds });
    return change.event;
  });
}
