import { messageText } from '../../core/tool-calls.js';
import type { Tokenizer } from '../../providers/tokenizer/tokenizer.js';
import type { TurnMessageInput } from '../memory-manager.js';
import { splitText } from './chunk-text.js';
import type { PromptMessage } from './prompts/summarize-turn-prompt.js';

/** Tokens a message costs in the prompt besides its content (its id, role, limits and JSON punctuation). */
export const MESSAGE_OVERHEAD_TOKENS = 40;

/**
 * The calls that summarise a turn: usually one with every message; when the messages do not fit in
 * `contentTokens`, messages longer than that are split into parts, and the parts and short messages are
 * packed in order into as few calls as fit. A call never holds two parts of one message.
 */
export function planCalls(messages: readonly TurnMessageInput[], contentTokens: number, tokenizer: Tokenizer): PromptMessage[][] {
  const fragments: Array<{ message: PromptMessage; tokens: number }> = [];
  for (const message of messages) {
    const base = {
      id: message.id,
      role: message.role,
      speaker: message.speaker,
      sentAt: message.sentAt,
      ...(message.toolCalls === undefined ? {} : { toolCallIds: message.toolCalls.map((call) => call.id) }),
      ...(message.toolCallId === undefined ? {} : { toolCallId: message.toolCallId }),
    };
    // A message that called tools shows its calls ("called name(arguments)").
    const text = messageText(message);
    const tokens = tokenizer.count(text) + MESSAGE_OVERHEAD_TOKENS;
    if (tokens <= contentTokens) {
      fragments.push({ message: { ...base, content: text }, tokens });
      continue;
    }
    const chunks = splitText(text, contentTokens - MESSAGE_OVERHEAD_TOKENS, tokenizer);
    for (const [index, chunk] of chunks.entries()) {
      const content = chunk.trim();
      fragments.push({
        message: { ...base, content, part: { index: index + 1, count: chunks.length } },
        tokens: tokenizer.count(content) + MESSAGE_OVERHEAD_TOKENS,
      });
    }
  }
  const calls: PromptMessage[][] = [];
  let current: PromptMessage[] = [];
  let used = 0;
  for (const fragment of fragments) {
    // One call shows each message once: two parts of a message never share a call.
    const full = used + fragment.tokens > contentTokens || current.some((message) => message.id === fragment.message.id);
    if (current.length > 0 && full) {
      calls.push(current);
      current = [];
      used = 0;
    }
    current.push(fragment.message);
    used += fragment.tokens;
  }
  if (current.length > 0) calls.push(current);
  return calls;
}
