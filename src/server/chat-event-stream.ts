/**
 * A chat turn told as Server-Sent Events, each `data` one JSON object: `reply` for each piece of the
 * reply as it arrives, `stored` once the turn is stored, `memory` when its memory work (phase 2) ends,
 * then the stream ends. A failure once the stream has begun is told as one `error` event, then the end.
 */
import type { SSEStreamingApi } from 'hono/streaming';
import type { ChatStream } from '../memory/chat-turn.js';
import { answerFor } from './error-response.js';

/** The events of a chat stream and what each carries, for the OpenAPI document. */
export const CHAT_EVENTS_DESCRIPTION = [
  'A stream of Server-Sent Events; each `data` line is one JSON object:',
  '- `event: reply`, `{ "text" }`: the next piece of the reply, in order (joined, they are the reply);',
  '- `event: stored`, `{ "turn", "messageIds", "contextTokens", "budget", "staleMemory" }`: the turn is stored;',
  '- `event: memory`, `{ "turn", "status", "problem" }`: its memory work ended (`summarised`, or `fallback-raw` / `pending-retry` with the problem); the stream then ends;',
  '- `event: error`, `{ "error": { "code", "message" } }`: the turn failed after the stream began (nothing is stored when it fails before `stored`); the stream then ends.',
  'Closing the connection cancels the model call; the turn is then not stored.',
].join('\n');

export interface ChatEventOptions {
  /** The turn's stream, and its iterator with the pieces already taken from it. */
  stream: ChatStream;
  iterator: AsyncIterator<string>;
  taken: readonly string[];
  /** Told of failures that are not the caller's doing. */
  unexpected: (error: unknown) => void;
}

async function send(sse: SSEStreamingApi, event: string, data: unknown): Promise<void> {
  await sse.writeSSE({ event, data: JSON.stringify(data) });
}

/** Write the turn's events to `sse` until the turn's memory work ends or the turn fails. */
export async function writeChatEvents(sse: SSEStreamingApi, options: ChatEventOptions): Promise<void> {
  const { stream, iterator } = options;
  try {
    for (const text of options.taken) await send(sse, 'reply', { text });
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) await send(sse, 'reply', { text: next.value });
    const result = await stream.result;
    await send(sse, 'stored', { turn: result.turn, messageIds: result.messageIds, contextTokens: result.contextTokens, budget: result.budget, staleMemory: result.staleMemory });
    const memory = await result.memory;
    await send(sse, 'memory', { turn: memory.turn, status: memory.status, problem: memory.problem });
  } catch (error) {
    await send(sse, 'error', answerFor(error, options.unexpected).body);
  }
}
