import { z } from 'zod';
import { outputSchema } from './json-schema.js';

export const factKindSchema = z
  .enum(['fact', 'constraint', 'goal', 'preference', 'exception'])
  .describe('fact: a plain fact; constraint: a hard limit or requirement; goal: what someone wants to achieve; preference: a liking or choice; exception: a prohibition that must never be forgotten');

const sourceIdsSchema = z.array(z.string()).describe('Ids of the messages of this exchange the entry comes from');

const factLineSchema = z.strictObject({
  key: z.string().describe('The fact key: a short noun phrase, the text before the first ":" of the text'),
  text: z.string().describe('The complete fact line, "key: value"'),
  kind: factKindSchema,
  sourceMessageIds: sourceIdsSchema,
});

const mayReplaceSchema = z
  .string()
  .nullable()
  .default(null)
  .describe('The key of another existing fact this line may replace, when you cannot tell whether the two are about the same subject; null otherwise');

/**
 * What the memory model answers for one exchange (or one part of a long one). Only the shape is
 * checked here; `parseTurnOutput` checks ids, lengths and limits.
 */
export const turnOutputSchema = z.strictObject({
  userSummary: z.string().describe("What the user said or asked; '' when the exchange has no user message"),
  assistantSummary: z.string().describe("What the assistant answered; '' when the exchange has no assistant message"),
  messages: z
    .array(
      z.strictObject({
        id: z.string().describe('The message id'),
        tier1: z.string().describe('The message as "key = value" pairs separated by "; "'),
        tier2: z.string().describe('A brief summary of the message'),
      }),
    )
    .describe('One entry per message of the exchange'),
  diff: z
    .strictObject({
      add: z.array(factLineSchema.extend({ mayReplace: mayReplaceSchema })).describe('New facts'),
      update: z
        .array(factLineSchema.extend({ reason: z.string().nullable().describe('The words of this exchange that change the fact, quoted'), mayReplace: mayReplaceSchema }))
        .describe('Changed facts: the existing key, the complete new text and why'),
      remove: z
        .array(
          z.strictObject({
            key: z.string().describe('The key of the fact to remove'),
            reason: z.string().describe('Why this exchange makes the fact false or obsolete'),
            sourceMessageIds: sourceIdsSchema,
          }),
        )
        .describe('Facts this exchange makes false or obsolete'),
    })
    .describe('Changes to the base-truth document'),
});

export type TurnOutput = z.infer<typeof turnOutputSchema>;

/** The turn output as a structured-output schema (`turn_memory`). */
export const TURN_OUTPUT_SCHEMA = outputSchema('turn_memory', turnOutputSchema);
