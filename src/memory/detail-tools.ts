/**
 * The detail protocol as tools, for chat models that call tools: `request_tier` and `search_episodic`
 * ask for what the markers ask for. Their calls are the engine's own: taken out of the reply before the
 * caller sees its tool calls, answered in the next round by a tool result that says what was done (the
 * package above it is then built again with the richer context), and never stored.
 */
import type { DetailRequest } from '../core/detail-markers.js';
import type { ChatMessage, DetailRequestRecord, Tier, ToolCall } from '../core/types.js';
import type { ChatTool } from '../providers/chat-model/chat-model.js';
import type { ChatCall } from './chat-call-options.js';

export const REQUEST_TIER_TOOL = 'request_tier';
export const SEARCH_EPISODIC_TOOL = 'search_episodic';
export const DETAIL_TOOL_NAMES: ReadonlySet<string> = new Set([REQUEST_TIER_TOOL, SEARCH_EPISODIC_TOOL]);

export const DETAIL_TOOLS: readonly ChatTool[] = [
  {
    name: REQUEST_TIER_TOOL,
    description: 'Show a shortened message of an earlier turn in more detail in the context above, then answer from it.',
    parameters: {
      type: 'object',
      properties: {
        message: { type: 'string', description: 'The message as its line names it: "[turn 12] user:" is 12u, "[turn 12] assistant:" is 12a, a tool result 12t; a second message of the same role in a turn adds its count (12a2).' },
        tier: { type: 'integer', enum: [2, 3], description: '3 for the full text (default), 2 for a brief summary.' },
      },
      required: ['message'],
      additionalProperties: false,
    },
  },
  {
    name: SEARCH_EPISODIC_TOOL,
    description: 'Search every older message of this conversation; the best matches appear in the context above.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Words to look for.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
];

/** A call of one of the detail tools: the request it makes, or why it makes none. */
export type DetailToolCall = { call: ToolCall; request: DetailRequest } | { call: ToolCall; problem: string };

function argumentsOf(call: ToolCall): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Read one call of a detail tool (the model's arguments are checked like any model output). */
export function readDetailCall(call: ToolCall): DetailToolCall {
  const args = argumentsOf(call);
  if (args === null) return { call, problem: 'its arguments are not a JSON object' };
  if (call.name === SEARCH_EPISODIC_TOOL) {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    return query === '' || query.length > 500 ? { call, problem: 'query must be text of 1–500 characters' } : { call, request: { kind: 'search', query } };
  }
  const message = typeof args.message === 'string' ? args.message.trim() : '';
  const tier = args.tier ?? 3;
  if (message === '' || message.length > 256) return { call, problem: 'message must name a message, such as 12u' };
  if (tier !== 2 && tier !== 3) return { call, problem: 'tier must be 2 or 3' };
  return { call, request: { kind: 'tier', tier: tier as Tier, ref: message } };
}

/** The reply's tool calls split into the detail tools' and the caller's own. */
export function splitToolCalls(calls: readonly ToolCall[]): { detail: DetailToolCall[]; caller: ToolCall[] } {
  return {
    detail: calls.filter((call) => DETAIL_TOOL_NAMES.has(call.name)).map(readDetailCall),
    caller: calls.filter((call) => !DETAIL_TOOL_NAMES.has(call.name)),
  };
}

/** What a detail call did, as its tool result tells the model. */
function resultText(record: DetailRequestRecord, problem: string | null): string {
  if (problem !== null) return `Not done: ${problem}.`;
  if (record.outcome === 'ignored') return `Not done: "${record.target}" names no message of this conversation.`;
  if (record.outcome === 'over-limit') return 'Not done: no more requests in this reply; answer with what the context shows.';
  if (record.kind === 'search') return `Searched for "${record.target}": the best matches are now in the context above.`;
  return `Message ${record.target} is now shown at tier ${String(record.tier ?? 3)} in the context above.`;
}

/** A request made when no round was left: recorded, not applied. */
export function overLimit(request: DetailRequest, round: number): DetailRequestRecord {
  return request.kind === 'tier'
    ? { round, kind: 'tier', target: request.ref, tier: request.tier, outcome: 'over-limit' }
    : { round, kind: 'search', target: request.query, outcome: 'over-limit' };
}

/** The record of a call whose arguments make no request: ignored, naming what the model sent. */
function unreadable(call: ToolCall, round: number): DetailRequestRecord {
  const sent = call.arguments.trim().slice(0, 256);
  return { round, kind: call.name === SEARCH_EPISODIC_TOOL ? 'search' : 'tier', target: sent === '' ? '(no arguments)' : sent, outcome: 'ignored' };
}

/**
 * Most requests applied from one reply of the model; the rest are recorded as over the limit. A reply
 * that asks for dozens of messages would raise them all for many turns, and no answer needs that many.
 */
export const MOST_REQUESTS_PER_REPLY = 8;

/**
 * Apply the detail calls of one round (`canGoOn`: a round is left to use them; else each is recorded as
 * over the limit): their records, the searches they add, and the messages that tell the model what was
 * done, its calls and one result each, to follow the user's message from the next round on.
 */
export async function answerDetailCalls(
  calls: readonly DetailToolCall[],
  options: { round: number; canGoOn: boolean; apply: (request: DetailRequest, round: number) => Promise<DetailRequestRecord> },
): Promise<{ records: DetailRequestRecord[]; searches: string[]; messages: ChatMessage[] }> {
  const records: DetailRequestRecord[] = [];
  const searches: string[] = [];
  const results: ChatMessage[] = [];
  for (const [index, entry] of calls.entries()) {
    let record: DetailRequestRecord;
    if ('problem' in entry) record = unreadable(entry.call, options.round);
    else if (!options.canGoOn || index >= MOST_REQUESTS_PER_REPLY) record = overLimit(entry.request, options.round);
    else {
      record = await options.apply(entry.request, options.round);
      if (entry.request.kind === 'search') searches.push(entry.request.query);
    }
    records.push(record);
    results.push({ role: 'tool', content: resultText(record, 'problem' in entry ? entry.problem : null), toolCallId: entry.call.id });
  }
  const messages: ChatMessage[] = calls.length === 0 ? [] : [{ role: 'assistant', content: '', toolCalls: calls.map((entry) => entry.call) }, ...results];
  return { records, searches, messages };
}

/** The call with the detail tools offered beside the caller's own (the model still chooses freely). */
export function withDetailTools(call: ChatCall): ChatCall {
  return { ...call, tools: [...(call.tools ?? []), ...DETAIL_TOOLS] };
}

/**
 * Which form the detail protocol takes in a turn: `tools` when the setting asks for it, or (`auto`) when
 * the turn offers the model tools of its own, so the model is known to call tools; markers otherwise. A
 * caller's tool named like one of the detail tools keeps its name, and the turn uses markers.
 */
export function detailFormFor(setting: 'auto' | 'markers' | 'tools', call: ChatCall): 'markers' | 'tools' {
  const tools = call.tools ?? [];
  if (setting === 'markers' || tools.some((tool) => DETAIL_TOOL_NAMES.has(tool.name))) return 'markers';
  return setting === 'tools' || tools.length > 0 ? 'tools' : 'markers';
}
