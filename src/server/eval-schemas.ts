/**
 * The retention eval's answers as schemas, for the OpenAPI document: the shipped example conversations
 * and a `RetentionRun`, the figures `strata eval retention` prints.
 */
import { z } from '@hono/zod-openapi';

export const ShippedExampleSchema = z
  .object({
    name: z.string().openapi({ example: 'kitchen-renovation', description: 'The conversation id; send it as `example` to run it.' }),
    description: z.string(),
    turns: z.number().int(),
    keyFacts: z.number().int(),
    budget: z.number().int().openapi({ description: 'The budget the conversation sets.' }),
  })
  .openapi('ShippedExample');

const TierSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]).openapi({ description: '1 hard constraint, 2 core requirement, 3 soft or future signal.' });

const FactResultSchema = z
  .object({
    id: z.string(),
    tier: TierSchema,
    text: z.string(),
    status: z.enum(['preserved', 'partial', 'missing']),
    score: z.number().openapi({ description: '1, 0.5 or 0.' }),
    weight: z.number(),
    groups: z.number().int(),
    bestItem: z
      .object({ section: z.string(), index: z.number().int(), text: z.string(), groupsSatisfied: z.number().int() })
      .nullable()
      .openapi({ description: 'The package item satisfying the most groups, or null.' }),
  })
  .openapi('RetentionFactResult');

const StaleResultSchema = z
  .object({
    id: z.string(),
    supersededBy: z.string().nullable(),
    text: z.string(),
    asserted: z.boolean(),
    item: z.object({ section: z.string(), index: z.number().int(), text: z.string() }).nullable(),
  })
  .openapi('RetentionStaleResult');

const ConversationRetentionSchema = z
  .object({
    id: z.string(),
    file: z.string().openapi({ description: 'Where it came from: its path under the package, or `body.conversation`.' }),
    description: z.string(),
    turns: z.number().int(),
    messages: z.number().int(),
    score: z.number().openapi({ description: 'Weighted key-fact retention, 0–1.' }),
    facts: z.array(FactResultSchema),
    memoryOnlyScore: z.number().openapi({ description: 'The score on the package without its verbatim window, 0–1.' }),
    memoryOnlyFacts: z.array(FactResultSchema),
    stale: z.array(StaleResultSchema),
    staleRate: z.number(),
    budget: z.number().int(),
    contextTokens: z.number().int(),
    originalTokens: z.number().int(),
    tokenReduction: z.number().openapi({ description: '1 − contextTokens / originalTokens.' }),
    budgetCompliant: z.boolean(),
    fill: z.number(),
  })
  .openapi('ConversationRetention');

export const RetentionRunSchema = z
  .object({
    tokenizer: z.string(),
    budgetOverride: z.number().int().nullable(),
    meanScore: z.number(),
    memoryOnlyScore: z.number(),
    staleRate: z.number(),
    meanTokenReduction: z.number(),
    budgetCompliance: z.number(),
    meanFill: z.number(),
    byTier: z.array(
      z.object({ tier: TierSchema, facts: z.number().int(), preserved: z.number().int(), partial: z.number().int(), missing: z.number().int(), score: z.number() }),
    ),
    conversations: z.array(ConversationRetentionSchema),
  })
  .openapi('RetentionRun');
