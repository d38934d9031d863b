/**
 * `/api/memories`: the tenant's long-term memories: list and add them, read one with its tags and edges,
 * change, rename or deprecate it, its versions and undo, its tags and its edges. A memory is named in a
 * path by its id, key (`M1F`) or name (`mom-birthday`).
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../domain-schemas.js';
import { EdgeTypeSchema, LongTermMemorySchema, MemoryEdgeSchema, MemorySourceSchema, MemoryVersionSchema } from '../memory-schemas.js';
import { ERROR_ANSWERS, jsonAnswer, jsonBody, pageOf, pageQuery } from '../request-schemas.js';
import type { ServerEnv } from '../server-env.js';

const TAG = ['Long-term memory'];

/** The error answers of a route naming a memory. */
export const MEMORY_ERRORS = {
  400: ERROR_ANSWERS[400],
  401: ERROR_ANSWERS[401],
  404: jsonAnswer(ErrorSchema, 'No such memory (or it belongs to another tenant).'),
  409: jsonAnswer(ErrorSchema, 'Another memory of the tenant has that name.'),
} as const;

export const MemoryParams = z.object({
  ref: z
    .string()
    .min(1)
    .max(256)
    .openapi({ param: { name: 'ref', in: 'path' }, description: 'The memory: its id, key or name.', example: 'M1F' }),
});

/** A route naming a memory in its path, taking a JSON body, answering JSON. */
function memoryChange<B extends z.ZodType, A extends z.ZodType>(route: { method: 'post' | 'patch' | 'delete'; path: string; summary: string; body: B; about: string; answer: A; description: string }) {
  return createRoute({
    method: route.method,
    path: route.path,
    tags: TAG,
    summary: route.summary,
    request: { params: MemoryParams, body: jsonBody(route.body, route.about) },
    responses: { 200: jsonAnswer(route.answer, route.description), ...MEMORY_ERRORS },
  });
}

/** A `GET` of something about a memory, answered as JSON. */
function memoryRead<A extends z.ZodType>(route: { path: string; summary: string; answer: A; description: string }) {
  return createRoute({ method: 'get', path: route.path, tags: TAG, summary: route.summary, request: { params: MemoryParams }, responses: { 200: jsonAnswer(route.answer, route.description), ...MEMORY_ERRORS } });
}

const REASON = z.string().optional().openapi({ description: 'Why (recorded with the change; default: what the call did).' });
const WithTagsAndEdges = z.object({ memory: LongTermMemorySchema, tags: z.array(z.string()), edges: z.array(MemoryEdgeSchema) });

const list = createRoute({
  method: 'get',
  path: '/api/memories',
  tags: TAG,
  summary: 'Memories, the most recently changed first',
  request: {
    query: pageQuery('At most this many (default 50).').extend({
      tag: z.union([z.string(), z.array(z.string())]).optional().openapi({ description: 'Only memories carrying this tag (repeat: all of them).' }),
      deprecated: z.enum(['true', 'false']).optional().openapi({ description: 'Include deprecated memories (not with tag).' }),
    }),
  },
  responses: { 200: jsonAnswer(z.object({ memories: z.array(LongTermMemorySchema) }), 'A page of memories.'), 400: MEMORY_ERRORS[400], 401: MEMORY_ERRORS[401] },
});

const add = createRoute({
  method: 'post',
  path: '/api/memories',
  tags: TAG,
  summary: 'Remember something: a memory at version 1 with the tenant’s next key',
  request: {
    body: jsonBody(
      z.object({ value: z.string(), name: z.string().optional(), tags: z.array(z.string()).optional(), sources: z.array(MemorySourceSchema).optional(), reason: REASON }),
      'Its value (1–500 characters), and optionally a name, tags and the messages it came from.',
    ),
  },
  responses: { 201: jsonAnswer(LongTermMemorySchema, 'The new memory.'), 400: MEMORY_ERRORS[400], 401: MEMORY_ERRORS[401], 409: MEMORY_ERRORS[409] },
});

const read = memoryRead({ path: '/api/memories/{ref}', summary: 'One memory, with its tags and edges', answer: WithTagsAndEdges, description: 'The memory.' });

const change = memoryChange({
  method: 'patch',
  path: '/api/memories/{ref}',
  summary: 'Change a memory’s value (a new version), its name (null takes it away) or whether it is deprecated',
  body: z.object({ value: z.string().optional(), name: z.string().nullable().optional(), deprecated: z.boolean().optional(), reason: REASON }),
  about: 'What changes, and why.',
  answer: LongTermMemorySchema,
  description: 'The memory as it now stands.',
});

const versions = memoryRead({
  path: '/api/memories/{ref}/versions',
  summary: 'Every version of a memory, oldest first, with who made it and why',
  answer: z.object({ versions: z.array(MemoryVersionSchema) }),
  description: 'Its versions.',
});

const undo = memoryChange({
  method: 'post',
  path: '/api/memories/{ref}/undo',
  summary: 'Undo a memory’s last change, as a new version',
  body: z.object({ reason: REASON }),
  about: 'Why, optionally.',
  answer: LongTermMemorySchema,
  description: 'The memory as it now stands.',
});

const tagsChange = (method: 'post' | 'delete', summary: string) =>
  memoryChange({
    method,
    path: '/api/memories/{ref}/tags',
    summary,
    body: z.object({ tags: z.array(z.string()).min(1) }),
    about: 'The tags ("Family / Birthdays" is family/birthdays).',
    answer: z.object({ tags: z.array(z.string()) }),
    description: 'Its tags now.',
  });
const tag = tagsChange('post', 'Put tags on a memory');
const untag = tagsChange('delete', 'Take tags off a memory');

const edgeBody = z.object({ to: z.string().min(1).openapi({ description: 'The other memory: id, key or name.' }), type: EdgeTypeSchema });
const link = memoryChange({
  method: 'post',
  path: '/api/memories/{ref}/edges',
  summary: 'Link a memory to another (an edge of the same two and type is replaced)',
  body: edgeBody.extend({ reason: REASON }),
  about: 'The other memory, the edge’s type, and why.',
  answer: MemoryEdgeSchema,
  description: 'The edge.',
});
const unlink = memoryChange({
  method: 'delete',
  path: '/api/memories/{ref}/edges',
  summary: 'Remove the edge of a type from a memory to another',
  body: edgeBody,
  about: 'The other memory and the edge’s type.',
  answer: z.object({ removed: z.boolean() }),
  description: 'Whether there was such an edge.',
});

const asList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export function registerMemoryRoutes(app: OpenAPIHono<ServerEnv>): void {
  app.openapi(list, async (c) => {
    const query = c.req.valid('query');
    const { tag: tags, deprecated } = query;
    const wanted = asList(tags);
    const memories = await c.var.tenant.memories.list({
      ...pageOf(query),
      ...(wanted.length === 0 ? {} : { tags: wanted }),
      ...(deprecated === undefined ? {} : { deprecated: deprecated === 'true' }),
    });
    return c.json({ memories }, 200);
  });
  app.openapi(add, async (c) => c.json(await c.var.tenant.memories.add(c.req.valid('json')), 201));
  app.openapi(read, async (c) => {
    const api = c.var.tenant.memories;
    const memory = await api.get(c.req.valid('param').ref);
    const [tags, edges] = await Promise.all([api.tagsOf(memory.id), api.edges(memory.id)]);
    return c.json({ memory, tags, edges }, 200);
  });
  app.openapi(change, async (c) => {
    const api = c.var.tenant.memories;
    const { value, name, deprecated, reason } = c.req.valid('json');
    let memory = await api.get(c.req.valid('param').ref);
    const why = reason === undefined ? {} : { reason };
    if (name !== undefined) memory = await api.rename(memory.id, name);
    if (value !== undefined) memory = await api.change(memory.id, { value, ...why });
    if (deprecated !== undefined && deprecated !== memory.deprecated) memory = await api.deprecate(memory.id, { deprecated, ...why });
    return c.json(memory, 200);
  });
  app.openapi(versions, async (c) => c.json({ versions: await c.var.tenant.memories.history(c.req.valid('param').ref) }, 200));
  app.openapi(undo, async (c) => {
    const { reason } = c.req.valid('json');
    return c.json(await c.var.tenant.memories.undo(c.req.valid('param').ref, reason === undefined ? {} : { reason }), 200);
  });
  app.openapi(tag, async (c) => c.json({ tags: await c.var.tenant.memories.tag(c.req.valid('param').ref, c.req.valid('json').tags) }, 200));
  app.openapi(untag, async (c) => c.json({ tags: await c.var.tenant.memories.untag(c.req.valid('param').ref, c.req.valid('json').tags) }, 200));
  app.openapi(link, async (c) => {
    const { to, type, reason } = c.req.valid('json');
    return c.json(await c.var.tenant.memories.link(c.req.valid('param').ref, to, type, reason === undefined ? {} : { reason }), 200);
  });
  app.openapi(unlink, async (c) => {
    const { to, type } = c.req.valid('json');
    return c.json({ removed: await c.var.tenant.memories.unlink(c.req.valid('param').ref, to, type) }, 200);
  });
}
