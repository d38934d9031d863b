import type { ChatMessage } from '../../core/types.js';

export type TokenizerName = 'o200k_base' | 'cl100k_base';

/**
 * Counts tokens the way the chat model will. Synchronous on purpose: counting is pure CPU work
 * done thousands of times while packing a context.
 */
export interface Tokenizer {
  readonly name: TokenizerName;
  /**
   * Tokens of a plain text. Special-token strings in the text are counted as ordinary text. Never fewer
   * than the text's runs of non-space characters (the encodings never join two in one token): the
   * assembler relies on it to skip, uncounted, lines that cannot fit.
   */
  count(text: string): number;
  /**
   * Optional: `count(text)` worked out a slice at a time, yielding between slices of a few
   * milliseconds' work, so that counting a long pasted message need not hold the event loop. The engine
   * uses it for long messages when it is given, and `count` otherwise.
   */
  countingInSlices?(text: string): Generator<void, number, void>;
  /** Tokens of rendered chat messages, including the chat format's per-message overhead. */
  countMessages(messages: readonly ChatMessage[]): number;
  /** The longest prefix of `text` that has at most `maxTokens` tokens. */
  truncate(text: string, maxTokens: number): string;
}

/**
 * Chat-format overhead, as the OpenAI chat format counts it: every message costs 3 tokens
 * plus its role and content, and the reply is primed with 3 more.
 */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_REPLY = 3;

/**
 * Framing of one tool call in the chat format (its type and the separators around its name and
 * arguments). Providers do not publish how they count calls; with the call's id counted too, the
 * figure errs on the side of more tokens, so a package counted this way stays within its budget.
 */
export const TOKENS_PER_TOOL_CALL = 3;

/** Tokens a message's tool use adds to its role and content: each call's id, name, arguments and framing, a result's call id. */
export function toolUseTokens(message: Pick<ChatMessage, 'toolCalls' | 'toolCallId'>, count: (text: string) => number): number {
  const { texts, framing } = toolUseParts(message);
  let total = framing;
  for (const text of texts) total += count(text);
  return total;
}

/** What `toolUseTokens` counts of a message: the texts (a result's call id; each call's id, name and arguments) and the framing tokens besides. */
export function toolUseParts(message: Pick<ChatMessage, 'toolCalls' | 'toolCallId'>): { texts: string[]; framing: number } {
  const texts = message.toolCallId === undefined ? [] : [message.toolCallId];
  const calls = message.toolCalls ?? [];
  for (const call of calls) texts.push(call.id, call.name, call.arguments);
  return { texts, framing: TOKENS_PER_TOOL_CALL * calls.length };
}
