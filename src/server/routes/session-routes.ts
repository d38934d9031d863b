/** `/api/sessions`: list, create, read, rename, delete, and the session's messages, turns and artifacts. */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ArtifactSchema, ErrorSchema, MessageSchema, SessionSchema, TurnSummarySchema } from '../domain-schemas.js';
import { ERROR_ANSWERS, jsonAnswer, jsonBody, pageOf, pageQuery, queryWhole, SessionParams, sessionRead } from '../request-schemas.js';
import type { ServerEnv } from '../server-env.js';

const TAG = ['Sessions'];

const list = createRoute({
  method: 'get',
  path: '/api/sessions',
  tags: TAG,
  summary: 'Sessions, most recently updated first',
  request: { query: pageQuery('At most this many (default 50).') },
  responses: { 200: jsonAnswer(z.object({ sessions: z.array(SessionSchema) }), 'A page of sessions.'), 400: ERROR_ANSWERS[400], 401: ERROR_ANSWERS[401] },
});

const create = createRoute({
  method: 'post',
  path: '/api/sessions',
  tags: TAG,
  summary: 'Create a session',
  request: {
    body: jsonBody(
      z.object({ id: z.string().optional().openapi({ description: 'The id to give it (default: a fresh one); 409 when taken.' }), title: z.string().optional(), instructions: z.string().optional() }),
      'Its id, title and system instructions, all optional.',
    ),
  },
  responses: { 201: jsonAnswer(SessionSchema, 'The new session.'), 400: ERROR_ANSWERS[400], 401: ERROR_ANSWERS[401], 409: jsonAnswer(ErrorSchema, 'A session with that id exists.') },
});

const read = sessionRead({ path: '/api/sessions/{sessionId}', tags: TAG, summary: 'One session', answer: SessionSchema, description: 'The session.' });

const change = createRoute({
  method: 'patch',
  path: '/api/sessions/{sessionId}',
  tags: TAG,
  summary: 'Rename a session or change its instructions',
  request: { params: SessionParams, body: jsonBody(z.object({ title: z.string().optional(), instructions: z.string().optional() }), 'The fields to change.') },
  responses: { 200: jsonAnswer(SessionSchema, 'The session as it now stands.'), ...ERROR_ANSWERS },
});

const remove = createRoute({
  method: 'delete',
  path: '/api/sessions/{sessionId}',
  tags: TAG,
  summary: 'Delete a session and everything derived from it',
  request: { params: SessionParams },
  responses: { 204: { description: 'Deleted.' }, ...ERROR_ANSWERS },
});

const messages = createRoute({
  method: 'get',
  path: '/api/sessions/{sessionId}/messages',
  tags: TAG,
  summary: 'The messages of a session, in order, with their tiers',
  request: {
    params: SessionParams,
    query: z.object({
      offset: queryWhole('offset', 'Skip this many (default 0): a client that has the first N reads from N.').optional(),
      limit: queryWhole('limit', 'At most this many (default all).').optional(),
    }),
  },
  responses: { 200: jsonAnswer(z.object({ messages: z.array(MessageSchema) }), 'The messages asked for.'), ...ERROR_ANSWERS },
});

const turns = sessionRead({ path: '/api/sessions/{sessionId}/turns', tags: TAG, summary: 'The turn log of a session', answer: z.object({ turns: z.array(TurnSummarySchema) }), description: 'Every turn.' });

const artifacts = sessionRead({ path: '/api/sessions/{sessionId}/artifacts', tags: TAG, summary: 'The code and drafts of a session, every version', answer: z.object({ artifacts: z.array(ArtifactSchema) }), description: 'Every artifact.' });

const cleanup = createRoute({
  method: 'post',
  path: '/api/sessions/cleanup',
  tags: TAG,
  summary: 'Delete the sessions not updated for a while (or, with dryRun, list them)',
  request: {
    body: jsonBody(
      z.object({ olderThan: z.string().openapi({ example: '30d', description: 'How long without an update: 30d, 12h, 2w, 90m.' }), dryRun: z.boolean().optional() }),
      'The age, and whether to only list.',
    ),
  },
  responses: {
    200: jsonAnswer(z.object({ before: z.string(), dryRun: z.boolean(), sessions: z.array(SessionSchema) }), 'The sessions deleted (or that would be), least recently updated first.'),
    400: ERROR_ANSWERS[400],
    401: ERROR_ANSWERS[401],
  },
});

export function registerSessionRoutes(app: OpenAPIHono<ServerEnv>): void {
  app.openapi(list, async (c) => {
    const sessions = await c.var.tenant.sessions.list(pageOf(c.req.valid('query')));
    return c.json({ sessions }, 200);
  });
  app.openapi(cleanup, async (c) => c.json(await c.var.tenant.sessions.cleanup(c.req.valid('json')), 200));
  app.openapi(create, async (c) => {
    const handle = await c.var.tenant.sessions.create(c.req.valid('json'));
    return c.json(await handle.info(), 201);
  });
  app.openapi(read, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    return c.json(await handle.info(), 200);
  });
  app.openapi(change, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { title, instructions } = c.req.valid('json');
    if (title !== undefined) await handle.rename(title);
    if (instructions !== undefined) await handle.setInstructions(instructions);
    return c.json(await handle.info(), 200);
  });
  app.openapi(remove, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    await handle.delete();
    return c.body(null, 204);
  });
  app.openapi(messages, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    return c.json({ messages: await handle.messages(c.req.valid('query')) }, 200);
  });
  app.openapi(turns, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    return c.json({ turns: await handle.turns() }, 200);
  });
  app.openapi(artifacts, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    return c.json({ artifacts: await handle.artifacts() }, 200);
  });
}
