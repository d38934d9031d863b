/**
 * Tool calls and tool results coming in: from `record()` (camelCase, `arguments` as text or an object)
 * and from OpenAI-style files (`tool_calls` of `{ id, type: 'function', function: { name, arguments } }`,
 * `tool_call_id`). Checked one by one here; how they pair within a turn is `toolPairingProblem`'s.
 */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { loneSurrogateIndex } from '../core/text.js';
import type { Role, ToolCall } from '../core/types.js';
import { checkContent, type CheckedMessage } from './message-input.js';

/** A tool call as `record()` takes it: `arguments` as the model wrote them, or as an object (stored as its JSON). */
export interface ToolCallInput {
  id: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** Longest call id and tool name taken (providers use ids of some 30 characters, names of at most 64). */
const MAX_NAME_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a call id or tool name is usable: non-empty text on one line, at most 200 characters, well encoded. */
export function isToolName(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_NAME_LENGTH && !/[\r\n]/u.test(value) && loneSurrogateIndex(value) < 0;
}

/** A call id or tool name: non-empty text without line breaks, at most 200 characters. */
export function checkToolName(value: unknown, label: string, code: 'INVALID_INPUT' | 'IMPORT_INVALID' = 'INVALID_INPUT'): string {
  if (!isToolName(value)) {
    throw new StrataError(code, `${label} must be non-empty text of at most ${MAX_NAME_LENGTH} characters on one line (got ${describeValue(value)}).`);
  }
  return value;
}

/** The arguments of a call as text: a string as it is, an object as its JSON. */
function argumentsText(value: unknown, label: string, code: 'INVALID_INPUT' | 'IMPORT_INVALID'): string {
  if (typeof value === 'string') {
    if (loneSurrogateIndex(value) >= 0) throw new StrataError(code, `${label} contains a lone UTF-16 surrogate (broken text encoding).`);
    return value;
  }
  if (isRecord(value)) {
    let text: unknown;
    try {
      text = JSON.stringify(value);
    } catch (error) {
      throw new StrataError(code, `${label} cannot be written as JSON (${error instanceof Error ? error.message : String(error)}); pass the arguments as text.`);
    }
    // (A toJSON may answer undefined, or text with a broken character.)
    if (typeof text !== 'string') throw new StrataError(code, `${label} cannot be written as JSON (it writes nothing); pass the arguments as text.`);
    return argumentsText(text, label, code);
  }
  throw new StrataError(code, `${label} must be the arguments as JSON text or an object (got ${describeValue(value)}).`);
}

/** Check `record()`'s tool calls of one step (`label` names the list). */
export function checkToolCalls(value: unknown, label: string): ToolCall[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new StrataError('INVALID_INPUT', `${label} must be a non-empty list of { id, name, arguments, result } (got ${describeValue(value)}); leave the step out when no tool was called.`);
  }
  return value.map((call: unknown, index) => {
    const at = `${label}[${index}]`;
    if (!isRecord(call)) throw new StrataError('INVALID_INPUT', `${at} must be { id, name, arguments } (got ${describeValue(call)}).`);
    return { id: checkToolName(call.id, `${at}.id`), name: checkToolName(call.name, `${at}.name`), arguments: argumentsText(call.arguments ?? '', `${at}.arguments`, 'INVALID_INPUT') };
  });
}

/** Read the `tool_calls` of an OpenAI-style assistant message (each `{ id, function: { name, arguments } }`). */
export function openAiToolCalls(value: unknown, label: string): ToolCall[] {
  if (!Array.isArray(value)) throw new StrataError('IMPORT_INVALID', `${label}.tool_calls must be a list (got ${describeValue(value)}).`);
  return value.map((call: unknown, index) => {
    const at = `${label}.tool_calls[${index}]`;
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(call) || !isRecord(fn)) {
      throw new StrataError('IMPORT_INVALID', `${at} must be { "id", "type": "function", "function": { "name", "arguments" } } (got ${describeValue(call)}).`);
    }
    return {
      id: checkToolName(call.id, `${at}.id`, 'IMPORT_INVALID'),
      name: checkToolName(fn.name, `${at}.function.name`, 'IMPORT_INVALID'),
      arguments: argumentsText(fn.arguments ?? '', `${at}.function.arguments`, 'IMPORT_INVALID'),
    };
  });
}

/**
 * The tool use of an OpenAI-style message: an assistant's calls, or the call a tool result answers.
 * Null or empty fields (some exports write them on every message) mean none; a call on another role's
 * message, or a call id on a message that is not a result, is refused.
 */
export function openAiToolUse(message: { role: Role; tool_calls?: unknown; tool_call_id?: unknown }, label: string): { toolCalls?: ToolCall[]; toolCallId?: string } {
  const { role } = message;
  if (role === 'tool') return { toolCallId: checkToolName(message.tool_call_id, `${label}.tool_call_id`, 'IMPORT_INVALID') };
  if (typeof message.tool_call_id === 'string') {
    throw new StrataError('IMPORT_INVALID', `${label} is ${role === 'assistant' ? 'an' : 'a'} ${role} message with a tool_call_id; only tool messages answer calls.`);
  }
  if (role !== 'assistant') {
    if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) throw new StrataError('IMPORT_INVALID', `${label} is a ${role} message with tool_calls; only assistant messages call tools.`);
    return {};
  }
  const calls = message.tool_calls === undefined || message.tool_calls === null ? [] : openAiToolCalls(message.tool_calls, label);
  return calls.length === 0 ? {} : { toolCalls: calls };
}

/** Bytes a message's tool calls add to its size, for the message size limit. */
export function toolCallBytes(calls: readonly ToolCall[] | undefined): number {
  let bytes = 0;
  for (const call of calls ?? []) bytes += Buffer.byteLength(call.id, 'utf8') + Buffer.byteLength(call.name, 'utf8') + Buffer.byteLength(call.arguments, 'utf8');
  return bytes;
}

/** One step of an agent's tool use in a turn: the calls an assistant message made, each with its result. */
export interface ToolStepInput {
  /** What the assistant said along with its calls (default: nothing). */
  text?: string;
  /** The calls, in order, each with what the tool returned (text; JSON as text). */
  calls: Array<ToolCallInput & { result: string }>;
}

/**
 * `record()`'s tool steps as the messages they are stored as: per step, an assistant message with its
 * calls, then one `tool` message per call holding its result.
 */
export function checkToolSteps(value: unknown, createdAt: string, maxBytes: number): CheckedMessage[] {
  if (!Array.isArray(value)) throw new StrataError('INVALID_INPUT', `record()'s tools must be a list of { text?, calls: [{ id, name, arguments, result }] } (got ${describeValue(value)}).`);
  const checked: CheckedMessage[] = [];
  value.forEach((step: unknown, index) => {
    const label = `tools[${index}]`;
    if (!isRecord(step)) throw new StrataError('INVALID_INPUT', `${label} must be { text?, calls } (got ${describeValue(step)}).`);
    const calls = checkToolCalls(step.calls, `${label}.calls`);
    const content = checkContent(step.text ?? '', `${label}.text`, maxBytes, { allowEmpty: true, extraBytes: toolCallBytes(calls) });
    const base = { speaker: null, externalId: null, createdAt, sentAt: createdAt };
    checked.push({ ...base, role: 'assistant', content, toolCalls: calls });
    (step.calls as unknown[]).forEach((call, callIndex) => {
      const result = isRecord(call) ? call.result : undefined;
      const callId = calls[callIndex]?.id ?? '';
      checked.push({ ...base, role: 'tool', content: checkContent(result, `${label}.calls[${callIndex}].result`, maxBytes, { allowEmpty: true }), toolCallId: callId });
    });
  });
  return checked;
}

/** How `record()`'s errors name one of the turn's messages. */
export function describeChecked(messages: readonly CheckedMessage[], index: number): string {
  const message = messages[index];
  if (message === undefined) return 'the turn';
  if (message.role === 'tool') return `the result of tool call "${message.toolCallId ?? ''}"`;
  return message.toolCalls === undefined ? `the ${message.role} message` : `the tool step calling ${message.toolCalls.map((call) => `"${call.id}"`).join(', ')}`;
}
