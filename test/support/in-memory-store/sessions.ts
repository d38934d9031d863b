/** Sessions of the in-memory fake store; deleting one takes everything derived from it (it all lives inside). */
import type { SessionRepository } from '../../../src/store/store.js';
import { compareText, page, storeFailure, type StateAccess } from './state.js';

export function createSessionRepository(access: StateAccess): SessionRepository {
  return {
    create: ({ session }) =>
      access.write((draft) => {
        if (draft.sessions.has(session.id)) throw storeFailure(`A session "${session.id}" already exists in this tenant; pick another id.`, { sessionId: session.id });
        const { id, title, instructions, createdAt, updatedAt, messageCount, turnCount, tokenCount } = session;
        draft.sessions.set(id, {
          session: { id, title, instructions, createdAt, updatedAt, messageCount, turnCount, tokenCount },
          messages: [],
          turns: new Map(),
          facts: new Map(),
          events: [],
          artifacts: [],
          retries: new Map(),
        });
      }),
    get: ({ sessionId }) => access.read((state) => state.sessions.get(sessionId)?.session ?? null),
    list: ({ limit, offset }) =>
      access.read((state) => {
        const sessions = [...state.sessions.values()].map((entry) => entry.session);
        sessions.sort((a, b) => compareText(b.updatedAt, a.updatedAt) || compareText(a.id, b.id));
        return page(sessions, limit, offset);
      }),
    update: ({ sessionId, title, instructions, updatedAt }) =>
      access.write((draft) => {
        const session = draft.sessions.get(sessionId)?.session;
        if (session === undefined) return false;
        if (title !== undefined) session.title = title;
        if (instructions !== undefined) session.instructions = instructions;
        session.updatedAt = updatedAt;
        return true;
      }),
    delete: ({ sessionId }) => access.write((draft) => draft.sessions.delete(sessionId)),
  };
}
