/**
 * The Vercel AI SDK's prompt (language model v3) and Strata's messages, both ways: a context package
 * rendered as the SDK's prompt messages, and the SDK's exchange in progress read as a turn to record
 * (the user's text, the tool steps with their results, the reply). Types only from `ai`: it stays an
 * optional peer dependency.
 */
import type { LanguageModelMiddleware } from 'ai';
import { splitAtLastUser, toolStepsOf, userSegments, type ToolUseReader } from '../core/exchange.js';
import type { ChatMessage, ToolCall } from '../core/types.js';
import type { RecordInput } from '../memory/memory-api.js';

/** The call options the middleware sees, and their prompt. */
export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
export type Prompt = CallOptions['prompt'];
export type PromptMessage = Prompt[number];
type AssistantPart = Extract<PromptMessage, { role: 'assistant' }>['content'][number];
type ToolPart = Extract<PromptMessage, { role: 'tool' }>['content'][number];
type ToolOutput = Extract<ToolPart, { type: 'tool-result' }>['output'];

/** The text parts of a message, joined; a file it carries is named in brackets after them (its content is not kept). */
export function textOf(message: PromptMessage): string {
  if (message.role === 'system') return message.content;
  const parts = message.content as ReadonlyArray<{ type: string; text?: string; filename?: string; mediaType?: string }>;
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text ?? ''] : [])).join('');
  const files = parts.flatMap((part) => (part.type === 'file' ? [`[file ${part.filename ?? part.mediaType ?? ''}]`] : []));
  return files.length === 0 ? text : [text, files.join(' ')].filter((piece) => piece !== '').join('\n');
}

/** A tool's output as the text Strata stores. */
function outputText(output: ToolOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value) ?? '';
    case 'execution-denied':
      return `execution denied${output.reason === undefined ? '' : `: ${output.reason}`}`;
    default:
      return output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
  }
}

/** Arguments as stored: the model's JSON text (the SDK hands them parsed). */
function argumentsText(input: unknown): string {
  return typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
}

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A package's rendering as the SDK's prompt messages (a tool result names its tool, from its call). */
export function toPromptMessages(messages: readonly ChatMessage[]): PromptMessage[] {
  const names = new Map<string, string>();
  return messages.map((message): PromptMessage => {
    if (message.role === 'system') return { role: 'system', content: message.content };
    if (message.role === 'user') return { role: 'user', content: [{ type: 'text', text: message.content }] };
    if (message.role === 'tool') {
      const toolCallId = message.toolCallId ?? '';
      return { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: names.get(toolCallId) ?? 'tool', output: { type: 'text', value: message.content } }] };
    }
    const parts: AssistantPart[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
    for (const call of message.toolCalls ?? []) {
      names.set(call.id, call.name);
      parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: parsedArguments(call.arguments) });
    }
    return { role: 'assistant', content: parts };
  });
}

/** Prompt messages as Strata's chat messages (to count them as a package's are counted). */
export function toChatMessages(messages: readonly PromptMessage[]): ChatMessage[] {
  return messages.flatMap((message): ChatMessage[] => {
    if (message.role === 'tool') {
      return message.content.flatMap((part) => (part.type === 'tool-result' ? [{ role: 'tool' as const, content: outputText(part.output), toolCallId: part.toolCallId }] : []));
    }
    const calls = callsOf(message);
    return [{ role: message.role, content: textOf(message), ...(calls.length === 0 ? {} : { toolCalls: calls }) }];
  });
}

/** The calls of an assistant message of the prompt. */
function callsOf(message: PromptMessage): ToolCall[] {
  if (message.role !== 'assistant') return [];
  return message.content.flatMap((part) => (part.type === 'tool-call' ? [{ id: part.toolCallId, name: part.toolName, arguments: argumentsText(part.input) }] : []));
}

/** How the middleware reads the SDK's tool use. */
const PROMPT_TOOL_USE: ToolUseReader<PromptMessage> = {
  calls: callsOf,
  results: (message) => (message.role !== 'tool' ? null : message.content.flatMap((part): Array<[string, string]> => (part.type === 'tool-result' ? [[part.toolCallId, outputText(part.output)]] : []))),
  text: textOf,
};

/** The prompt split as the middleware uses it: system messages, the history before the last user message, the exchange from it on. */
export function splitPrompt(prompt: Prompt): { system: PromptMessage[]; history: PromptMessage[]; exchange: PromptMessage[] } {
  return { system: prompt.filter((message) => message.role === 'system'), ...splitAtLastUser(prompt.filter((message) => message.role !== 'system')) };
}

/** The turns of a history, to record for a session that has none yet: each user message, its tool steps, the reply. */
export function historyTurns(history: readonly PromptMessage[]): RecordInput[] {
  return userSegments(history).flatMap((segment) => turnOf(segment, null) ?? []);
}

/**
 * A turn to record from an exchange (a user message, tool steps, replies) and the model's final reply
 * (`reply`; null when the exchange holds it). Null when it has nothing to record.
 */
export function turnOf(exchange: readonly PromptMessage[], reply: string | null): RecordInput | null {
  const user = exchange.find((message) => message.role === 'user');
  const userText = user === undefined ? '' : textOf(user);
  const lastAssistant = [...exchange].reverse().find((message) => message.role === 'assistant' && callsOf(message).length === 0);
  const assistantText = reply ?? (lastAssistant === undefined ? '' : textOf(lastAssistant));
  const steps = toolStepsOf(exchange, PROMPT_TOOL_USE) ?? [];
  if (userText.trim() === '' && assistantText.trim() === '') return null;
  return {
    ...(userText.trim() === '' ? {} : { user: userText }),
    ...(steps.length === 0 ? {} : { tools: steps }),
    ...(assistantText.trim() === '' ? {} : { assistant: assistantText }),
  };
}
