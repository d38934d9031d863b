/** The base-truth document of a session: read it (now or at a past turn), its events, and a person's corrections. */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { FactEventSchema, FactKindSchema, FactSchema } from '../domain-schemas.js';
import { ERROR_ANSWERS, EventParams, FactParams, jsonAnswer, jsonBody, queryWhole, SessionParams, sessionRead } from '../request-schemas.js';
import type { ServerEnv } from '../server-env.js';

const TAG = ['Facts'];
const REASON = z.string().openapi({ description: 'Why the document changes (required, recorded on the event).', example: 'Maya confirmed it on the call' });
const EVENT_ANSWER = { 200: jsonAnswer(FactEventSchema, 'The event that records the change.'), ...ERROR_ANSWERS };

const current = createRoute({
  method: 'get',
  path: '/api/sessions/{sessionId}/facts',
  tags: TAG,
  summary: 'The base-truth document, now or as it stood at the end of a turn',
  request: { params: SessionParams, query: z.object({ atTurn: queryWhole('atTurn', 'The turn to show the document at (default: now).').optional() }) },
  responses: { 200: jsonAnswer(z.object({ facts: z.array(FactSchema) }), 'The facts.'), ...ERROR_ANSWERS },
});

const events = sessionRead({ path: '/api/sessions/{sessionId}/facts/events', tags: TAG, summary: 'Every change of the document, in order', answer: z.object({ events: z.array(FactEventSchema) }), description: 'The events.' });

const add = createRoute({
  method: 'post',
  path: '/api/sessions/{sessionId}/facts',
  tags: TAG,
  summary: 'Add a fact line ("key: value") as the user',
  request: { params: SessionParams, body: jsonBody(z.object({ text: z.string(), kind: FactKindSchema.optional(), reason: REASON }), 'The line, its kind (default fact) and why.') },
  responses: EVENT_ANSWER,
});

const edit = createRoute({
  method: 'patch',
  path: '/api/sessions/{sessionId}/facts/{factId}',
  tags: TAG,
  summary: "Change a fact's text or kind as the user (the id may be an event that changed it)",
  request: { params: FactParams, body: jsonBody(z.object({ text: z.string().optional(), kind: FactKindSchema.optional(), reason: REASON }), 'What changes and why.') },
  responses: EVENT_ANSWER,
});

const remove = createRoute({
  method: 'delete',
  path: '/api/sessions/{sessionId}/facts/{factId}',
  tags: TAG,
  summary: 'Take a fact out of the document as the user',
  request: { params: FactParams, body: jsonBody(z.object({ reason: REASON }), 'Why it goes.') },
  responses: EVENT_ANSWER,
});

const undo = createRoute({
  method: 'post',
  path: '/api/sessions/{sessionId}/facts/events/{eventId}/undo',
  tags: TAG,
  summary: 'Revert one event by appending a compensating one',
  request: { params: EventParams },
  responses: EVENT_ANSWER,
});

export function registerFactRoutes(app: OpenAPIHono<ServerEnv>): void {
  app.openapi(current, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { atTurn } = c.req.valid('query');
    return c.json({ facts: await handle.facts(atTurn === undefined ? {} : { atTurn }) }, 200);
  });
  app.openapi(events, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    return c.json({ events: await handle.factEvents() }, 200);
  });
  app.openapi(add, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { text, kind, reason } = c.req.valid('json');
    return c.json(await handle.facts.add({ text, reason, ...(kind === undefined ? {} : { kind }) }), 200);
  });
  app.openapi(edit, async (c) => {
    const { sessionId, factId } = c.req.valid('param');
    const handle = await c.var.tenant.sessions.open(sessionId);
    const { text, kind, reason } = c.req.valid('json');
    return c.json(await handle.facts.edit({ fact: factId, reason, ...(text === undefined ? {} : { text }), ...(kind === undefined ? {} : { kind }) }), 200);
  });
  app.openapi(remove, async (c) => {
    const { sessionId, factId } = c.req.valid('param');
    const handle = await c.var.tenant.sessions.open(sessionId);
    return c.json(await handle.facts.remove({ fact: factId, reason: c.req.valid('json').reason }), 200);
  });
  app.openapi(undo, async (c) => {
    const { sessionId, eventId } = c.req.valid('param');
    const handle = await c.var.tenant.sessions.open(sessionId);
    return c.json(await handle.undoFactEvent(eventId), 200);
  });
}
