import { z } from 'zod';
import type { ChatUsage, FinishReason } from '../chat-model/chat-model.js';

/**
 * The parts of OpenAI-style responses that Strata reads, checked at the boundary: the client types
 * them but does not check them, and compatible servers vary. Unknown fields are ignored.
 */
const usageShape = z
  .object({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) })
  .nullish();

export const completionShape = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(z.object({ id: z.string().min(1), function: z.object({ name: z.string().min(1), arguments: z.string() }) })).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: usageShape,
});

export const chunkShape = z.object({
  model: z.string().nullish(),
  choices: z.array(
    z.object({
      delta: z
        .object({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          // A call comes in pieces: its index names it, its id and name come first, its arguments in parts.
          tool_calls: z
            .array(z.object({ index: z.number().int().min(0).nullish(), id: z.string().nullish(), function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish() }))
            .nullish(),
        })
        .nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: usageShape,
});

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content-filter',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
};

export function toFinishReason(reason: string | null | undefined): FinishReason {
  return (reason === null || reason === undefined ? undefined : FINISH_REASONS[reason]) ?? 'unknown';
}

export function toUsage(usage: z.infer<typeof usageShape>): ChatUsage {
  return { promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 };
}
