import { z } from 'zod';
import type { OutputSchema } from '../../providers/chat-model/chat-model.js';

/**
 * The JSON Schema of a zod schema, as structured output takes it: every object closed with
 * `additionalProperties: false` and all its properties required (zod's output mode), without `$schema`.
 */
export function outputSchema(name: string, schema: z.ZodType): OutputSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema);
  return { name, jsonSchema };
}
