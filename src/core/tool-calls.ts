/**
 * Tool use inside a turn: an assistant message that calls tools, then one `tool` message answering each
 * call. A conversation is stored, packed and sent with every call next to its result, so the rules are
 * checked wherever messages come in (a live turn, an import, an export read back).
 */
import type { Role, ToolCall } from './types.js';

/** What the pairing rules look at in a message. */
export interface ToolUse {
  role: Role;
  toolCalls?: readonly ToolCall[];
  toolCallId?: string;
}

/**
 * Why a turn's messages break the pairing rules, or null when they keep them: each `tool` message
 * answers a call of the assistant message it follows (only other answers between them), every call
 * is answered exactly once before the next user or assistant message, and no call id repeats within
 * one assistant message (a later step may use an id again: results pair by position, as they are
 * sent). `label(index)` names a message in the answer.
 */
export function toolPairingProblem(messages: readonly ToolUse[], label: (index: number) => string): string | null {
  /** Calls of the latest calling assistant message not answered yet (id → its index), while its answers may follow. */
  let open: Map<string, number> | null = null;
  const unanswered = (before: string): string | null => {
    const first = open?.entries().next().value;
    return first === undefined ? null : `${label(first[1])} calls a tool ("${first[0]}") that no tool message answers${before}; add its result right after the call.`;
  };
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      const id = message.toolCallId ?? '';
      if (open === null) return `${label(index)} is a tool result with no assistant tool call right before it; put it after the assistant message that called "${id}".`;
      if (!open.delete(id)) return `${label(index)} answers tool call "${id}", which the assistant message before it did not make (or which is already answered).`;
      continue;
    }
    const problem = unanswered(` before ${label(index)}`);
    if (problem !== null) return problem;
    open = null;
    if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) continue;
    open = new Map();
    for (const call of message.toolCalls) {
      if (open.has(call.id)) return `${label(index)} repeats the tool call id "${call.id}"; each call of a message needs its own id.`;
      open.set(call.id, index);
    }
  }
  return unanswered('');
}

/** A call as one line of text: `name(arguments)`. */
export function describeToolCall(call: ToolCall): string {
  return `${call.name}(${call.arguments})`;
}

/**
 * A message as plain text, for lines of the package's memory, the archive's search and Markdown: its
 * content, then the tools it called.
 */
export function messageText(message: { content: string; toolCalls?: readonly ToolCall[] }): string {
  const calls = message.toolCalls;
  if (calls === undefined || calls.length === 0) return message.content;
  const described = `called ${calls.map(describeToolCall).join('; ')}`;
  return message.content.trim() === '' ? described : `${message.content}\n${described}`;
}

/** A message's role as a heading shows it: a tool result names the call it answers ("tool answering call_1"). */
export function roleLabel(message: { role: string; toolCallId?: string }): string {
  return message.toolCallId === undefined ? message.role : `${message.role} answering ${message.toolCallId}`;
}

/** A message's tool use as its own fields, copied: present only when it has some (plain messages stay as they were). */
export function toolUseOf(message: { toolCalls?: readonly ToolCall[]; toolCallId?: string }): { toolCalls?: ToolCall[]; toolCallId?: string } {
  const use: { toolCalls?: ToolCall[]; toolCallId?: string } = {};
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) use.toolCalls = message.toolCalls.map((call) => ({ ...call }));
  if (message.toolCallId !== undefined) use.toolCallId = message.toolCallId;
  return use;
}
