import type { GenerateOptions, GenerateResult } from '../chat-model/chat-model.js';
import { completionShape, toFinishReason, toUsage } from './chat-completion-shape.js';
import { completionRequest } from './chat-request.js';
import type { JsonSchemaFallback } from './json-schema-fallback.js';
import { firstIssue, invalidOutput, toModelError, type CallContext } from './model-errors.js';
import type { OpenAiConnection } from './openai-connection.js';

/**
 * One chat completion within the caller's deadline. When an `auto` model's endpoint refuses JSON schema,
 * the same call is asked again with the schema in the prompt, inside the same deadline.
 */
export async function completeChat(connection: OpenAiConnection, fallback: JsonSchemaFallback, options: GenerateOptions, context: CallContext): Promise<GenerateResult> {
  const { client, model } = connection;
  const { deadline } = context;
  const mode = fallback.mode();
  const request = completionRequest(model, options, mode);
  let response: unknown;
  try {
    response = await deadline.race(client.chat.completions.create(request, { signal: deadline.signal, timeout: context.timeoutMs }));
  } catch (error) {
    if (options.schema !== undefined && fallback.fallsBack(error, mode)) return completeChat(connection, fallback, options, context);
    throw toModelError(error, context);
  }
  return readCompletion(response, model, context);
}

/** The reply of a completion, checked: a missing choice, an odd shape or a refusal is an unusable answer. */
function readCompletion(response: unknown, model: string, context: CallContext): GenerateResult {
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
    toolCalls: (choice.message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })),
  };
}
