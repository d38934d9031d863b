import type { ProcessTurnOptions } from '../../src/managers/memory-manager.js';

/** A user message of 40+ words: a medium exchange (the model manager sends it to the model). */
export const MEDIUM_USER =
  'We are moving the support app to a new host next month. The budget is $40,000 for the whole project and the deadline is March 15. ' +
  'We must never store full card numbers anywhere in the new system, and I would prefer PostgreSQL 16 for the database.';

/** What a memory manager is asked about one turn of a user and an assistant message. */
export function turnRequest(user: string, assistant: string, extra: Partial<ProcessTurnOptions> = {}): ProcessTurnOptions {
  return {
    sessionId: 'session-1',
    turn: 3,
    messages: [
      { id: 'm-user', role: 'user', speaker: null, content: user, sentAt: '2024-05-08T10:00:00Z' },
      { id: 'm-assistant', role: 'assistant', speaker: null, content: assistant, sentAt: '2024-05-08T10:00:00Z' },
    ],
    facts: [],
    artifacts: [],
    timestamp: '2024-05-08T10:00:00Z',
    ...extra,
  };
}
