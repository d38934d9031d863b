/** A person's change of a session's facts (a correction or an undo): its event and the document change, in one transaction. */
import { StrataError } from '../core/errors.js';
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
    const [session, events, facts, queued] = await Promise.all([
      tx.sessions.get({ sessionId }),
      tx.facts.listEvents({ sessionId }),
      tx.facts.list({ sessionId }),
      tx.retries.list({ sessionId }),
    ]);
    // Turns still queued change the facts when they land, after this change: an older turn's diff would
    // overwrite the correction. Refuse it until they have (stats().pendingRetries says how many wait).
    if (queued.length > 0) {
      const turns = queued.map((entry) => entry.turn);
      throw new StrataError(
        'MEMORY_PENDING',
        `The memory of turn${turns.length > 1 ? 's' : ''} ${turns.length > 2 ? `${turns[0]}–${turns.at(-1)}` : turns.join(' and ')} of this session is still waiting for the memory manager (retried in the background); a fact change now would be overwritten when it lands. Try again once stats({ sessionId }).pendingRetries is 0.`,
        { details: { sessionId, turns } },
      );
    }
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
