/**
 * One reply of the chat model within a turn: streamed through a marker filter (when the detail protocol
 * is on), so the caller gets only what the user may see and the requests the model made come back apart.
 */
import { MarkerFilter, type DetailRequest } from '../core/detail-markers.js';
import type { ChatMessage, ToolCall } from '../core/types.js';
import type { ChatModel, ChatUsage } from '../providers/chat-model/chat-model.js';
import type { ChatCall } from './chat-call-options.js';

export interface RoundOutcome {
  /** What the user saw of this reply. */
  text: string;
  usage: ChatUsage;
  toolCalls: ToolCall[];
  /** The requests for detail the reply made (none when the protocol is off). */
  requests: readonly DetailRequest[];
}

export interface RoundOptions {
  chatModel: ChatModel;
  messages: ChatMessage[];
  call: ChatCall;
  signal: AbortSignal | undefined;
  /** Read markers out of the reply (the protocol is on for this turn). */
  markers: boolean;
  /** Told once the model has begun to write. */
  onFirstPiece(): void;
}

/** Stream one reply: yields the visible pieces, returns the outcome. */
export async function* streamRound(options: RoundOptions): AsyncGenerator<string, RoundOutcome> {
  const filter = options.markers ? new MarkerFilter() : null;
  const show = (piece: string): string => (filter === null ? piece : filter.push(piece));
  let text = '';
  let usage: ChatUsage = { promptTokens: 0, completionTokens: 0 };
  let toolCalls: ToolCall[] = [];
  let streamed = false;
  const request = { messages: options.messages, ...options.call, ...(options.signal === undefined ? {} : { signal: options.signal }) };
  for await (const event of options.chatModel.stream(request)) {
    const piece = event.type === 'delta' ? event.text : streamed ? '' : event.text;
    if (event.type === 'done') {
      usage = event.usage;
      toolCalls = event.toolCalls;
    }
    if (piece === '') continue;
    if (event.type === 'delta' && !streamed) {
      streamed = true;
      options.onFirstPiece();
    }
    const visible = show(piece);
    if (visible === '') continue;
    text += visible;
    yield visible;
  }
  const rest = filter?.end() ?? '';
  if (rest !== '') {
    text += rest;
    yield rest;
  }
  return { text, usage, toolCalls, requests: filter?.requests ?? [] };
}

/** Usage of two replies together. */
export function addUsage(a: ChatUsage, b: ChatUsage): ChatUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}
