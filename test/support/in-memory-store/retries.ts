/** The memory-retry queue of the in-memory fake store: one entry per stored turn, gone with its session. */
import type { MemoryRetry, RetryRepository } from '../../../src/store/store.js';
import { compareText, page, storeFailure, type StateAccess, type TenantState } from './state.js';

/** Every entry of the tenant (or of one session), by session then turn. */
function entries(state: TenantState, sessionId?: string): MemoryRetry[] {
  const sessionIds = sessionId === undefined ? [...state.sessions.keys()].sort(compareText) : [sessionId];
  return sessionIds.flatMap((id) => [...(state.sessions.get(id)?.retries.values() ?? [])].sort((a, b) => a.turn - b.turn));
}

export function createRetryRepository(access: StateAccess): RetryRepository {
  return {
    put: ({ retry }) =>
      access.write((draft) => {
        const session = draft.sessions.get(retry.sessionId);
        if (session?.turns.has(retry.turn) !== true) {
          throw storeFailure(
            `Cannot queue turn ${retry.turn} of session "${retry.sessionId}" for a memory retry: this tenant has no stored summary for that turn; store the turn (turns.upsert) before queueing it.`,
            { sessionId: retry.sessionId, turn: retry.turn },
          );
        }
        if (retry.attempts < 1) throw storeFailure(`A memory retry counts at least 1 attempt, not ${retry.attempts}.`, { attempts: retry.attempts });
        const { sessionId, turn, attempts, nextAttemptAt, reason, lastError, createdAt, updatedAt } = retry;
        const first = session.retries.get(turn)?.createdAt ?? createdAt;
        session.retries.set(turn, { sessionId, turn, attempts, nextAttemptAt, reason, lastError, createdAt: first, updatedAt });
      }),
    listDue: ({ now, limit, sessionId }) =>
      access.read((state) =>
        page(
          entries(state, sessionId).filter((retry) => retry.nextAttemptAt <= now),
          limit,
        ),
      ),
    list: ({ sessionId }) => access.read((state) => entries(state, sessionId)),
    nextDue: () =>
      access.read((state) => entries(state).reduce<string | null>((earliest, retry) => (earliest === null || retry.nextAttemptAt < earliest ? retry.nextAttemptAt : earliest), null)),
    remove: ({ sessionId, turn }) =>
      access.write((draft) => {
        draft.sessions.get(sessionId)?.retries.delete(turn);
      }),
    count: (options) => access.read((state) => entries(state, options?.sessionId).length),
    claimDue: ({ now, until, claimant, limit }) =>
      access.write((draft) => {
        const free = (id: string): boolean => {
          const claim = draft.sessions.get(id)?.claim;
          return claim === undefined || claim.claimant === claimant || claim.until <= now;
        };
        const ids = [...new Set(entries(draft).filter((retry) => retry.nextAttemptAt <= now).map((retry) => retry.sessionId))].filter(free).slice(0, Math.max(0, limit));
        for (const id of ids) {
          const session = draft.sessions.get(id);
          if (session !== undefined) session.claim = { claimant, until };
        }
        return ids;
      }),
    release: ({ sessionId, claimant }) =>
      access.write((draft) => {
        const session = draft.sessions.get(sessionId);
        if (session?.claim?.claimant === claimant) delete session.claim;
      }),
  };
}
