/**
 * What the local manager keeps of an agent's tool use: which tools were called with what, and what came
 * back, as short tiers. Tool traffic is not read for facts (a tool's output is data, not something the
 * user established); the assistant's own words about it are, like any reply.
 */
import { describeToolCall } from '../../core/tool-calls.js';
import { limitWords } from '../../core/text.js';
import type { ToolCall } from '../../core/types.js';
import type { MessageMemory, TurnMessageInput } from '../memory-manager.js';

/** Words of a tool's result kept at tier 2 and tier 1, and of a call's arguments at tier 2. */
const RESULT_WORDS = { tier2: 40, tier1: 12 };
const ARGUMENT_WORDS = 30;

/** Whether the message is tool traffic only: a result, or a call with no words of the assistant's around it. */
export function isToolTraffic(message: TurnMessageInput): boolean {
  return message.role === 'tool' || (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0 && message.content.trim() === '');
}

function callTier2(call: ToolCall): string {
  return describeToolCall({ ...call, arguments: limitWords(call.arguments, ARGUMENT_WORDS) });
}

/** The tool a result answers: its call in the nearest calling message before it ('tool' when not found). */
function toolName(result: TurnMessageInput, turn: readonly TurnMessageInput[]): string {
  for (let index = turn.indexOf(result) - 1; index >= 0; index -= 1) {
    const calls = turn[index]?.toolCalls;
    if (calls !== undefined) return calls.find((call) => call.id === result.toolCallId)?.name ?? 'tool';
  }
  return 'tool';
}

/** Tiers of a tool call or a tool result (`turn`: the turn's messages, to name a result's tool). */
export function toolTrafficMemory(message: TurnMessageInput, turn: readonly TurnMessageInput[]): MessageMemory {
  if (message.role === 'tool') {
    const name = toolName(message, turn);
    return {
      messageId: message.id,
      tier1: `${name} = ${limitWords(message.content, RESULT_WORDS.tier1)}`,
      tier2: `${name} returned: ${limitWords(message.content, RESULT_WORDS.tier2)}`,
      requiredTier: 2,
    };
  }
  return withCalls({ messageId: message.id, tier1: '', tier2: '', requiredTier: 2 }, message.toolCalls ?? []);
}

/** A message's tiers with its tool calls added (an assistant message that spoke and called tools). */
export function withCalls(memory: MessageMemory, calls: readonly ToolCall[]): MessageMemory {
  if (calls.length === 0) return memory;
  const names = `called ${calls.map((call) => call.name).join(', ')}`;
  const described = `called ${calls.map(callTier2).join('; ')}`;
  return {
    ...memory,
    tier1: memory.tier1 === '' ? names : `${memory.tier1}; ${names}`,
    tier2: memory.tier2 === '' ? described : `${memory.tier2} (${described})`,
  };
}

/** The tools the turn called, for its assistant summary ("Called get_weather, book_flight."), or ''. */
export function calledTools(turn: readonly TurnMessageInput[]): string {
  const names = [...new Set(turn.flatMap((message) => (message.toolCalls ?? []).map((call) => call.name)))];
  return names.length === 0 ? '' : `Called ${names.join(', ')}.`;
}
