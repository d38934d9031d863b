/**
 * Long-term memory's bodies as schemas, for the memory routes and the OpenAPI document: memories, their
 * versions, tags and edges, what recall finds, and maintenance runs.
 */
import { z } from '@hono/zod-openapi';
import { EDGE_TYPES } from '../core/long-term-memory.js';
import { AGENT_NAMES } from '../core/maintenance-run.js';

export const EdgeTypeSchema = z.enum(EDGE_TYPES).openapi('EdgeType');
export const AgentNameSchema = z.enum(AGENT_NAMES).openapi('AgentName');
const AuthorSchema = z.string().openapi({ description: '`user`, `system` or `agent:<name>`.', example: 'agent:archiver' });

export const MemorySourceSchema = z.object({ sessionId: z.string(), messageIds: z.array(z.string()) }).openapi('MemorySource');

export const LongTermMemorySchema = z
  .object({
    id: z.string(),
    key: z.string().openapi({ example: 'M1F' }),
    name: z.string().nullable().openapi({ example: 'mom-birthday' }),
    subject: z.string().nullable(),
    value: z.string(),
    version: z.number().int(),
    deprecated: z.boolean(),
    sources: z.array(MemorySourceSchema),
    createdAt: z.string(),
    modifiedAt: z.string(),
    reviewedAt: z.string().nullable(),
    tendedAt: z.string().nullable(),
    accessedAt: z.string().nullable(),
  })
  .openapi('LongTermMemory');

export const MemoryVersionSchema = z
  .object({ memoryId: z.string(), version: z.number().int(), value: z.string(), deprecated: z.boolean(), at: z.string(), by: AuthorSchema, reason: z.string() })
  .openapi('MemoryVersion');

export const MemoryEdgeSchema = z
  .object({ fromId: z.string(), toId: z.string(), type: EdgeTypeSchema, by: AuthorSchema, at: z.string(), reason: z.string() })
  .openapi('MemoryEdge');

export const RecallSchema = z
  .object({
    memories: z.array(
      z.object({
        memory: LongTermMemorySchema,
        score: z.number(),
        path: z.enum(['words', 'tag', 'link', 'time']),
        reason: z.string(),
      }),
    ),
    nothingRelevant: z.boolean(),
  })
  .openapi('Recall');

export const MaintenanceActionSchema = z
  .object({
    agent: AgentNameSchema,
    kind: z.enum(['flag', 'tag', 'link', 'revise', 'deprecate']),
    memoryIds: z.array(z.string()),
    tags: z.array(z.string()).optional(),
    toId: z.string().optional(),
    edgeType: EdgeTypeSchema.optional(),
    value: z.string().optional(),
    reason: z.string(),
    status: z.enum(['applied', 'proposed', 'approved', 'rejected', 'failed']),
  })
  .openapi('MaintenanceAction');

export const MaintenanceRunSchema = z
  .object({
    id: z.string(),
    trigger: z.enum(['demand', 'schedule']),
    agents: z.array(AgentNameSchema),
    startedAt: z.string(),
    finishedAt: z.string(),
    examined: z.number().int(),
    limits: z.object({ memories: z.number().int(), changes: z.number().int() }),
    modelCalls: z.number().int(),
    actions: z.array(MaintenanceActionSchema),
    leftOut: z.number().int(),
    failures: z.array(z.object({ agent: AgentNameSchema, message: z.string() })),
  })
  .openapi('MaintenanceRun');
