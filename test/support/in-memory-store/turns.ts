/** Turn summaries of the in-memory fake store, one per session and turn; the stale-memory mark, once set, stays. */
import type { TurnSummary } from '../../../src/core/types.js';
import type { TurnRepository } from '../../../src/store/store.js';
import { compareText, noteTurnChanges, page, requireSession, type StateAccess, type TenantState } from './state.js';

function turnsOf(state: TenantState, sessionId: string): TurnSummary[] {
  return [...(state.sessions.get(sessionId)?.turns.values() ?? [])].sort((a, b) => a.turn - b.turn);
}

export function createTurnRepository(access: StateAccess): TurnRepository {
  return {
    upsert: ({ summary }) =>
      access.write((draft) => {
        const session = requireSession(draft, summary.sessionId, `turn ${summary.turn}`);
        const turns = session.turns;
        noteTurnChanges(draft, session, [summary.turn]);
        const old = turns.get(summary.turn);
        const { sessionId, turn, messageIds, userSummary, assistantSummary, depth, status, windowExtension, tokens } = summary;
        const stale = summary.staleMemory === true || old?.staleMemory === true;
        const detailRequests = summary.detailRequests !== undefined && summary.detailRequests.length > 0 ? summary.detailRequests : old?.detailRequests;
        turns.set(turn, {
          sessionId,
          turn,
          messageIds: [...messageIds],
          userSummary,
          assistantSummary,
          depth,
          status,
          windowExtension,
          tokens,
          // Replacing a summary keeps the time the turn was first stored.
          createdAt: old?.createdAt ?? summary.createdAt,
          ...(stale ? { staleMemory: true } : {}),
          // A summary written again without them (phase 2 of a chat turn) keeps the turn's detail requests.
          ...(detailRequests === undefined ? {} : { detailRequests: detailRequests.map((request) => ({ ...request })) }),
        });
      }),
    changes: ({ sessionId, after }) =>
      access.read((state) => {
        const revisions = [...(state.sessions.get(sessionId)?.turnRevisions ?? [])];
        const changed = after === undefined ? [] : revisions.filter(([, revision]) => revision > after).map(([turn]) => turn);
        return { revision: Math.max(0, ...revisions.map(([, revision]) => revision)), turns: changed.sort((a, b) => a - b) };
      }),
    get: ({ sessionId, turn }) => access.read((state) => state.sessions.get(sessionId)?.turns.get(turn) ?? null),
    listBefore: ({ sessionId, beforeTurn, limit }) =>
      access.read((state) =>
        page(
          turnsOf(state, sessionId)
            .filter((summary) => summary.turn < beforeTurn)
            .reverse(),
          limit,
        ),
      ),
    list: ({ sessionId }) => access.read((state) => turnsOf(state, sessionId)),
    listByStatus: ({ sessionId, status, limit }) =>
      access.read((state) => {
        const sessionIds = sessionId === undefined ? [...state.sessions.keys()].sort(compareText) : [sessionId];
        const matching = sessionIds.flatMap((id) => turnsOf(state, id)).filter((summary) => summary.status === status);
        return page(matching, limit);
      }),
  };
}
