import { z } from 'zod';
import type { StrataErrorCode } from '../core/errors.js';

/** Failure codes a manager's fallback may name; any other becomes MEMORY_MANAGER_FAILURE. */
const FALLBACK_CODES: ReadonlySet<string> = new Set<StrataErrorCode>([
  'MODEL_TIMEOUT',
  'MODEL_FAILURE',
  'MODEL_RATE_LIMITED',
  'MODEL_OUTPUT_INVALID',
  'MODEL_NOT_CONFIGURED',
  'MODEL_ABORTED',
  'MEMORY_MANAGER_FAILURE',
]);

const kind = z.enum(['fact', 'constraint', 'goal', 'preference', 'exception']);
const entry = z.object({
  text: z.string(),
  kind,
  key: z.string().optional(),
  sourceMessageIds: z.array(z.string()),
  reason: z.string().optional(),
  mayReplace: z.string().optional(),
});

/** What a memory manager must return; the engine parses it before using any of it. */
export const turnMemorySchema = z.object({
  messages: z.array(
    z.object({
      messageId: z.string(),
      tier1: z.string(),
      tier2: z.string(),
      requiredTier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    }),
  ),
  userSummary: z.string(),
  assistantSummary: z.string(),
  depth: z.enum(['short', 'medium', 'long', 'code']),
  windowExtension: z.number().int().min(0).max(2),
  diff: z.object({
    add: z.array(entry),
    update: z.array(entry),
    remove: z.array(z.object({ key: z.string(), reason: z.string(), sourceMessageIds: z.array(z.string()) })),
  }),
  artifacts: z.array(
    z.object({
      name: z.string().trim().min(1).max(200),
      kind: z.enum(['code', 'draft']),
      language: z.string().nullable(),
      content: z.string().min(1),
      messageId: z.string(),
    }),
  ),
  /** Present only when the manager fell back to raw memory (see `TurnFallback`); never dropped by the parse. */
  fallback: z
    .object({
      reason: z.enum(['malformed', 'timeout', 'unavailable', 'rejected']),
      retry: z.boolean(),
      code: z
        .string()
        .min(1)
        .transform((code): StrataErrorCode => (FALLBACK_CODES.has(code) ? (code as StrataErrorCode) : 'MEMORY_MANAGER_FAILURE')),
      message: z.string(),
    })
    .optional(),
  usage: z
    .object({
      calls: z.number().int().min(0),
      retries: z.number().int().min(0),
      promptTokens: z.number().int().min(0),
      completionTokens: z.number().int().min(0),
    })
    .optional(),
});
