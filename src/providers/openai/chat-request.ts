import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ChatCallOptions, GenerateOptions, StreamOptions } from '../chat-model/chat-model.js';
import { toOpenAiMessages } from '../../core/openai-messages.js';
import { structuredRequest, type StructuredOutputMode } from './structured-output.js';

/** Request fields shared by `generate` and `stream`; left out when the caller leaves them to the endpoint. */
function sampling(options: ChatCallOptions): Pick<ChatCompletionCreateParamsNonStreaming, 'max_tokens' | 'temperature' | 'tools' | 'tool_choice'> {
  const { toolChoice } = options;
  return {
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.tools === undefined || options.tools.length === 0
      ? {}
      : {
          tools: options.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }) },
          })),
        }),
    ...(toolChoice === undefined ? {} : { tool_choice: typeof toolChoice === 'string' ? toolChoice : { type: 'function' as const, function: { name: toolChoice.name } } }),
  };
}

/** The body of a one-shot completion; a reply `schema` is asked for the way `mode` says. */
export function completionRequest(model: string, options: GenerateOptions, mode: Exclude<StructuredOutputMode, 'auto'>): ChatCompletionCreateParamsNonStreaming {
  const request =
    options.schema === undefined
      ? { messages: [...options.messages], responseFormat: undefined }
      : structuredRequest(options.messages, options.schema, mode);
  return {
    model,
    messages: toOpenAiMessages(request.messages),
    ...(request.responseFormat === undefined ? {} : { response_format: request.responseFormat }),
    ...sampling(options),
  };
}

/** The body of a streamed completion; with `streamUsage` the last chunk reports token usage. */
export function streamRequest(model: string, options: StreamOptions, streamUsage: boolean): ChatCompletionCreateParamsStreaming {
  return {
    model,
    messages: toOpenAiMessages(options.messages),
    stream: true,
    ...(streamUsage ? { stream_options: { include_usage: true } } : {}),
    ...sampling(options),
  };
}
