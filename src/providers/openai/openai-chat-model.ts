import type { ChatModel, ChatStreamEvent, GenerateOptions, GenerateResult, StreamOptions } from '../chat-model/chat-model.js';
import { completeChat } from './chat-completion.js';
import { streamChat } from './chat-stream.js';
import { startDeadline } from './deadline.js';
import { startJsonSchemaFallback } from './json-schema-fallback.js';
import { callContext } from './model-errors.js';
import { connectOpenAi, type OpenAiConnectionSettings } from './openai-connection.js';
import type { StructuredOutputMode } from './structured-output.js';

export interface OpenAiChatModelSettings extends OpenAiConnectionSettings {
  /**
   * How JSON replies are requested (default `auto`: JSON schema, falling back for good to JSON
   * instructions in a system message once the endpoint says it does not support JSON schema).
   */
  structuredOutput?: StructuredOutputMode;
  /** Ask streams to report token usage with `stream_options.include_usage` (default true). */
  streamUsage?: boolean;
}

/** A chat model behind any OpenAI-compatible `/chat/completions` endpoint. */
export function createOpenAiChatModel(settings: OpenAiChatModelSettings): ChatModel {
  const connection = connectOpenAi(settings);
  const fallback = startJsonSchemaFallback(settings.structuredOutput ?? 'auto');
  const streamUsage = settings.streamUsage ?? true;
  return {
    model: connection.model,
    async generate(options: GenerateOptions): Promise<GenerateResult> {
      const timeoutMs = options.timeoutMs ?? connection.timeoutMs;
      const deadline = startDeadline(timeoutMs, options.signal);
      try {
        return await completeChat(connection, fallback, options, callContext(connection, 'chat completion', deadline, timeoutMs));
      } finally {
        deadline.dispose();
      }
    },
    stream(options: StreamOptions): AsyncIterable<ChatStreamEvent> {
      return { [Symbol.asyncIterator]: () => streamChat(connection, options, streamUsage) };
    },
  };
}
