/**
 * Reading a conversation a client sends in its own message format (the proxy's OpenAI requests, the AI
 * SDK's prompts): where the exchange in progress begins, where each earlier turn begins, and the tool
 * steps of a turn, each call with the result sent right after it (by position, as they are sent).
 */
import type { ToolCall } from './types.js';

/** One step of tool use as `record()` takes it: what the assistant said, each call with its result. */
export interface ToolStep {
  text?: string;
  calls: Array<ToolCall & { result: string }>;
}

/** How to read a format's messages for their tool use. */
export interface ToolUseReader<M> {
  /** The tools a message calls (none for any but an assistant message). May throw on a malformed call. */
  calls(message: M): ToolCall[];
  /** The results a message holds, as [call id, text] (null: it is not a tool result). */
  results(message: M): Array<[string, string]> | null;
  /** What a message says in text. */
  text(message: M): string;
}

/** `messages` cut before its last user message: the history, and the exchange from that message on (all of it when none). */
export function splitAtLastUser<M extends { role: string }>(messages: readonly M[]): { history: M[]; exchange: M[] } {
  let last = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') last = index;
  });
  const start = Math.max(0, last);
  return { history: messages.slice(0, start), exchange: messages.slice(start) };
}

/** `messages` cut before each user message: each part a user message and what followed it (the first may begin otherwise). */
export function userSegments<M extends { role: string }>(messages: readonly M[]): M[][] {
  const segments: M[][] = [];
  let start = 0;
  for (let index = 1; index <= messages.length; index += 1) {
    if (index < messages.length && messages[index]?.role !== 'user') continue;
    segments.push(messages.slice(start, index));
    start = index;
  }
  return segments;
}

/**
 * The tool steps of an exchange: each message that calls tools, with the results of the tool messages
 * right after it; null when a call has no result there.
 */
export function toolStepsOf<M>(exchange: readonly M[], read: ToolUseReader<M>): ToolStep[] | null {
  const steps: ToolStep[] = [];
  for (const [index, message] of exchange.entries()) {
    const calls = read.calls(message);
    if (calls.length === 0) continue;
    const results = new Map<string, string>();
    for (const answer of exchange.slice(index + 1)) {
      const held = read.results(answer);
      if (held === null) break;
      for (const [id, text] of held) results.set(id, text);
    }
    if (calls.some((call) => !results.has(call.id))) return null;
    const text = read.text(message);
    steps.push({ ...(text.trim() === '' ? {} : { text }), calls: calls.map((call) => ({ ...call, result: results.get(call.id) ?? '' })) });
  }
  return steps;
}
