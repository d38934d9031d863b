/**
 * What one reply of the chat model asked for, settled the same way wherever the detail protocol runs
 * (`session.chat()` and the proxy): requests applied while a round is left (at most
 * `MOST_REQUESTS_PER_REPLY` of them), recorded as over the limit otherwise, and whether to ask again.
 * A reply that also calls the caller's own tools stands: those calls go back to the caller.
 */
import type { DetailRequest } from '../core/detail-markers.js';
import type { ChatMessage, DetailRequestRecord, ToolCall } from '../core/types.js';
import { answerDetailCalls, MOST_REQUESTS_PER_REPLY, overLimit, splitToolCalls } from './detail-tools.js';

export interface DetailReply {
  /** Every tool call the reply made, the detail tools' included. */
  toolCalls: readonly ToolCall[];
  /** The markers it wrote (markers form). */
  requests: readonly DetailRequest[];
}

export interface SettledReply {
  /** Ask again, with the package built for `searches` and with `followUps` after the exchange. */
  again: boolean;
  /** The caller's own tool calls of a reply that stands. */
  callerCalls: ToolCall[];
  records: DetailRequestRecord[];
  searches: string[];
  /** With tools: the detail calls and their results, to follow the exchange from the next round on. */
  followUps: ChatMessage[];
}

export async function settleDetailReply(
  reply: DetailReply,
  options: { form: 'markers' | 'tools'; round: number; asking: boolean; apply: (request: DetailRequest, round: number) => Promise<DetailRequestRecord> },
): Promise<SettledReply> {
  const { round, asking, apply } = options;
  const stands = (callerCalls: ToolCall[], records: DetailRequestRecord[] = []): SettledReply => ({ again: false, callerCalls, records, searches: [], followUps: [] });
  if (options.form === 'tools') {
    const { detail, caller } = splitToolCalls(reply.toolCalls);
    if (detail.length === 0) return stands(caller);
    const answered = await answerDetailCalls(detail, { round, canGoOn: asking, apply });
    if (!asking || caller.length > 0) return stands(caller, answered.records);
    return { again: true, callerCalls: [], records: answered.records, searches: answered.searches, followUps: answered.messages };
  }
  if (reply.requests.length === 0 || reply.toolCalls.length > 0) return stands([...reply.toolCalls]);
  const records: DetailRequestRecord[] = [];
  for (const [index, request] of reply.requests.entries()) records.push(asking && index < MOST_REQUESTS_PER_REPLY ? await apply(request, round) : overLimit(request, round));
  if (!asking) return stands([], records);
  const searches = reply.requests.slice(0, MOST_REQUESTS_PER_REPLY).flatMap((request) => (request.kind === 'search' ? [request.query] : []));
  return { again: true, callerCalls: [], records, searches, followUps: [] };
}
