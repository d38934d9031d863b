/** A person's correction of the base truth: the event and the document change, in one transaction. */
import { planFactEdit } from '../core/fact-edit.js';
import type { FactEvent } from '../core/types.js';
import type { TenantStore } from '../store/store.js';

export interface EditFactOptions {
  repositories: TenantStore;
  sessionId: string;
  request: unknown;
  now: () => string;
  newId: () => string;
}

/**
 * Apply one correction (`planFactEdit`) and return its event. Run it as the session's memory work, so no
 * turn's diff interleaves with it. A bad request is refused with INVALID_INPUT and nothing is written.
 */
export async function editFact(options: EditFactOptions): Promise<FactEvent> {
  const { repositories, sessionId } = options;
  return repositories.transaction(async (tx) => {
    const [session, events, facts] = await Promise.all([tx.sessions.get({ sessionId }), tx.facts.listEvents({ sessionId }), tx.facts.list({ sessionId })]);
    const plan = planFactEdit({
      request: options.request,
      facts,
      events,
      sessionId,
      turn: Math.max(session?.turnCount ?? 0, events.reduce((latest, event) => Math.max(latest, event.turn), 0)),
      // Events come in sequence order: the last one holds the session's last sequence.
      sequence: (events.at(-1)?.sequence ?? 0) + 1,
      now: options.now(),
      newId: options.newId,
    });
    await tx.facts.apply({ sessionId, events: [plan.event], upserts: plan.upserts, removedIds: plan.removedIds });
    return plan.event;
  });
}
