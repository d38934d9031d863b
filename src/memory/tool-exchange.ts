/**
 * A chat turn in progress while the model's tool calls are answered: the user's message, then each step
 * of calls with the results the app sent back. Kept in memory per session (bounded) until the model
 * answers in text, when the whole exchange is stored as one turn; nothing of it is stored before.
 */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { toolUseOf } from '../core/tool-calls.js';
import type { ChatMessage, ToolCall } from '../core/types.js';
import { checkContent, type CheckedMessage } from './message-input.js';
import { isToolName, toolCallBytes } from './tool-use-input.js';

/** The results of the tool calls a `chat()` returned, to continue its turn. */
export interface ChatContinuation {
  toolResults: Array<{ toolCallId: string; result: string }>;
}

/** One step: what the model said and called, and (once answered) each call's result and when it came. */
interface ToolStep {
  text: string;
  calls: ToolCall[];
  at: string;
  results: Map<string, string> | null;
  answeredAt: string | null;
}

export interface ToolExchange {
  /** The user's message, its id and time settled when the turn began. */
  question: CheckedMessage & { id: string };
  steps: ToolStep[];
}

/**
 * Exchanges waiting for tool results, one per session at most; the oldest goes past `limit` sessions.
 * A call that goes on with one claims it (a second call answering the same calls is refused), and changes
 * it only while it is still the session's waiting one: a new user message gives it up meanwhile.
 */
export class ToolExchanges {
  private readonly waiting = new Map<string, ToolExchange>();
  private readonly claimed = new WeakSet<ToolExchange>();

  constructor(private readonly limit = 1_000) {}

  get(sessionId: string): ToolExchange | undefined {
    return this.waiting.get(sessionId);
  }

  /** Claim the waiting exchange for the call that answers it; false when another call has. */
  claim(exchange: ToolExchange): boolean {
    if (this.claimed.has(exchange)) return false;
    this.claimed.add(exchange);
    return true;
  }

  /** Give a claim back (the call failed: the calls wait again). */
  release(exchange: ToolExchange): void {
    this.claimed.delete(exchange);
  }

  /**
   * Make `next` the session's waiting exchange in place of `current` (undefined: none was waiting when
   * the call began); false, changing nothing, when the session's waiting exchange is another by now.
   */
  replace(sessionId: string, current: ToolExchange | undefined, next: ToolExchange | undefined): boolean {
    if (this.waiting.get(sessionId) !== current) return false;
    this.waiting.delete(sessionId);
    if (next === undefined) return true;
    this.waiting.set(sessionId, next);
    const oldest = this.waiting.keys().next().value;
    if (this.waiting.size > this.limit && oldest !== undefined) this.waiting.delete(oldest);
    return true;
  }

  /** Give up the session's waiting exchange (a new user message came); returns whether there was one. */
  drop(sessionId: string): boolean {
    return this.waiting.delete(sessionId);
  }
}

/** A continuation's results checked against the calls waiting for them: each answered once, none unknown. */
export function answerCalls(exchange: ToolExchange | undefined, input: unknown, maxBytes: number, at: string): ToolExchange {
  const step = exchange?.steps[exchange.steps.length - 1];
  if (exchange === undefined || step === undefined || step.results !== null) {
    throw new StrataError('INVALID_INPUT', 'No tool calls of this session wait for results: start a turn with chat(message).');
  }
  const list = typeof input === 'object' && input !== null ? (input as { toolResults?: unknown }).toolResults : undefined;
  if (!Array.isArray(list)) throw new StrataError('INVALID_INPUT', `chat() takes the user's message, or { toolResults: [{ toolCallId, result }] } (got ${describeValue(input)}).`);
  const results = new Map<string, string>();
  list.forEach((entry: unknown, index) => {
    const { toolCallId, result } = (typeof entry === 'object' && entry !== null ? entry : {}) as { toolCallId?: unknown; result?: unknown };
    const label = `toolResults[${index}]`;
    if (typeof toolCallId !== 'string' || !step.calls.some((call) => call.id === toolCallId)) {
      throw new StrataError('INVALID_INPUT', `${label}.toolCallId ${describeValue(toolCallId)} is not one of the calls waiting: ${step.calls.map((call) => call.id).join(', ')}.`);
    }
    if (results.has(toolCallId)) throw new StrataError('INVALID_INPUT', `${label} answers "${toolCallId}" a second time.`);
    results.set(toolCallId, checkContent(result, `${label}.result`, maxBytes, { allowEmpty: true }));
  });
  const missing = step.calls.filter((call) => !results.has(call.id)).map((call) => call.id);
  if (missing.length > 0) throw new StrataError('INVALID_INPUT', `toolResults has no result for ${missing.map((id) => `"${id}"`).join(', ')}; answer every call of the step.`);
  return { question: exchange.question, steps: [...exchange.steps.slice(0, -1), { ...step, results, answeredAt: at }] };
}

/** The exchange with the model's new calls as its next step (checked: usable ids and names, none twice, within the size limit). */
export function withCalls(exchange: ToolExchange, text: string, calls: ToolCall[], at: string, maxBytes: number): ToolExchange {
  const ids = new Set<string>();
  for (const call of calls) {
    if (!isToolName(call.id) || !isToolName(call.name) || ids.has(call.id)) {
      throw new StrataError('MODEL_OUTPUT_INVALID', `The chat model called a tool with ${ids.has(call.id) ? `the id "${call.id}" twice` : `an unusable id or name (${describeValue(call.id)}, ${describeValue(call.name)})`}; nothing was stored.`);
    }
    ids.add(call.id);
  }
  checkContent(text, 'The tool-calling reply', maxBytes, { allowEmpty: true, extraBytes: toolCallBytes(calls) });
  return { question: exchange.question, steps: [...exchange.steps, { text, calls, at, results: null, answeredAt: null }] };
}

/** The exchange's messages so far, as they are stored: the user's message, then each step's call and its results. */
function exchangeSoFar(exchange: ToolExchange): CheckedMessage[] {
  const base = { speaker: null, externalId: null };
  const messages: CheckedMessage[] = [exchange.question];
  for (const step of exchange.steps) {
    messages.push({ ...base, role: 'assistant', content: step.text, createdAt: step.at, sentAt: step.at, toolCalls: step.calls });
    const answeredAt = step.answeredAt ?? step.at;
    for (const call of step.calls) messages.push({ ...base, role: 'tool', content: step.results?.get(call.id) ?? '', createdAt: answeredAt, sentAt: answeredAt, toolCallId: call.id });
  }
  return messages;
}

/** What the chat model is sent after the package: the exchange so far. */
export function exchangeMessages(exchange: ToolExchange): ChatMessage[] {
  return exchangeSoFar(exchange).map((message) => ({ role: message.role, content: message.content, ...toolUseOf(message) }));
}

/** The turn to store once the model has answered: the exchange so far, then the reply. */
export function exchangeTurn(exchange: ToolExchange, reply: CheckedMessage): CheckedMessage[] {
  return [...exchangeSoFar(exchange), reply];
}
