/**
 * The OpenAI-compatible memory proxy: `POST /v1/chat/completions` (plain and streamed) and
 * `GET /v1/models`, in front of the configured chat endpoint. A request's history is replaced by the
 * session's context package (the client's system messages stay first, the exchange in progress is sent
 * as it is); the upstream's answer goes back unchanged, with `X-Strata-Session`; once it has ended, the
 * new user message and the reply are recorded as a turn. A reply that only asks for tool calls records
 * nothing yet: the turn ends when the client comes back with their results and the model answers.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { StrataError } from '../../core/errors.js';
import type { Memory, SessionHandle } from '../../memory/memory-api.js';
import type { BackgroundWork } from '../background-work.js';
import type { ServerEnv } from '../server-env.js';
import { ChatBodySchema, splitMessages, type ChatBody } from './chat-request.js';
import { proxySession } from './proxy-session.js';
import { captureStream } from './stream-capture.js';
import { callUpstream, type Fetch } from './upstream.js';

export interface ProxyOptions {
  memory: Memory;
  background: BackgroundWork;
  fetch: Fetch;
}

const SESSION_HEADER = 'x-strata-session';

/** The request's budget: `X-Strata-Budget`, else the memory's `contextBudget` setting. */
function budgetOf(header: string | undefined, fallback: number): number {
  if (header === undefined) return fallback;
  if (!/^[0-9]{1,9}$/u.test(header.trim())) throw new StrataError('INVALID_INPUT', `X-Strata-Budget must be a whole number of tokens (got "${header.slice(0, 40)}").`);
  return Number(header.trim());
}

async function parseBody(request: Request): Promise<ChatBody> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new StrataError('INVALID_INPUT', 'The request body is not valid JSON.');
  }
  const parsed = ChatBodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StrataError('INVALID_INPUT', `Invalid chat request: body.${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}

/** The reply text of a plain (not streamed) completion, and whether it asked for tool calls. */
function completionReply(text: string): { text: string; toolCalls: boolean } {
  try {
    const message = (JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown } }> }).choices?.[0]?.message;
    return { text: typeof message?.content === 'string' ? message.content : '', toolCalls: Array.isArray(message?.tool_calls) && message.tool_calls.length > 0 };
  } catch {
    return { text: '', toolCalls: false };
  }
}

export function registerProxyRoutes(app: OpenAPIHono<ServerEnv>, options: ProxyOptions): void {
  const { memory, background } = options;

  app.get('/v1/models', async (c) => {
    const endpoint = memory.chatEndpoint();
    const answer = await callUpstream({ endpoint, path: '/models', signal: c.req.raw.signal, fetch: options.fetch });
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': answer.headers.get('content-type') ?? 'application/json' } });
  });

  app.post('/v1/chat/completions', async (c) => {
    const endpoint = memory.chatEndpoint();
    const body = await parseBody(c.req.raw);
    const budget = budgetOf(c.req.header('x-strata-budget'), memory.settings.contextBudget);
    const split = splitMessages(body.messages);
    const session = await proxySession(c.var.tenant, { header: c.req.header(SESSION_HEADER), query: c.req.query('session'), user: body.user }, split.history, split.userText);
    // The previous reply of this session is recorded first (up to the memory's wait bound), so the package holds it.
    await background.idle(session.id, memory.settings.memoryWaitMs);
    const pkg = await session.context({ budget, ...(split.userText.trim() === '' ? {} : { query: split.userText }) });
    const messages = [...split.system, ...pkg.render(), ...split.current];
    const upstream = await callUpstream({ endpoint, path: '/chat/completions', body: { ...body, model: body.model ?? endpoint.model, messages }, signal: c.req.raw.signal, fetch: options.fetch });
    const headers = { 'content-type': upstream.headers.get('content-type') ?? 'application/json', [SESSION_HEADER]: session.id };
    if (!upstream.ok || upstream.body === null) return new Response(upstream.body, { status: upstream.status, headers });
    const remember = (reply: { text: string; toolCalls: boolean }): void => {
      if (reply.toolCalls || split.userText.trim() === '' || reply.text.trim() === '') return;
      background.run(session.id, () => recordTurn(session, split.userText, reply.text));
    };
    if (body.stream === true) {
      const { body: stream, reply } = captureStream(upstream.body);
      void reply.then((captured) => {
        if (captured.finished) remember(captured);
      });
      return new Response(stream, { status: upstream.status, headers: { ...headers, 'cache-control': 'no-cache' } });
    }
    const text = await upstream.text();
    remember(completionReply(text));
    return new Response(text, { status: upstream.status, headers });
  });
}

async function recordTurn(session: SessionHandle, user: string, assistant: string): Promise<void> {
  await session.record({ user, assistant });
}
