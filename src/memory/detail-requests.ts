/**
 * What the engine does with the chat model's requests for detail. A tier request names a message of this
 * session (by ref, `12u`, or by id): it is raised to that tier, under the session's lock, and keeps it on
 * later turns until it has not been asked for in a while. A request naming no message of the session
 * (another session's or tenant's id, an unknown one) changes nothing and is recorded as ignored. A
 * search adds its words to what the package recalls for.
 */
import type { DetailRequest } from '../core/detail-markers.js';
import { findByRef, parseMessageRef } from '../core/message-ref.js';
import type { DetailRequestRecord, Message } from '../core/types.js';
import type { EngineParts } from './engine-parts.js';

/** The session's message a ref or id names, or null. */
async function namedMessage(parts: EngineParts, sessionId: string, target: string): Promise<Message | null> {
  const ref = parseMessageRef(target);
  if (ref !== null) {
    const turn = await parts.repositories.messages.listByTurns({ sessionId, fromTurn: ref.turn, toTurn: ref.turn });
    return findByRef(turn, ref) ?? null;
  }
  const [message] = await parts.repositories.messages.getMany({ sessionId, messageIds: [target] });
  return message ?? null;
}

/** Apply one request made in `round` of the turn the session is writing now; says what it did. */
export async function applyDetailRequest(parts: EngineParts, sessionId: string, request: DetailRequest, round: number): Promise<DetailRequestRecord> {
  if (request.kind === 'search') return { round, kind: 'search', target: request.query, outcome: 'searched' };
  const asked = { round, kind: 'tier' as const, target: request.ref, tier: request.tier };
  const message = await namedMessage(parts, sessionId, request.ref);
  if (message === null) {
    parts.logger.warn({ sessionId, target: request.ref }, 'the chat model asked for a message this session does not hold; ignored');
    return { ...asked, outcome: 'ignored' };
  }
  const raised = await parts.lock(sessionId, async () => {
    const thisTurn = (await parts.repositories.messages.last({ sessionId })).turn + 1;
    return parts.repositories.messages.raiseTier({ sessionId, messageId: message.id, tier: request.tier, turn: thisTurn });
  });
  parts.writes.announce({ sessionId, turn: message.turn });
  return { ...asked, messageId: message.id, outcome: raised !== null && raised.requiredTier > message.requiredTier ? 'raised' : 'unchanged' };
}

/** What a turn's requests add to the memory's counters: all of them, and those that did nothing. */
export function detailCounts(records: readonly DetailRequestRecord[]): { detailRequests: number; detailRequestsIgnored: number } {
  return { detailRequests: records.length, detailRequestsIgnored: records.filter((record) => record.outcome === 'ignored' || record.outcome === 'over-limit').length };
}
