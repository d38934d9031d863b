/** The parts of requests the routes share: path parameters, whole numbers in a query, JSON bodies. */
import { createRoute, z } from '@hono/zod-openapi';
import { MAX_SESSION_ID_LENGTH } from '../memory/session-input.js';
import { ErrorSchema } from './domain-schemas.js';

/** An id in a path: any text up to 256 characters (the store decides whether it names anything). */
export function pathId(name: string) {
  return z
    .string()
    .min(1)
    .max(MAX_SESSION_ID_LENGTH)
    .openapi({ param: { name, in: 'path' }, example: name === 'sessionId' ? '0f8fad5b-d9cb-469f-a165-70867728950e' : 'e1' });
}

export const SessionParams = z.object({ sessionId: pathId('sessionId') });
export const FactParams = z.object({ sessionId: pathId('sessionId'), factId: pathId('factId') });
export const EventParams = z.object({ sessionId: pathId('sessionId'), eventId: pathId('eventId') });

/** A whole number written in a query string ("10"), as a number. */
export function queryWhole(name: string, description: string) {
  return z
    .string()
    .regex(/^[0-9]{1,9}$/u, `${name} must be a whole number such as 10`)
    .transform(Number)
    .openapi({ param: { name, in: 'query' }, description, example: '10' });
}

/** The query of a list: `limit` (its default told in `limitDescription`) and `offset`. */
export function pageQuery(limitDescription: string) {
  return z.object({ limit: queryWhole('limit', limitDescription).optional(), offset: queryWhole('offset', 'Skip this many (default 0).').optional() });
}

/** A page's `limit` and `offset`, as given (absent when not). */
export function pageOf(query: { limit?: number | undefined; offset?: number | undefined }): { limit?: number; offset?: number } {
  return { ...(query.limit === undefined ? {} : { limit: query.limit }), ...(query.offset === undefined ? {} : { offset: query.offset }) };
}

/** A JSON request body, required. */
export function jsonBody<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, required: true, description };
}

/** A JSON response. */
export function jsonAnswer<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

/** The error answers every `/api` route may give besides its own. */
export const ERROR_ANSWERS = {
  400: jsonAnswer(ErrorSchema, 'The request is malformed; the message names the field.'),
  401: jsonAnswer(ErrorSchema, 'No valid API key.'),
  404: jsonAnswer(ErrorSchema, 'No such session (or it belongs to another tenant).'),
} as const;

/** One side of a turn: its text, or its text with the speaker's name. */
export const MessageInputSchema = z
  .union([z.string(), z.object({ content: z.string(), speaker: z.string().nullable().optional() })], { error: 'expected the text, or { "content": text, "speaker": name }' })
  .openapi('MessageInput');

/** One step of an agent's tool use in a turn (see `ToolStepInput`). */
export const ToolStepSchema = z
  .object({
    text: z.string().optional().openapi({ description: 'What the assistant said along with its calls.' }),
    calls: z
      .array(
        z.object({
          id: z.string().min(1),
          name: z.string().min(1),
          arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).openapi({ description: 'JSON text as the model wrote it, or an object.' }),
          result: z.string().openapi({ description: 'What the tool returned.' }),
        }),
      )
      .min(1),
  })
  .openapi('ToolStep');

/** A `GET` of something a session holds, answered as JSON. */
export function sessionRead<T extends z.ZodType>(options: { path: string; tags: string[]; summary: string; answer: T; description: string }) {
  return createRoute({
    method: 'get',
    path: options.path,
    tags: options.tags,
    summary: options.summary,
    request: { params: SessionParams },
    responses: { 200: jsonAnswer(options.answer, options.description), ...ERROR_ANSWERS },
  });
}
