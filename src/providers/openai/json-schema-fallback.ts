import { StrataError } from '../../core/errors.js';
import { rejectsJsonSchema, type StructuredOutputMode } from './structured-output.js';

const MODES: readonly StructuredOutputMode[] = ['json-schema', 'json-object', 'prompt', 'auto'];

/**
 * Which structured-output mode a model's next request uses. A configured mode is always used; `auto`
 * uses JSON schema until the endpoint says once that it does not support it, then prompts, for good,
 * so a model is not asked twice for what it cannot do.
 */
export interface JsonSchemaFallback {
  mode(): Exclude<StructuredOutputMode, 'auto'>;
  /** True when `error` is an `auto` model's JSON-schema request being refused: later requests prompt instead. */
  fallsBack(error: unknown, mode: Exclude<StructuredOutputMode, 'auto'>): boolean;
}

/** Check the configured mode (it may come from an untyped config file) and start in it. */
export function startJsonSchemaFallback(configured: StructuredOutputMode): JsonSchemaFallback {
  if (!MODES.includes(configured)) {
    throw new StrataError('INVALID_CONFIG', `Unknown structuredOutput "${String(configured)}"; use ${MODES.join(', ')}.`, { details: { option: 'structuredOutput' } });
  }
  /** Set once the endpoint has said it does not support JSON schema (auto mode only). */
  let jsonSchemaRejected = false;
  return {
    mode: () => (configured === 'auto' ? (jsonSchemaRejected ? 'prompt' : 'json-schema') : configured),
    fallsBack(error, mode) {
      if (configured !== 'auto' || mode !== 'json-schema' || !rejectsJsonSchema(error)) return false;
      jsonSchemaRejected = true;
      return true;
    },
  };
}
