/**
 * Strata's chat messages in the OpenAI chat format, for any OpenAI-compatible client: tool calls as
 * function calls, results with their call id. (Its own types, so the core needs no client library.)
 */
import type { ChatMessage } from './types.js';

/** A message as the OpenAI chat API takes it. */
export type OpenAiChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; content: string; tool_call_id: string };

/** One message in the OpenAI format. */
export function toOpenAiMessage(message: ChatMessage): OpenAiChatMessage {
  if (message.role === 'tool') return { role: 'tool', content: message.content, tool_call_id: message.toolCallId ?? '' };
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    return {
      role: 'assistant',
      // Some endpoints refuse an empty text beside tool calls; null is what the API itself sends.
      content: message.content === '' ? null : message.content,
      tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    };
  }
  return message.role === 'assistant' ? { role: 'assistant', content: message.content } : { role: message.role, content: message.content };
}

/**
 * Messages (a package's `render()`) in the OpenAI format.
 *
 * @example
 * const messages = toOpenAiMessages(pkg.render());   // for openai.chat.completions.create({ model, messages })
 */
export function toOpenAiMessages(messages: readonly ChatMessage[]): OpenAiChatMessage[] {
  return messages.map(toOpenAiMessage);
}
