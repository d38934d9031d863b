/** Sessions of the in-memory fake store; deleting one takes everything derived from it (it all lives inside). */
import { StrataError } from '../../../src/core/errors.js';
import type { SessionRepository } from '../../../src/store/store.js';
import { compareText, page, type StateAccess } from './state.js';

export function createSessionRepository(access: StateAccess): SessionRepository {
  return {
    create: ({ session, importUntil }) =>
      access.write((draft) => {
        if (draft.sessions.has(session.id)) throw new StrataError('SESSION_EXISTS', `A session "${session.id}" already exists in this tenant; pick another id.`, { details: { sessionId: session.id } });
        const { id, title, instructions, createdAt, updatedAt, messageCount, turnCount, tokenCount } = session;
        draft.sessions.set(id, {
          session: { id, title, instructions, createdAt, updatedAt, messageCount, turnCount, tokenCount },
          messages: [],
          turns: new Map(),
          turnRevisions: new Map(),
          facts: new Map(),
          events: [],
          artifacts: [],
          retries: new Map(),
          vectors: new Map(),
          importUntil: importUntil ?? null,
        });
      }),
    get: ({ sessionId }) =>
      access.read((state) => {
        const entry = state.sessions.get(sessionId);
        return entry === undefined || entry.importUntil !== null ? null : entry.session;
      }),
    list: ({ limit, offset }) =>
      access.read((state) => {
        const sessions = [...state.sessions.values()].filter((entry) => entry.importUntil === null).map((entry) => entry.session);
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
    renewImport: ({ sessionId, until }) =>
      access.write((draft) => {
        const entry = draft.sessions.get(sessionId);
        if (entry === undefined || entry.importUntil === null) return false;
        entry.importUntil = until;
        return true;
      }),
    finishImport: ({ sessionId, updatedAt }) =>
      access.write((draft) => {
        const entry = draft.sessions.get(sessionId);
        if (entry === undefined) return false;
        entry.importUntil = null;
        entry.session.updatedAt = updatedAt;
        return true;
      }),
    removeAbandonedImports: ({ now }) =>
      access.write((draft) => {
        const ids = [...draft.sessions].filter(([, entry]) => entry.importUntil !== null && entry.importUntil < now).map(([id]) => id);
        for (const id of ids) draft.sessions.delete(id);
        return ids;
      }),
  };
}
