/**
 * The chat loop over HTTP: `GET /api/chat-model` says whether a chat model is configured, and
 * `POST /api/sessions/{sessionId}/chat` runs one live turn (`session.chat`, no tools), its reply streamed
 * as Server-Sent Events. Whatever can fail before the reply's first piece (an unknown session, a bad
 * body, no chat model, a model that refuses the call) is answered as a JSON error; only then does the
 * stream begin. The turn's work is held by the server's background work, so a stop lets it finish.
 */
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { isStrataError } from '../../core/errors.js';
import type { Memory } from '../../memory/memory-api.js';
import type { BackgroundWork } from '../background-work.js';
import { CHAT_EVENTS_DESCRIPTION, writeChatEvents } from '../chat-event-stream.js';
import { ErrorSchema } from '../domain-schemas.js';
import { ERROR_ANSWERS, jsonAnswer, jsonBody, SessionParams } from '../request-schemas.js';
import type { ServerEnv } from '../server-env.js';

const TAG = ['Chat'];

/** The answer of `GET /api/chat-model` (the web app takes its type from here). */
export const ChatModelSchema = z
  .union([
    z.object({ configured: z.literal(true), model: z.string().openapi({ example: 'gpt-4o-mini' }) }),
    z.object({ configured: z.literal(false), problem: z.string().openapi({ description: 'What to set to configure one (STRATA_CHAT_MODEL …).' }) }),
  ])
  .openapi('ChatModelStatus');

const chatModel = createRoute({
  method: 'get',
  path: '/api/chat-model',
  tags: TAG,
  summary: 'The chat model the chat route answers with, or what to set when there is none',
  responses: { 200: jsonAnswer(ChatModelSchema, 'The model, or the problem.'), 401: ERROR_ANSWERS[401] },
});

const ChatBodySchema = z.object({
  message: z
    .string()
    .refine((text) => text.trim() !== '', { message: 'must not be empty' })
    .openapi({ description: "The user's message.", example: 'What did we settle on for the budget?' }),
  budget: z.number().int().min(1).optional().openapi({ description: 'Token budget of the context package (default: the `contextBudget` setting).' }),
});

const chat = createRoute({
  method: 'post',
  path: '/api/sessions/{sessionId}/chat',
  tags: TAG,
  summary: 'One live chat turn: the reply streamed as Server-Sent Events, then the turn stored and remembered',
  request: { params: SessionParams, body: jsonBody(ChatBodySchema, 'The message, and optionally the budget.') },
  responses: {
    200: { content: { 'text/event-stream': { schema: z.string().openapi({ description: CHAT_EVENTS_DESCRIPTION }) } }, description: CHAT_EVENTS_DESCRIPTION },
    ...ERROR_ANSWERS,
    408: jsonAnswer(ErrorSchema, 'The request was cancelled before the reply began.'),
    429: jsonAnswer(ErrorSchema, 'The chat model is rate limited.'),
    502: jsonAnswer(ErrorSchema, 'The chat model failed or gave no usable reply before the stream began; nothing was stored.'),
    503: jsonAnswer(ErrorSchema, 'No chat model is configured; the message names the variables to set.'),
    504: jsonAnswer(ErrorSchema, 'The chat model did not answer in time.'),
  },
});

export interface ChatRouteOptions {
  memory: Memory;
  background: BackgroundWork;
  /** Told of failures that are not the caller's doing, once the stream has begun. */
  onUnexpected: (error: unknown, requestId: string) => void;
}

/** Register `GET /api/chat-model` and `POST /api/sessions/{sessionId}/chat` (behind the `/api` key check). */
export function registerChatRoutes(app: OpenAPIHono<ServerEnv>, options: ChatRouteOptions): void {
  const { memory, background } = options;
  app.openapi(chatModel, (c) => {
    try {
      return c.json({ configured: true as const, model: memory.chatModelName() }, 200);
    } catch (error) {
      if (!isStrataError(error, 'MODEL_NOT_CONFIGURED')) throw error;
      return c.json({ configured: false as const, problem: error.message }, 200);
    }
  });
  app.openapi(chat, async (c) => {
    const handle = await c.var.tenant.sessions.open(c.req.valid('param').sessionId);
    const { message, budget } = c.req.valid('json');
    const requestId = c.get('requestId');
    // Cancelled when the client goes: before the stream begins by the request's signal, after by the stream's.
    const cancel = new AbortController();
    const signal = AbortSignal.any([cancel.signal, c.req.raw.signal]);
    const stream = handle.chat(message, { stream: true, signal, ...(budget === undefined ? {} : { budget }) });
    const iterator = stream[Symbol.asyncIterator]();
    // The first piece (or the failure) before any byte is sent, so an early failure is a JSON error.
    const first = await iterator.next();
    if (first.done === true) await stream.result;
    const taken = first.done === true ? [] : [first.value];
    return streamSSE(c, async (sse) => {
      sse.onAbort(() => cancel.abort());
      await background.hold(() => writeChatEvents(sse, { stream, iterator, taken, unexpected: (error) => options.onUnexpected(error, requestId) }));
    });
  });
}
