/**
 * A plain (not streamed) proxied answer with the detail protocol on: the upstream is asked round by
 * round until a reply stands; that reply goes back with the markers taken out of its text (and the text
 * of earlier rounds before it), without the detail tools' calls, and with the usage of every round.
 */
import { extractMarkers } from '../../core/detail-markers.js';
import type { ToolCall } from '../../core/types.js';
import { DETAIL_TOOL_NAMES } from '../../memory/detail-tools.js';
import type { ChatBody } from './chat-request.js';
import type { DetailExchange, RoundReply } from './detail-exchange.js';
import type { CapturedReply } from './stream-capture.js';
import { passedHeaders } from './upstream.js';

interface OpenAiToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

interface Completion {
  choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown }>;
  usage?: Record<string, unknown> | null;
}

const NO_REPLY: CapturedReply = { text: '', finished: false, toolCalls: false };

/** The tool calls of an OpenAI message or delta, in Strata's form (malformed entries are left out). */
export function openAiCalls(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: OpenAiToolCall) => {
    const name = entry.function?.name;
    if (typeof name !== 'string') return [];
    const args = entry.function?.arguments;
    return [{ id: typeof entry.id === 'string' ? entry.id : '', name, arguments: typeof args === 'string' ? args : '' }];
  });
}

/** Token counts of two rounds added field by field (numbers only; null when neither has any). */
export function addUsage(a: Record<string, unknown> | null, b: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (b === null || b === undefined) return a;
  if (a === null) return b;
  const sum: Record<string, unknown> = { ...b };
  for (const [key, value] of Object.entries(a)) if (typeof value === 'number' && typeof b[key] === 'number') sum[key] = value + b[key];
  return sum;
}

function parseCompletion(text: string): Completion | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && Array.isArray((value as Completion).choices) ? (value as Completion) : null;
  } catch {
    return null;
  }
}

/** Ask round by round; the answer for the client and the reply to remember. */
export async function answerPlain(exchange: DetailExchange, call: (body: ChatBody) => Promise<Response>): Promise<{ response: Response; reply: CapturedReply }> {
  let shown = '';
  let usage: Record<string, unknown> | null = null;
  for (;;) {
    const upstream = await call(await exchange.body());
    const text = await upstream.text();
    const completion = upstream.ok ? parseCompletion(text) : null;
    const choice = completion?.choices?.[0];
    // An error, or an answer that is not a completion, goes back as it came; nothing is remembered.
    if (completion === null || choice === undefined) return { response: new Response(text, { status: upstream.status, headers: passedHeaders(upstream) }), reply: NO_REPLY };
    const message = choice.message ?? {};
    const content = typeof message.content === 'string' ? message.content : '';
    const read: RoundReply =
      exchange.form === 'markers' ? { ...extractMarkers(content), toolCalls: openAiCalls(message.tool_calls) } : { text: content, requests: [], toolCalls: openAiCalls(message.tool_calls) };
    shown += read.text;
    usage = addUsage(usage, completion.usage);
    const firstRound = exchange.round === 1;
    const settled = await exchange.settle(read);
    if (settled.again) continue;
    const reply = { text: shown, finished: true, toolCalls: settled.callerCalls.length > 0 };
    // A first reply that asked for nothing goes back as it came, not parsed and written again.
    const asked = read.requests.length > 0 || read.toolCalls.some((call) => DETAIL_TOOL_NAMES.has(call.name));
    if (firstRound && !asked) return { response: new Response(text, { status: upstream.status, headers: passedHeaders(upstream) }), reply };
    if (typeof message.content === 'string' || shown !== '') message.content = shown;
    if (Array.isArray(message.tool_calls)) {
      const own = (message.tool_calls as OpenAiToolCall[]).filter((entry) => typeof entry.function?.name !== 'string' || !DETAIL_TOOL_NAMES.has(entry.function.name));
      if (own.length > 0) message.tool_calls = own;
      else {
        delete message.tool_calls;
        if (choice.finish_reason === 'tool_calls') choice.finish_reason = 'stop';
      }
    }
    if (usage !== null) completion.usage = usage;
    const headers = { ...passedHeaders(upstream), 'content-type': 'application/json' };
    return { response: new Response(JSON.stringify(completion), { status: upstream.status, headers }), reply };
  }
}
