/** Recording turns, context packages, exports, imports and counters. */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ContextPackageSchema, ImportResultSchema, RecordResultSchema, SearchResultSchema, StatsSchema } from '../domain-schemas.js';
import { ERROR_ANSWERS, jsonAnswer, jsonBody, MessageInputSchema, queryWhole, SessionParams, ToolStepSchema } from '../request-schemas.js';
import type { ServerEnv } from '../server-env.js';

const TAG = ['Turns and context'];

const record = createRoute({
  method: 'post',
  path: '/api/sessions/{sessionId}/turns',
  tags: TAG,
  summary: 'Store one turn, then derive its memory',
  request: {
    params: SessionParams,
    body: jsonBody(
      z.object({
        user: MessageInputSchema.optional(),
        tools: z.array(ToolStepSchema).optional().openapi({ description: "The assistant's tool calls before its answer, each with its result, step by step." }),
        assistant: MessageInputSchema.optional(),
        timestamp: z.union([z.string(), z.number()]).optional().openapi({ description: 'When the turn happened: ISO-8601 or epoch milliseconds (default: now).' }),
      }),
      'One side of the turn or both, and any tool calls between them.',
    ),
  },
  responses: { 200: jsonAnswer(RecordResultSchema, 'The stored turn and the memory it changed.'), ...ERROR_ANSWERS },
});

const context = createRoute({
  method: 'get',
  path: '/api/sessions/{sessionId}/context',
  tags: TAG,
  summary: 'The context package under a token budget (the JSON of `strata context --json`)',
  request: {
    params: SessionParams,
    query: z.object({ budget: queryWhole('budget', 'Hard limit on the rendered tokens.'), query: z.string().max(10_000).optional().openapi({ description: 'What the next message is about.' }) }),
  },
  responses: { 200: jsonAnswer(ContextPackageSchema, 'The package.'), ...ERROR_ANSWERS },
});

const search = createRoute({
  method: 'get',
  path: '/api/sessions/{sessionId}/search',
  tags: TAG,
  summary: "The session's messages that best match a query (BM25), best first",
  request: {
    params: SessionParams,
    query: z.object({ query: z.string().min(1).max(10_000).openapi({ description: 'What to look for.' }), limit: queryWhole('limit', 'At most this many (default 10, at most 100).').optional() }),
  },
  responses: { 200: jsonAnswer(z.object({ results: z.array(SearchResultSchema) }), 'The best matches.'), ...ERROR_ANSWERS },
});

const exported = createRoute({
  method: 'get',
  path: '/api/sessions/{sessionId}/export',
  tags: TAG,
  summary: 'The whole session as JSON (to import elsewhere) or Markdown (to read)',
  request: { params: SessionParams, query: z.object({ format: z.enum(['json', 'markdown']).default('json').openapi({ param: { name: 'format', in: 'query' } }) }) },
  responses: {
    200: { content: { 'application/json': { schema: z.unknown() }, 'text/markdown': { schema: z.string() } }, description: 'The export.' },
    ...ERROR_ANSWERS,
  },
});

const imported = createRoute({
  method: 'post',
  path: '/api/sessions/import',
  tags: TAG,
  summary: 'Import a conversation (OpenAI messages, a Strata export, …) as a new session',
  request: {
    body: jsonBody(
      z.object({ data: z.unknown(), title: z.string().optional(), newIds: z.boolean().optional(), source: z.string().max(200).optional() }),
      'The conversation under `data`, as the file holds it.',
    ),
  },
  responses: { 201: jsonAnswer(ImportResultSchema, 'The new session.'), 400: ERROR_ANSWERS[400], 401: ERROR_ANSWERS[401], 409: jsonAnswer(z.unknown(), 'A session with the export\'s id exists; send newIds: true.') },
});

const stats = createRoute({
  method: 'get',
  path: '/api/stats',
  tags: TAG,
  summary: 'Counters since the server started, of the tenant or one session',
  request: { query: z.object({ sessionId: z.string().min(1).max(256).optional().openapi({ param: { name: 'sessionId', in: 'query' } }) }) },
  responses: { 200: jsonAnswer(StatsSchema, 'The counters.'), ...ERROR_ANSWERS },
});

export function registerTurnRoutes(app: OpenAPIHono<ServerEnv>): void {
  app.openapi(record, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { user, tools, assistant, timestamp } = c.req.valid('json');
    const result = await handle.record({
      ...(user === undefined ? {} : { user }),
      ...(tools === undefined ? {} : { tools }),
      ...(assistant === undefined ? {} : { assistant }),
      ...(timestamp === undefined ? {} : { timestamp }),
    });
    return c.json(result, 200);
  });
  app.openapi(context, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { budget, query } = c.req.valid('query');
    const pkg = await handle.context({ budget, ...(query === undefined ? {} : { query }) });
    return c.json(pkg.toJSON(), 200);
  });
  app.openapi(search, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { query, limit } = c.req.valid('query');
    return c.json({ results: await handle.search({ query, ...(limit === undefined ? {} : { limit }) }) }, 200);
  });
  app.openapi(exported, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { format } = c.req.valid('query');
    const text = await handle.export({ format });
    return c.body(text, 200, { 'content-type': format === 'json' ? 'application/json; charset=utf-8' : 'text/markdown; charset=utf-8' });
  });
  app.openapi(imported, async (c) => {
    const { data, title, newIds, source } = c.req.valid('json');
    const result = await c.var.tenant.sessions.import({ data, source: source ?? 'the request body', ...(title === undefined ? {} : { title }), ...(newIds === undefined ? {} : { newIds }) });
    return c.json(result, 201);
  });
  app.openapi(stats, async (c) => {
    const { sessionId } = c.req.valid('query');
    return c.json(await c.var.tenant.stats(sessionId === undefined ? {} : { sessionId }), 200);
  });
}
