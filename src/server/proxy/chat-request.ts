/**
 * An OpenAI chat request as the proxy reads it: every field is kept and passed on, and its messages are
 * split into the client's own system messages, the earlier history (which the context package replaces)
 * and the exchange in progress, from the last user message on, which is sent as it is so a tool call is
 * never separated from its results.
 */
import { z } from '@hono/zod-openapi';
import { splitAtLastUser, toolStepsOf, userSegments, type ToolUseReader } from '../../core/exchange.js';
import { openAiToolCalls, type ToolStepInput } from '../../memory/tool-use-input.js';

const MessageSchema = z.looseObject({
  role: z.string({ error: 'each message needs a role' }),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
});

export const ChatBodySchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(MessageSchema, { error: 'messages must be a list of chat messages' }).min(1, { error: 'messages must hold at least one message' }),
  stream: z.boolean().optional(),
  user: z.string().optional(),
});

export type ChatBody = z.infer<typeof ChatBodySchema>;
export type ChatBodyMessage = ChatBody['messages'][number];

export interface SplitMessages {
  /** The client's system and developer messages, in order: they stay first. */
  system: ChatBodyMessage[];
  /** Messages before the exchange in progress. */
  history: ChatBodyMessage[];
  /** From the last user message to the end. */
  current: ChatBodyMessage[];
  /** The text of the last user message ('' when there is none). */
  userText: string;
}

/** The text of a message's content: a string, or the text parts of a list of parts. */
export function textOf(message: ChatBodyMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text' ? String((part as { text?: unknown }).text ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n');
}

export function splitMessages(messages: readonly ChatBodyMessage[]): SplitMessages {
  const system = messages.filter((message) => message.role === 'system' || message.role === 'developer');
  const { history, exchange } = splitAtLastUser(messages.filter((message) => message.role !== 'system' && message.role !== 'developer'));
  const user = exchange[0]?.role === 'user' ? exchange[0] : undefined;
  return { system, history, current: exchange, userText: user === undefined ? '' : textOf(user) };
}

/** The turns of a history, for a new session: each user message with its tool steps and reply (empty messages left out). */
export function historyTurns(history: readonly ChatBodyMessage[]): Array<{ user?: string; tools?: ToolStepInput[]; assistant?: string }> {
  const turns: Array<{ user?: string; tools?: ToolStepInput[]; assistant?: string }> = [];
  for (const segment of userSegments(history)) {
    const user = segment[0]?.role === 'user' ? textOf(segment[0]) : '';
    const texts = segment.filter((message) => message.role === 'assistant' && !callsTools(message)).map(textOf).filter((text) => text.trim() !== '');
    const tools = toolSteps(segment);
    const turn = {
      ...(user.trim() === '' ? {} : { user }),
      ...(tools.length === 0 ? {} : { tools }),
      ...(texts[0] === undefined ? {} : { assistant: texts[0] }),
    };
    if (turn.user !== undefined || turn.assistant !== undefined) turns.push(turn);
    // (Further replies of the same user message are turns of their own, as the client sent them.)
    for (const text of texts.slice(1)) turns.push({ assistant: text });
  }
  return turns;
}

function callsTools(message: ChatBodyMessage): boolean {
  return message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
}

/** How the proxy reads an OpenAI message's tool use. */
const OPENAI_TOOL_USE: ToolUseReader<ChatBodyMessage> = {
  calls: (message) => (callsTools(message) ? openAiToolCalls(message.tool_calls, 'the exchange') : []),
  results: (message) => (message.role !== 'tool' ? null : typeof message.tool_call_id === 'string' ? [[message.tool_call_id, textOf(message)]] : []),
  text: textOf,
};

/**
 * The tool steps of the exchange in progress (after its user message): each assistant message that
 * called tools, with each call's result from the tool messages right after it. Empty when the exchange
 * used no tools, or when its calls and results do not pair up (the turn is then kept as text only).
 */
export function toolSteps(current: readonly ChatBodyMessage[]): ToolStepInput[] {
  try {
    return toolStepsOf(current, OPENAI_TOOL_USE) ?? [];
  } catch {
    // (A malformed call.)
    return [];
  }
}
