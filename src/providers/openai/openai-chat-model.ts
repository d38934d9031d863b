import { StrataError } from '../../core/errors.js';
import type {
  ChatCallOptions,
  ChatModel,
  ChatStreamEvent,
  GenerateOptions,
  GenerateResult,
  StreamOptions,
} from '../chat-model/chat-model.js';
import { chunkShape, completionShape, toFinishReason, toUsage } from './chat-completion-shape.js';
import { startDeadline, type Deadline } from './deadline.js';
import { firstIssue, invalidOutput, toModelError, type CallContext } from './model-errors.js';
import { connectOpenAi, type OpenAiConnectionSettings } from './openai-connection.js';
import { rejectsJsonSchema, structuredRequest, type StructuredOutputMode } from './structured-output.js';

export interface OpenAiChatModelSettings extends OpenAiConnectionSettings {
  /**
   * How JSON replies are requested (default `auto`: JSON schema, falling back for good to JSON
   * instructions in a system message once the endpoint says it does not support JSON schema).
   */
  structuredOutput?: StructuredOutputMode;
  /** Ask streams to report token usage with `stream_options.include_usage` (default true). */
  streamUsage?: boolean;
}

const MODES: readonly StructuredOutputMode[] = ['json-schema', 'json-object', 'prompt', 'auto'];

/** Request fields shared by `generate` and `stream`. */
function sampling(options: ChatCallOptions): { max_tokens?: number; temperature?: number } {
  return {
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
  };
}

/** A chat model behind any OpenAI-compatible `/chat/completions` endpoint. */
export function createOpenAiChatModel(settings: OpenAiChatModelSettings): ChatModel {
  const connection = connectOpenAi(settings);
  const { client, model } = connection;
  const configured = settings.structuredOutput ?? 'auto';
  if (!MODES.includes(configured)) {
    throw new StrataError('INVALID_CONFIG', `Unknown structuredOutput "${String(configured)}"; use ${MODES.join(', ')}.`, { details: { option: 'structuredOutput' } });
  }
  const streamUsage = settings.streamUsage ?? true;
  /** Set once the endpoint has said it does not support JSON schema (auto mode only). */
  let jsonSchemaRejected = false;

  const contextFor = (operation: string, deadline: Deadline, timeoutMs: number): CallContext => ({
    operation,
    model,
    baseUrl: connection.baseUrl,
    role: connection.role,
    timeoutMs,
    deadline,
  });

  async function complete(options: GenerateOptions, deadline: Deadline, context: CallContext): Promise<GenerateResult> {
    const mode = configured === 'auto' ? (jsonSchemaRejected ? 'prompt' : 'json-schema') : configured;
    const request =
      options.schema === undefined
        ? { messages: [...options.messages], responseFormat: undefined }
        : structuredRequest(options.messages, options.schema, mode);
    let response: unknown;
    try {
      response = await deadline.race(
        client.chat.completions.create(
          {
            model,
            messages: request.messages,
            ...(request.responseFormat === undefined ? {} : { response_format: request.responseFormat }),
            ...sampling(options),
          },
          { signal: deadline.signal, timeout: context.timeoutMs },
        ),
      );
    } catch (error) {
      if (options.schema !== undefined && configured === 'auto' && mode === 'json-schema' && rejectsJsonSchema(error)) {
        jsonSchemaRejected = true;
        return complete(options, deadline, context);
      }
      throw toModelError(error, context);
    }
    const parsed = completionShape.safeParse(response);
    if (!parsed.success) throw invalidOutput(context, firstIssue(parsed.error));
    const [choice] = parsed.data.choices;
    if (choice === undefined) throw invalidOutput(context, 'no choices');
    if (typeof choice.message.refusal === 'string' && choice.message.refusal !== '') {
      throw invalidOutput(context, `the model refused: ${choice.message.refusal}`);
    }
    return {
      text: choice.message.content ?? '',
      usage: toUsage(parsed.data.usage),
      model: parsed.data.model ?? model,
      finishReason: toFinishReason(choice.finish_reason),
    };
  }

  async function* streamReply(options: StreamOptions): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const timeoutMs = options.timeoutMs ?? connection.timeoutMs;
    const deadline = startDeadline(timeoutMs, options.signal);
    const context = contextFor('streamed chat completion', deadline, timeoutMs);
    let chunks: AsyncIterator<unknown> | undefined;
    let finished = false;
    try {
      try {
        const stream = await deadline.race(
          client.chat.completions.create(
            {
              model,
              messages: [...options.messages],
              stream: true,
              ...(streamUsage ? { stream_options: { include_usage: true } } : {}),
              ...sampling(options),
            },
            { signal: deadline.signal, timeout: timeoutMs },
          ),
        );
        chunks = stream[Symbol.asyncIterator]();
      } catch (error) {
        throw toModelError(error, context);
      }
      let text = '';
      let finishReason: string | null | undefined;
      let usage: Parameters<typeof toUsage>[0];
      let answeredBy = model;
      for (;;) {
        deadline.restart();
        let next: IteratorResult<unknown>;
        try {
          next = await deadline.race(chunks.next());
        } catch (error) {
          throw toModelError(error, context);
        }
        // The client ends a stream quietly when its signal aborts; that is still a time-out or a cancellation.
        if (deadline.signal.aborted) throw toModelError(deadline.signal.reason, context);
        if (next.done === true) break;
        deadline.pause();
        const parsed = chunkShape.safeParse(next.value);
        if (!parsed.success) throw invalidOutput(context, firstIssue(parsed.error));
        answeredBy = parsed.data.model ?? answeredBy;
        usage = parsed.data.usage ?? usage;
        const [choice] = parsed.data.choices;
        finishReason = choice?.finish_reason ?? finishReason;
        const delta = choice?.delta?.content;
        if (typeof delta === 'string' && delta !== '') {
          text += delta;
          yield { type: 'delta', text: delta };
        }
      }
      finished = true;
      yield { type: 'done', text, usage: toUsage(usage), model: answeredBy, finishReason: toFinishReason(finishReason) };
    } finally {
      deadline.dispose();
      // Leaving the loop early closes the response instead of reading it to the end. Not awaited:
      // after a time-out the client's own read may still be settling.
      if (!finished) void chunks?.return?.().catch(() => undefined);
    }
  }

  return {
    model,
    async generate(options: GenerateOptions): Promise<GenerateResult> {
      const timeoutMs = options.timeoutMs ?? connection.timeoutMs;
      const deadline = startDeadline(timeoutMs, options.signal);
      try {
        return await complete(options, deadline, contextFor('chat completion', deadline, timeoutMs));
      } finally {
        deadline.dispose();
      }
    },
    stream(options: StreamOptions): AsyncIterable<ChatStreamEvent> {
      return { [Symbol.asyncIterator]: () => streamReply(options) };
    },
  };
}
