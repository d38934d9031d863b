/** Undoing one fact event of a session: the compensating event and the document change, in one transaction. */
import { StrataError } from '../core/errors.js';
import { planUndo } from '../core/fact-undo.js';
import type { FactEvent } from '../core/types.js';
import type { TenantStore } from '../store/store.js';
import { applyUserChange } from './user-fact-change.js';

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
  const id = eventId.trim();
  return applyUserChange(repositories, sessionId, (state) => planUndo({ ...state, eventId: id, now: options.now(), newId: options.newId }));
}
