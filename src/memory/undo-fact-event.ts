/** Undoing one fact event of a session: the compensating event and the document change, in one transaction. */
import { StrataError } from '../core/errors.js';
import { planUndo } from '../core/fact-undo.js';
import type { FactEvent } from '../core/types.js';
import type { TenantStore } from '../store/store.js';

export interface UndoFactEventOptions {
  repositories: TenantStore;
  sessionId: string;
  eventId: unknown;
  now: () => string;
  newId: () => string;
}

/**
 * Append the event that reverts `eventId` (see `planUndo`) and update the document with it; returns the
 * new event. Run it as the session's memory work, so no turn's diff interleaves with it. Refuses with
 * INVALID_INPUT what cannot be undone; nothing is written then.
 */
export async function undoFactEvent(options: UndoFactEventOptions): Promise<FactEvent> {
  const { repositories, sessionId, eventId } = options;
  if (typeof eventId !== 'string' || eventId.trim() === '') {
    throw new StrataError('INVALID_INPUT', 'Name the fact event to undo by its id; list them with `strata facts <session> --events --json` or session.factEvents().');
  }
  return repositories.transaction(async (tx) => {
    const [session, events, facts] = await Promise.all([tx.sessions.get({ sessionId }), tx.facts.listEvents({ sessionId }), tx.facts.list({ sessionId })]);
    // Events come in sequence order: the last one holds the session's last sequence.
    const lastSequence = events.at(-1)?.sequence ?? 0;
    const latestEventTurn = events.reduce((latest, event) => Math.max(latest, event.turn), 0);
    const plan = planUndo({
      events,
      facts,
      eventId: eventId.trim(),
      turn: Math.max(session?.turnCount ?? 0, latestEventTurn),
      sequence: lastSequence + 1,
      now: options.now(),
      newId: options.newId,
    });
    await tx.facts.apply({ sessionId, events: [plan.event], upserts: plan.upserts, removedIds: plan.removedIds });
    return plan.event;
  });
}
