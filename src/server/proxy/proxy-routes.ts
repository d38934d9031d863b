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
 * call beside its result. With a package in place of the history, the detail protocol is on (unless
 * `detailRounds` is 0): the model may ask for a message in full or a search, as a marker or through the
 * detail tools (detail-exchange.ts), and is asked again; the client sees only the reply that stands.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { validateBudget } from '../../context/assembler.js';
import { StrataError } from '../../core/errors.js';
import type { Memory, SessionHandle } from '../../memory/memory-api.js';
import type { BackgroundWork } from '../background-work.js';
import { nodeResponseOf, responseSent } from '../response-sent.js';
import type { ServerEnv } from '../server-env.js';
import { describeIssues } from '../validation-hook.js';
import { toOpenAiMessages } from '../../core/openai-messages.js';
import type { DetailRequestRecord } from '../../core/types.js';
import { ChatBodySchema, splitMessages, toolSteps, type ChatBody, type SplitMessages } from './chat-request.js';
import { DetailExchange } from './detail-exchange.js';
import { answerPlain } from './detail-plain.js';
import { streamWithDetail } from './detail-stream.js';
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
    // The turn is recorded once the answer has left, so its memory work never delays the answer's end.
    const sent = responseSent(nodeResponseOf(c.env));
    const turn: ProxiedTurn = {
      body,
      split,
      sessionId,
      send: (payload, whole) => callUpstream({ endpoint, path: '/chat/completions', body: { ...payload, model: payload.model ?? endpoint.model }, signal: c.req.raw.signal, fetch: options.fetch, whole }),
      remember: (reply, detailRequests = []) => {
        if (!reply.finished || reply.toolCalls || split.userText.trim() === '' || reply.text.trim() === '') return;
        background.run(work, async () => {
          await sent;
          await rememberTurn(tenant, sessionId, { history: split.history, user: split.userText, tools: toolSteps(split.current), assistant: reply.text, detailRequests });
        });
      },
    };
    const rounds = memory.settings.detailRounds;
    // (With several choices, n > 1, the protocol is off: each choice would need rounds of its own.)
    if (session === null || rounds === 0 || (typeof body.n === 'number' && body.n > 1)) return answerAsIs(turn, session, budget);
    // The package stands in for the history: the model may ask for more of it (the detail protocol).
    return answerWithDetail(turn, new DetailExchange({ session, tokenizer: memory.tokenizer, setting: memory.settings.detailProtocol, rounds, budget, split, body }));
  });
}

/** One proxied request on its way: how to call the upstream, and how to remember the turn once answered. */
interface ProxiedTurn {
  body: ChatBody;
  split: SplitMessages;
  sessionId: string;
  send(payload: ChatBody, whole: boolean): Promise<Response>;
  remember(reply: CapturedReply, detailRequests?: DetailRequestRecord[]): void;
}

/** The package in place of the history (when the session has turns), the upstream's answer passed back unchanged. */
async function answerAsIs(turn: ProxiedTurn, session: SessionHandle | null, budget: number): Promise<Response> {
  const { body, split, sessionId } = turn;
  const stream = body.stream === true;
  const query = split.userText.trim() === '' ? {} : { query: split.userText };
  const messages = session === null ? body.messages : [...split.system, ...toOpenAiMessages((await session.context({ budget, ...query })).render()), ...split.current];
  const upstream = await turn.send({ ...body, messages }, !stream);
  const headers = { ...passedHeaders(upstream), [SESSION_HEADER]: sessionId };
  if (!upstream.ok || upstream.body === null) return new Response(upstream.body, { status: upstream.status, headers });
  if (stream) {
    const captured = captureStream(upstream.body);
    void captured.reply.then((reply) => turn.remember(reply));
    return new Response(captured.body, { status: upstream.status, headers: { ...headers, 'cache-control': 'no-cache' } });
  }
  const text = await upstream.text();
  turn.remember(completionReply(text));
  return new Response(text, { status: upstream.status, headers });
}

/** The upstream asked round by round while it asks for detail; the client gets the reply that stands. */
async function answerWithDetail(turn: ProxiedTurn, exchange: DetailExchange): Promise<Response> {
  if (turn.body.stream !== true) {
    const answered = await answerPlain(exchange, (payload) => turn.send(payload, true));
    turn.remember(answered.reply, exchange.records);
    answered.response.headers.set(SESSION_HEADER, turn.sessionId);
    return answered.response;
  }
  const first = await turn.send(await exchange.body(), false);
  const headers = { ...passedHeaders(first), [SESSION_HEADER]: turn.sessionId };
  if (!first.ok || first.body === null) return new Response(first.body, { status: first.status, headers });
  const streamed = streamWithDetail(exchange, first, (payload) => turn.send(payload, false));
  void streamed.reply.then((reply) => turn.remember(reply, exchange.records));
  return new Response(streamed.body, { status: first.status, headers: { ...headers, 'cache-control': 'no-cache' } });
}
