import { z } from 'zod';

export const EXPORT_FORMAT = 'strata-session';
export const EXPORT_VERSION = 1;

const id = z.string().min(1);
const time = z.string().min(1);
const count = z.number().int().min(0);
const kind = z.enum(['fact', 'constraint', 'goal', 'preference', 'exception']);

/** A tool call as stored (see `ToolCall`). */
export const toolCall = z.strictObject({ id, name: z.string().min(1), arguments: z.string() });

const message = z.strictObject({
  id,
  sessionId: id,
  turn: z.number().int().min(1),
  position: count,
  role: z.enum(['user', 'assistant', 'tool']),
  speaker: z.string().nullable(),
  content: z.string(),
  tier1: z.string(),
  tier2: z.string(),
  tokens: z.strictObject({ tier1: count, tier2: count, tier3: count }),
  requiredTier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  createdAt: time,
  /** Absent in exports made before it existed: their times were the times the messages were sent. */
  sentAt: time.nullable().optional(),
  externalId: z.string().nullable(),
  /** Absent for a message that called no tool (and in exports made before tool calls were kept). */
  toolCalls: z.array(toolCall).min(1).optional(),
  toolCallId: id.optional(),
});

/** A request for more detail the chat model made in a turn (absent in exports made before they were kept). */
const detailRequest = z.strictObject({
  round: z.number().int().min(1),
  kind: z.enum(['tier', 'search']),
  target: z.string().min(1),
  tier: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  messageId: id.optional(),
  outcome: z.enum(['raised', 'unchanged', 'searched', 'ignored', 'over-limit']),
});

const turn = z.strictObject({
  sessionId: id,
  turn: z.number().int().min(1),
  messageIds: z.array(id),
  userSummary: z.string(),
  assistantSummary: z.string(),
  depth: z.enum(['short', 'medium', 'long', 'code']),
  status: z.enum(['summarised', 'fallback-raw', 'pending-retry']),
  staleMemory: z.boolean().optional(),
  detailRequests: z.array(detailRequest).optional(),
  windowExtension: count,
  tokens: count,
  createdAt: time,
});

const fact = z.strictObject({
  id,
  sessionId: id,
  key: z.string(),
  text: z.string(),
  kind,
  pinned: z.boolean(),
  sourceMessageIds: z.array(id),
  createdTurn: count,
  updatedTurn: count,
  createdAt: time,
  updatedAt: time,
  mayReplace: id.optional(),
});

const factEvent = z.strictObject({
  id,
  sessionId: id,
  sequence: z.number().int().min(1),
  factId: id.nullable(),
  op: z.enum(['add', 'update', 'remove', 'consolidate', 'reject', 'warning']),
  key: z.string(),
  kind,
  oldText: z.string().nullable(),
  newText: z.string().nullable(),
  turn: count,
  actor: z.string(),
  reason: z.string(),
  sourceMessageIds: z.array(id),
  createdAt: time,
  mayReplace: id.optional(),
  /** The event an undo reverts (see `FactEvent.undoes`). */
  undoes: id.optional(),
});

const artifact = z.strictObject({
  id,
  sessionId: id,
  name: z.string().min(1),
  kind: z.enum(['code', 'draft']),
  language: z.string().nullable(),
  versions: z.array(
    z.strictObject({
      artifactId: id,
      version: z.number().int().min(1),
      turn: z.number().int().min(1),
      messageId: id,
      content: z.string(),
      tokens: count,
      createdAt: time,
    }),
  ),
});

/** A complete, lossless session export. */
export const sessionExportSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: time,
  tokenizer: z.string(),
  session: z.strictObject({
    id,
    title: z.string(),
    instructions: z.string(),
    createdAt: time,
    updatedAt: time,
    messageCount: count,
    turnCount: count,
    tokenCount: count,
  }),
  messages: z.array(message),
  turns: z.array(turn),
  facts: z.array(fact),
  factEvents: z.array(factEvent),
  artifacts: z.array(artifact),
});

export type SessionExport = z.infer<typeof sessionExportSchema>;

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** One message of a plain or OpenAI-style file. */
export const plainMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
  name: z.string().optional(),
  speaker: z.string().optional(),
  timestamp: z.union([z.string(), z.number()]).optional(),
  created_at: z.union([z.string(), z.number()]).optional(),
  /** An assistant message's tool calls (read in tool-use-input.ts). */
  tool_calls: z.unknown().optional(),
  /** A tool message's call id (checked in tool-use-input.ts). */
  tool_call_id: z.unknown().optional(),
});

export type PlainMessage = z.infer<typeof plainMessageSchema>;
