/**
 * A chat model double for tests: it answers each call with the next reply of a script, in process, and
 * records what it was sent. Replies stream word by word. A reply that is an `Error` is thrown, so a test
 * can see how an app handles a failing model; a call past the end of the script fails with MODEL_FAILURE.
 */
import { StrataError } from '../core/errors.js';
import type { ChatMessage, ToolCall } from '../core/types.js';
import type { ChatModel, ChatStreamEvent, ChatTool, ChatUsage, FinishReason, GenerateOptions, GenerateResult, StreamOptions, ToolChoice } from '../providers/chat-model/chat-model.js';

/** One scripted answer: its text, or the text with how it finished and the tools it calls, or an error to throw. */
export type ScriptedReply = string | { text: string; finishReason?: FinishReason; toolCalls?: ToolCall[] } | Error;

/** A call the double received. */
export interface ScriptedCall {
  kind: 'generate' | 'stream';
  /** Its 0-based position among all calls. */
  index: number;
  messages: ChatMessage[];
  /** The tools, tool choice and sampling it was given, when given. */
  tools?: ChatTool[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
}

export interface ScriptedChatModel extends ChatModel {
  /** Every call so far, in order. */
  readonly calls: readonly ScriptedCall[];
}

export interface ScriptedChatModelOptions {
  /** The model name it reports (default `scripted`). */
  model?: string;
}

/** Tokens as the double counts them: words, a rough stand-in for a tokenizer's count. */
function words(text: string): number {
  return text.split(/\s+/u).filter((word) => word !== '').length;
}

/**
 * A chat model that answers from `replies`, in order, or from a function of each call.
 *
 * @example
 * const model = createScriptedChatModel(['Noted: the budget is $82,000.']);
 * const memory = createMemory({ path: ':memory:', chatModel: model });
 * const session = await memory.sessions.create();
 * await session.chat('The budget got cut to $82,000.');
 */
export function createScriptedChatModel(replies: readonly ScriptedReply[] | ((call: ScriptedCall) => ScriptedReply), options: ScriptedChatModelOptions = {}): ScriptedChatModel {
  const model = options.model ?? 'scripted';
  const calls: ScriptedCall[] = [];
  const answer = (kind: ScriptedCall['kind'], call: StreamOptions): { text: string; finishReason: FinishReason; usage: ChatUsage; toolCalls: ToolCall[] } => {
    if (call.signal?.aborted === true) throw new StrataError('MODEL_ABORTED', 'The scripted chat model was called with an aborted signal.');
    const recorded: ScriptedCall = {
      kind,
      index: calls.length,
      messages: call.messages.map((message) => ({ ...message })),
      ...(call.tools === undefined ? {} : { tools: call.tools.map((tool) => ({ ...tool })) }),
      ...(call.toolChoice === undefined ? {} : { toolChoice: call.toolChoice }),
      ...(call.temperature === undefined ? {} : { temperature: call.temperature }),
      ...(call.maxTokens === undefined ? {} : { maxTokens: call.maxTokens }),
    };
    calls.push(recorded);
    const reply = typeof replies === 'function' ? replies(recorded) : replies[recorded.index];
    if (reply === undefined) {
      throw new StrataError('MODEL_FAILURE', `The scripted chat model has no reply for call ${recorded.index + 1}: its script holds ${calls.length - 1}. Add replies to the script.`);
    }
    if (reply instanceof Error) throw reply;
    const text = typeof reply === 'string' ? reply : reply.text;
    const toolCalls = typeof reply === 'string' ? [] : (reply.toolCalls ?? []).map((toolCall) => ({ ...toolCall }));
    const finishReason = typeof reply === 'string' ? 'stop' : (reply.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'));
    const prompt = call.messages.reduce((sum, message) => sum + words(message.content), 0);
    return { text, finishReason, usage: { promptTokens: prompt, completionTokens: words(text) }, toolCalls };
  };
  return {
    model,
    calls,
    generate: async (generateOptions: GenerateOptions): Promise<GenerateResult> => {
      const { text, finishReason, usage, toolCalls } = answer('generate', generateOptions);
      return { text, usage, model, finishReason, toolCalls };
    },
    stream: (streamOptions: StreamOptions): AsyncIterable<ChatStreamEvent> => ({
      async *[Symbol.asyncIterator]() {
        const { text, finishReason, usage, toolCalls } = answer('stream', streamOptions);
        for (const piece of text.match(/\S+\s*|\s+/gu) ?? []) {
          if (streamOptions.signal?.aborted === true) throw new StrataError('MODEL_ABORTED', 'The scripted reply was aborted while streaming.');
          yield { type: 'delta', text: piece };
        }
        yield { type: 'done', text, usage, model, finishReason, toolCalls };
      },
    }),
  };
}
