/**
 * The server's response bodies as schemas: what the library returns, described once, for the OpenAPI
 * document and the type of every route's answer.
 */
import { z } from '@hono/zod-openapi';
import { FACT_KINDS } from '../core/types.js';

export const FactKindSchema = z.enum(FACT_KINDS).openapi('FactKind');

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'SESSION_NOT_FOUND' }),
      message: z.string().openapi({ example: 'No session "s1" in tenant "acme"; list sessions with GET /api/sessions.' }),
    }),
  })
  .openapi('Error');

export const SessionSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    instructions: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    messageCount: z.number().int(),
    turnCount: z.number().int(),
    tokenCount: z.number().int(),
  })
  .openapi('Session');

export const FactSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    key: z.string(),
    text: z.string(),
    kind: FactKindSchema,
    pinned: z.boolean(),
    sourceMessageIds: z.array(z.string()),
    createdTurn: z.number().int(),
    updatedTurn: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    mayReplace: z.string().optional(),
  })
  .openapi('Fact');

export const FactEventSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    sequence: z.number().int(),
    factId: z.string().nullable(),
    op: z.enum(['add', 'update', 'remove', 'consolidate', 'reject', 'warning']),
    key: z.string(),
    kind: FactKindSchema,
    oldText: z.string().nullable(),
    newText: z.string().nullable(),
    turn: z.number().int(),
    actor: z.string(),
    reason: z.string(),
    sourceMessageIds: z.array(z.string()),
    createdAt: z.string(),
    mayReplace: z.string().optional(),
    undoes: z.string().optional().openapi({ description: 'For an undo: the id of the event it reverts.' }),
  })
  .openapi('FactEvent');

const TurnStatusSchema = z.enum(['summarised', 'fallback-raw', 'pending-retry']);

export const TurnSummarySchema = z
  .object({
    sessionId: z.string(),
    turn: z.number().int(),
    messageIds: z.array(z.string()),
    userSummary: z.string(),
    assistantSummary: z.string(),
    depth: z.enum(['short', 'medium', 'long', 'code']),
    status: TurnStatusSchema,
    windowExtension: z.number().int(),
    tokens: z.number().int(),
    createdAt: z.string(),
    staleMemory: z.boolean().optional(),
    detailRequests: z
      .array(
        z.object({
          round: z.number().int(),
          kind: z.enum(['tier', 'search']),
          target: z.string(),
          tier: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
          messageId: z.string().optional(),
          outcome: z.enum(['raised', 'unchanged', 'searched', 'ignored', 'over-limit']),
        }),
      )
      .optional()
      .openapi({ description: 'What the chat model asked for while it wrote the reply (a message at a higher tier, a search), round by round, and what each did.' }),
  })
  .openapi('TurnSummary');

export const RoleSchema = z.enum(['user', 'assistant', 'tool']).openapi('Role');

export const ToolCallSchema = z
  .object({
    id: z.string().openapi({ description: 'The call id; the tool message answering it has the same toolCallId.' }),
    name: z.string(),
    arguments: z.string().openapi({ description: 'The arguments as the model wrote them (JSON text).' }),
  })
  .openapi('ToolCall');

export const MessageSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    turn: z.number().int(),
    position: z.number().int(),
    role: RoleSchema,
    speaker: z.string().nullable(),
    content: z.string(),
    tier1: z.string(),
    tier2: z.string(),
    tokens: z.object({ tier1: z.number().int(), tier2: z.number().int(), tier3: z.number().int() }),
    requiredTier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
    externalId: z.string().nullable(),
    toolCalls: z.array(ToolCallSchema).optional().openapi({ description: "An assistant message's tool calls; absent when it called none." }),
    toolCallId: z.string().optional().openapi({ description: 'For a tool message: the call it answers.' }),
  })
  .openapi('Message');

export const ArtifactSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    name: z.string(),
    kind: z.enum(['code', 'draft']),
    language: z.string().nullable(),
    versions: z.array(
      z.object({ artifactId: z.string(), version: z.number().int(), turn: z.number().int(), messageId: z.string(), content: z.string(), tokens: z.number().int(), createdAt: z.string() }),
    ),
  })
  .openapi('Artifact');

export const RecordResultSchema = z
  .object({
    turn: z.number().int(),
    messageIds: z.array(z.string()),
    status: TurnStatusSchema,
    summary: TurnSummarySchema,
    factEvents: z.array(FactEventSchema),
    problem: z.string().nullable(),
  })
  .openapi('RecordResult');

/** A context package as `strata context --json` prints it. */
export const ContextPackageSchema = z
  .object({
    budget: z.number().int(),
    tokens: z.number().int(),
    messages: z.array(
      z.object({
        role: z.enum(['system', 'user', 'assistant', 'tool']),
        content: z.string(),
        toolCalls: z.array(ToolCallSchema).optional(),
        toolCallId: z.string().optional(),
      }),
    ),
    sections: z.array(
      z.object({
        name: z.string(),
        tokens: z.number().int(),
        items: z.array(
          z.object({
            text: z.string(),
            tokens: z.number().int(),
            sourceMessageIds: z.array(z.string()),
            kind: z.enum(['instructions', 'fact', 'message', 'turn-summary', 'artifact', 'memory']),
            turn: z.number().int().nullable().openapi({ description: 'The turn it comes from (a fact: the turn it was last established in).' }),
            date: z.string().nullable().openapi({ description: 'When its message was sent (a fact: when it was last established), or null when not known.' }),
            tier: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable().openapi({ description: 'For a message: the tier shown (3 raw, 2 brief, 1 key facts).' }),
          }),
        ),
      }),
    ),
    omitted: z.array(
      z.object({
        sourceMessageIds: z.array(z.string()),
        turns: z.object({ from: z.number().int().min(1), to: z.number().int().min(1) }).nullable(),
        messageCount: z.number().int().nonnegative(),
        reason: z.string(),
      }),
    ),
    warnings: z.array(z.string()),
  })
  .openapi('ContextPackage');

const count = z.number().int();
export const StatsSchema = z
  .object({
    turns: count,
    chatTurns: count,
    memoryModelCalls: count,
    memoryModelRetries: count,
    fallbacks: count,
    retryAttempts: count,
    retriesSucceeded: count,
    lockWaits: count,
    lockWaitMs: z.number(),
    staleTurns: count,
    detailRequests: count,
    detailRequestsIgnored: count,
    messagesEmbedded: count,
    embeddingFailures: count,
    tokens: z.object({ context: count, chatPrompt: count, chatCompletion: count, memoryPrompt: count, memoryCompletion: count }),
    pendingRetries: count,
  })
  .openapi('Stats');

export const ImportResultSchema = z
  .object({ sessionId: z.string(), messages: count, turns: count, skipped: count })
  .openapi('ImportResult');

export const SearchResultSchema = z
  .object({
    messageId: z.string(),
    turn: z.number().int(),
    role: RoleSchema,
    speaker: z.string().nullable(),
    content: z.string(),
    sentAt: z.string().nullable(),
    score: z.number(),
  })
  .openapi('SearchResult');
