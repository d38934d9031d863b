/**
 * What works over all of a tenant's long-term memories: the tags in use, recall for a query, and
 * maintenance (`/api/memory-runs`: run the agents, list and read runs, approve or reject a proposal).
 * These live beside `/api/memories` rather than under it, so no memory name can shadow them.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../domain-schemas.js';
import { AgentNameSchema, EdgeTypeSchema, MaintenanceRunSchema, RecallSchema } from '../memory-schemas.js';
import { jsonAnswer, jsonBody, pageOf, pageQuery, pathId } from '../request-schemas.js';
import type { ServerEnv } from '../server-env.js';
import { MEMORY_ERRORS } from './memory-routes.js';

const TAG = ['Long-term memory'];
const READ_ERRORS = { 400: MEMORY_ERRORS[400], 401: MEMORY_ERRORS[401] };
const RUN_ERRORS = { ...READ_ERRORS, 404: jsonAnswer(ErrorSchema, 'No such run (or it belongs to another tenant).') };

const RunParams = z.object({ runId: pathId('runId') });

const tags = createRoute({
  method: 'get',
  path: '/api/memory-tags',
  tags: TAG,
  summary: 'Every tag in use, with how many current memories carry it',
  responses: { 200: jsonAnswer(z.object({ tags: z.array(z.object({ tag: z.string(), memories: z.number().int() })) }), 'The tags, in order.'), ...READ_ERRORS },
});

const recall = createRoute({
  method: 'post',
  path: '/api/memory-recall',
  tags: TAG,
  summary: 'The memories relevant to a query, best first, each with why (marks them as accessed)',
  request: {
    body: jsonBody(
      z.object({
        query: z.string(),
        limit: z.number().int().optional(),
        tags: z.array(z.string()).optional(),
        depth: z.number().int().optional(),
        edgeTypes: z.array(EdgeTypeSchema).optional(),
        changedSince: z.string().optional(),
        notReviewedSince: z.string().optional(),
        asOf: z.string().optional(),
      }),
      'The query (a question, the user’s last message; empty with filters alone) and how to recall.',
    ),
  },
  responses: { 200: jsonAnswer(RecallSchema, 'What was found, or nothingRelevant.'), ...READ_ERRORS },
});

const runs = createRoute({
  method: 'get',
  path: '/api/memory-runs',
  tags: TAG,
  summary: 'Maintenance runs, the newest first',
  request: { query: pageQuery('At most this many (default 20).') },
  responses: { 200: jsonAnswer(z.object({ runs: z.array(MaintenanceRunSchema) }), 'A page of runs.'), ...READ_ERRORS },
});

const tend = createRoute({
  method: 'post',
  path: '/api/memory-runs',
  tags: TAG,
  summary: 'Run the maintenance agents once over the memories tended least recently',
  request: {
    body: jsonBody(
      z.object({ agents: z.array(AgentNameSchema).optional(), limit: z.number().int().optional(), maxChanges: z.number().int().optional() }),
      'Which agents (default all), how many memories (default 1,000) and changes at most (default 200).',
    ),
  },
  responses: { 201: jsonAnswer(MaintenanceRunSchema, 'The run, with every action and its reason.'), ...READ_ERRORS },
});

const run = createRoute({
  method: 'get',
  path: '/api/memory-runs/{runId}',
  tags: TAG,
  summary: 'One maintenance run',
  request: { params: RunParams },
  responses: { 200: jsonAnswer(MaintenanceRunSchema, 'The run.'), ...RUN_ERRORS },
});

const settle = createRoute({
  method: 'post',
  path: '/api/memory-runs/{runId}/actions/{index}',
  tags: TAG,
  summary: 'Approve (apply) or reject an action the run only proposed',
  request: {
    params: RunParams.extend({ index: z.string().regex(/^[0-9]{1,6}$/u, 'index must be a whole number such as 0').transform(Number).openapi({ param: { name: 'index', in: 'path' } }) }),
    body: jsonBody(z.object({ decision: z.enum(['approve', 'reject']) }), 'What to do with it.'),
  },
  responses: { 200: jsonAnswer(MaintenanceRunSchema, 'The run as it now stands.'), ...RUN_ERRORS },
});

export function registerMemoryWorkRoutes(app: OpenAPIHono<ServerEnv>): void {
  app.openapi(tags, async (c) => c.json({ tags: await c.var.tenant.memories.tags() }, 200));
  app.openapi(recall, async (c) => c.json(await c.var.tenant.memories.recall(c.req.valid('json')), 200));
  app.openapi(runs, async (c) => {
    return c.json({ runs: await c.var.tenant.memories.runs(pageOf(c.req.valid('query'))) }, 200);
  });
  app.openapi(tend, async (c) => c.json(await c.var.tenant.memories.tend(c.req.valid('json')), 201));
  app.openapi(run, async (c) => c.json(await c.var.tenant.memories.run(c.req.valid('param').runId), 200));
  app.openapi(settle, async (c) => {
    const { runId, index } = c.req.valid('param');
    const api = c.var.tenant.memories;
    return c.json(await (c.req.valid('json').decision === 'approve' ? api.approve(runId, index) : api.reject(runId, index)), 200);
  });
}
