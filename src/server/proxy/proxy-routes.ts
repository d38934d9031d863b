/**
 * The OpenAI-compatible memory proxy: `POST /v1/chat/completions` (plain and streamed) and
 * `GET /v1/models`, in front of the configured chat endpoint. For a session with turns, the history a
 * request carries is replaced by the session's context package (the client's system messages stay
 * first, the exchange from the last user message on is sent as it is, so a tool call is never separated
 * from its results); a session with none yet gets the client's messages unchanged. The upstream's answer
 * goes back unchanged with `X-Strata-Session`. Only once it has been sent whole is anything written: the
 * user message, the exchange's tool calls with their results, and the reply as a turn (after the
 * client's history, for a new session). A reply that only asks for tool calls records nothing yet: the
 * turn ends when the model answers their results. Packages go upstream in the OpenAI format, a stored
 * call beside its result.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { validateBudget } from '../../context/assembler.js';
import { StrataError } from '../../core/errors.js';
import type { Memory } from '../../memory/memory-api.js';
import type { BackgroundWork } from '../background-work.js';
import { nodeResponseOf, responseSent } from '../response-sent.js';
import type { ServerEnv } from '../server-env.js';
import { describeIssues } from '../validation-hook.js';
import { toOpenAiMessages } from '../../core/openai-messages.js';
import { ChatBodySchema, splitMessages, toolSteps, type ChatBody } from './chat-request.js';
import { rememberedSession, rememberTurn, sessionIdOf } from './proxy-session.js';
import { captureStream, completionReply, type CapturedReply } from './stream-capture.js';
import { callUpstream, passedHeaders, type Fetch } from './upstream.js';

export interface ProxyOptions {
  memory: Memory;
  background: BackgroundWork;
  fetch: Fetch;
  newId: () => string;
}

const SESSION_HEADER = 'x-strata-session';

/** The request's budget: `X-Strata-Budget`, else the memory's `contextBudget` setting. */
function budgetOf(header: string | undefined, fallback: number): number {
  if (header === undefined) return fallback;
  const text = header.trim();
  if (!/^[0-9]{1,9}$/u.test(text)) throw new StrataError('INVALID_INPUT', `X-Strata-Budget must be a whole number of tokens (got "${text.slice(0, 40)}").`);
  return validateBudget(Number(text));
}

async function parseBody(request: Request): Promise<ChatBody> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new StrataError('INVALID_INPUT', 'The request body is not valid JSON.');
  }
  const parsed = ChatBodySchema.safeParse(body);
  if (!parsed.success) throw new StrataError('INVALID_INPUT', describeIssues(parsed.error.issues, 'body'));
  return parsed.data;
}

export function registerProxyRoutes(app: OpenAPIHono<ServerEnv>, options: ProxyOptions): void {
  const { memory, background } = options;

  app.get('/v1/models', async (c) => {
    const endpoint = memory.chatEndpoint();
    const answer = await callUpstream({ endpoint, path: '/models', signal: c.req.raw.signal, fetch: options.fetch, whole: true });
    return new Response(answer.body, { status: answer.status, headers: passedHeaders(answer) });
  });

  app.post('/v1/chat/completions', async (c) => {
    const endpoint = memory.chatEndpoint();
    const body = await parseBody(c.req.raw);
    const budget = budgetOf(c.req.header('x-strata-budget'), memory.settings.contextBudget);
    const split = splitMessages(body.messages);
    const tenant = c.var.tenant;
    const sessionId = sessionIdOf({ header: c.req.header(SESSION_HEADER), query: c.req.query('session'), user: body.user }, options.newId);
    const work = `${tenant.tenantId}\u0000${sessionId}`;
    // The session's previous reply is recorded first (up to the memory's wait bound), so the package holds it.
    await background.idle(work, memory.settings.memoryWaitMs);
    const session = await rememberedSession(tenant, sessionId);
    const query = split.userText.trim() === '' ? {} : { query: split.userText };
    const messages = session === null ? body.messages : [...split.system, ...toOpenAiMessages((await session.context({ budget, ...query })).render()), ...split.current];
    const stream = body.stream === true;
    const upstream = await callUpstream({ endpoint, path: '/chat/completions', body: { ...body, model: body.model ?? endpoint.model, messages }, signal: c.req.raw.signal, fetch: options.fetch, whole: !stream });
    const headers = { ...passedHeaders(upstream), [SESSION_HEADER]: sessionId };
    if (!upstream.ok || upstream.body === null) return new Response(upstream.body, { status: upstream.status, headers });
    // The turn is recorded once the answer has left, so its memory work never delays the answer's end.
    const sent = responseSent(nodeResponseOf(c.env));
    const remember = (reply: CapturedReply): void => {
      if (!reply.finished || reply.toolCalls || split.userText.trim() === '' || reply.text.trim() === '') return;
      background.run(work, async () => {
        await sent;
        await rememberTurn(tenant, sessionId, { history: split.history, user: split.userText, tools: toolSteps(split.current), assistant: reply.text });
      });
    };
    if (stream) {
      const captured = captureStream(upstream.body);
      void captured.reply.then(remember);
      return new Response(captured.body, { status: upstream.status, headers: { ...headers, 'cache-control': 'no-cache' } });
    }
    const text = await upstream.text();
    remember(completionReply(text));
    return new Response(text, { status: upstream.status, headers });
  });
}
