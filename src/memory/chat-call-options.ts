/**
 * What `session.chat()` passes on to the chat model besides the messages: tools, tool choice, sampling.
 * Checked here, so a bad value is a clear INVALID_INPUT before anything is sent.
 */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import type { ChatCallOptions, ChatTool, ToolChoice } from '../providers/chat-model/chat-model.js';

/** The model options of a chat turn, as the chat model takes them. */
export type ChatCall = Pick<ChatCallOptions, 'tools' | 'toolChoice' | 'temperature' | 'maxTokens'>;

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/u;

function invalid(message: string): StrataError {
  return new StrataError('INVALID_INPUT', message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkTool(tool: unknown, index: number): ChatTool {
  const label = `chat() tools[${index}]`;
  if (!isRecord(tool)) throw invalid(`${label} must be { name, description?, parameters? } (got ${describeValue(tool)}).`);
  const { name, description, parameters } = tool;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw invalid(`${label}.name must be 1–64 letters, digits, "_" or "-" (got ${describeValue(name)}).`);
  if (description !== undefined && typeof description !== 'string') throw invalid(`${label}.description must be text (got ${describeValue(description)}).`);
  if (parameters !== undefined && !isRecord(parameters)) throw invalid(`${label}.parameters must be a JSON Schema object (got ${describeValue(parameters)}).`);
  return { name, ...(description === undefined ? {} : { description }), ...(parameters === undefined ? {} : { parameters }) };
}

function checkToolChoice(value: unknown, tools: readonly ChatTool[]): ToolChoice {
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isRecord(value) && typeof value.name === 'string') {
    const { name } = value;
    if (!tools.some((tool) => tool.name === name)) throw invalid(`chat() toolChoice names "${name}", which is not one of its tools.`);
    return { name };
  }
  throw invalid(`chat() toolChoice must be "auto", "none", "required" or { name } of one of its tools (got ${describeValue(value)}).`);
}

/** Check the model options of `chat()`; absent ones stay absent (the endpoint's defaults). */
export function checkChatCall(options: Record<string, unknown>): ChatCall {
  const { tools, toolChoice, temperature, maxTokens } = options;
  if (tools !== undefined && !Array.isArray(tools)) throw invalid(`chat() tools must be a list of { name, description?, parameters? } (got ${describeValue(tools)}).`);
  const checkedTools = (tools ?? []).map((tool: unknown, index) => checkTool(tool, index));
  const names = new Set<string>();
  for (const tool of checkedTools) {
    if (names.has(tool.name)) throw invalid(`chat() tools name "${tool.name}" twice.`);
    names.add(tool.name);
  }
  if (toolChoice !== undefined && checkedTools.length === 0) throw invalid('chat() toolChoice needs tools to choose from; give tools, or leave toolChoice out.');
  if (temperature !== undefined && (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2)) {
    throw invalid(`chat() temperature must be a number from 0 to 2 (got ${describeValue(temperature)}).`);
  }
  if (maxTokens !== undefined && (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw invalid(`chat() maxTokens must be a whole number of at least 1 (got ${describeValue(maxTokens)}).`);
  }
  return {
    ...(checkedTools.length === 0 ? {} : { tools: checkedTools }),
    ...(toolChoice === undefined ? {} : { toolChoice: checkToolChoice(toolChoice, checkedTools) }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
}
