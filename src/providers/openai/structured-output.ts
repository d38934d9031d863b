import { APIError } from 'openai';
import type { ChatMessage } from '../../core/types.js';
import type { OutputSchema } from '../chat-model/chat-model.js';

/**
 * How a JSON reply is asked for: `json-schema` (`response_format: json_schema`, strict), `json-object`
 * (`response_format: json_object` plus the schema in a system message), `prompt` (the schema in a
 * system message only), or `auto`: `json-schema` until the endpoint says it does not support it, then `prompt`.
 */
export type StructuredOutputMode = 'json-schema' | 'json-object' | 'prompt' | 'auto';

export type ResponseFormat =
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: true } }
  | { type: 'json_object' };

/** The instruction that asks for JSON in plain words, for endpoints without (full) structured output. */
export function jsonInstructions(schema: OutputSchema): string {
  return [
    `Reply with one JSON object and nothing else: no prose, no markdown, no code fences.`,
    `It must match this JSON Schema ("${schema.name}"):`,
    JSON.stringify(schema.jsonSchema),
  ].join('\n');
}

/** The messages and response format that ask for `schema` in a concrete mode. */
export function structuredRequest(
  messages: readonly ChatMessage[],
  schema: OutputSchema,
  mode: Exclude<StructuredOutputMode, 'auto'>,
): { messages: ChatMessage[]; responseFormat: ResponseFormat | undefined } {
  if (mode === 'json-schema') {
    return {
      messages: [...messages],
      responseFormat: { type: 'json_schema', json_schema: { name: schema.name, schema: schema.jsonSchema, strict: true } },
    };
  }
  const instructed = [...messages, { role: 'system' as const, content: jsonInstructions(schema) }];
  return { messages: instructed, responseFormat: mode === 'json-object' ? { type: 'json_object' } : undefined };
}

const MENTIONS_FORMAT = /response_format|json_schema|json schema|structured output/iu;
const SAYS_UNSUPPORTED = /support|unknown|unrecogni[sz]ed|not allowed|not permitted|must be one of|input should be|extra (?:fields|inputs)|invalid (?:type|value)/iu;

/**
 * True when a failed request says the endpoint does not support `response_format: json_schema`
 * (HTTP 400 or 422 naming response_format or json_schema as unsupported, unknown or not allowed).
 * Other 400s, such as an over-long prompt, are not this.
 */
export function rejectsJsonSchema(error: unknown): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  const said = `${error.message} ${JSON.stringify(error.error ?? null)}`;
  return MENTIONS_FORMAT.test(said) && SAYS_UNSUPPORTED.test(said);
}
