/** A person's correction of the base truth: the event and the document change, in one transaction. */
import { planFactEdit } from '../core/fact-edit.js';
import type { FactEvent } from '../core/types.js';
import type { TenantStore } from '../store/store.js';
import { applyUserChange } from './user-fact-change.js';

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
  const { sessionId } = options;
  return applyUserChange(options.repositories, sessionId, (state) => planFactEdit({ ...state, request: options.request, sessionId, now: options.now(), newId: options.newId }));
}
