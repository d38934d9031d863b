import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 that plays a script: each request to
 * `POST /v1/chat/completions` or `POST /v1/embeddings` consumes the next step. Streams are real SSE.
 * `GET /v1/models` lists one model, `scripted-model`, without consuming a step.
 */

/** What a malformed reply looks like. For chat it is the model's text; for embeddings the HTTP body. */
export type Malformation = 'truncated' | 'not-json' | 'wrong-shape';

export interface ScriptedUsage {
  promptTokens: number;
  completionTokens: number;
}

/** One scripted answer. Any step may wait `delayMs` before it starts answering. */
export type ScriptedStep = (
  | { reply: string; finishReason?: string; usage?: ScriptedUsage }
  | { json: unknown; usage?: ScriptedUsage }
  | { malformed: Malformation }
  | { raw: string; contentType?: string }
  | { status: number; retryAfter?: number; body?: unknown }
  | { slowStream: { chunks: readonly string[]; intervalMs: number } }
  | { gatedStream: { before: readonly string[]; gate: PromiseLike<unknown>; after: readonly string[] } }
  | { vectors: readonly (readonly number[])[] }
  | { hang: true }
  | { destroy: true }
) & { delayMs?: number };

export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

/** A step, or a function that picks the step from the request. */
export type ScriptEntry = ScriptedStep | ((request: RecordedRequest) => ScriptedStep);

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every request received, in order, including retries (title requests answered in `auto` mode apart). */
  requests: RecordedRequest[];
  /** Title requests answered without a step (`titles: 'auto'`). */
  titleRequests: RecordedRequest[];
  /** What the server could not answer from the script (no step left, a step that does not fit). Should stay empty. */
  problems: string[];
  /** Append steps to the script. */
  push(...steps: ScriptEntry[]): void;
  /** Steps not consumed yet. */
  remaining(): number;
  /** Stop: ends hanging and streaming responses and destroys open sockets. */
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  script?: readonly ScriptEntry[];
  /**
   * How a memory model's title request (after a session's first turn) is answered: `auto` (default)
   * answers `{"title": "Scripted conversation"}` without consuming a step or entering `requests` (it is
   * kept in `titleRequests`), so scripts need not know of it; `script` treats it like any request.
   */
  titles?: 'auto' | 'script';
}

/** The title a scripted server gives in `auto` mode. */
export const SCRIPTED_TITLE = 'Scripted conversation';

/** Whether a request is a memory model's title request (see `session-title-prompt.ts`). */
function isTitleRequest(body: unknown): boolean {
  const messages = (body as { messages?: Array<{ role?: unknown; content?: unknown }> } | null)?.messages ?? [];
  return messages.some((message) => message.role === 'user' && typeof message.content === 'string' && message.content.startsWith('Name this conversation.'));
}

const MALFORMED_TEXT: Readonly<Record<Malformation, string>> = {
  truncated: '{"userSummary": "The user asked about the deploy', // cut mid-string
  'not-json': 'Sure! Here is a summary of the conversation you asked for.',
  'wrong-shape': '{"unexpected": ["this", "is", "not", "the", "schema"]}',
};

const MALFORMED_EMBEDDINGS: Readonly<Record<Malformation, string>> = {
  truncated: '{"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": [0.1, 0.2',
  'not-json': 'this is not json',
  'wrong-shape': '{"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": "oops"}]}',
};

const CHAT_PATH = '/v1/chat/completions';
const EMBEDDINGS_PATH = '/v1/embeddings';
const MODELS_PATH = '/v1/models';

function wordCount(text: string): number {
  return text.split(/\s+/u).filter((word) => word !== '').length;
}

/** Default prompt tokens: words across the request's message contents. */
function promptWords(body: unknown): number {
  const messages = (body as { messages?: Array<{ content?: unknown }> } | null)?.messages ?? [];
  return messages.reduce((total, message) => total + (typeof message.content === 'string' ? wordCount(message.content) : 0), 0);
}

/** A reply split into pieces that keep their leading whitespace, so joining them gives the reply back. */
function pieces(text: string): string[] {
  return text.match(/\s*\S+\s*$|\s*\S+/gu) ?? (text === '' ? [] : [text]);
}

function delay(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

function completion(model: string, text: string, finishReason: string, usage: ScriptedUsage): unknown {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }],
    usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens },
  };
}

function chunk(model: string, choices: unknown[], usage?: ScriptedUsage): string {
  const value = {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices,
    ...(usage === undefined ? {} : { usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens } }),
  };
  return `data: ${JSON.stringify(value)}\n\n`;
}

function deltaChunk(model: string, content: string): string {
  return chunk(model, [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }]);
}

function embeddingsBody(model: string, vectors: readonly (readonly number[])[], body: unknown, usage: number): unknown {
  const base64 = (body as { encoding_format?: unknown } | null)?.encoding_format === 'base64';
  return {
    object: 'list',
    model,
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    })),
    usage: { prompt_tokens: usage, total_tokens: usage },
  };
}

/** The text a chat step answers with, or null for steps that are not a chat reply. */
function replyText(step: ScriptedStep): string[] | null {
  if ('reply' in step) return pieces(step.reply);
  if ('json' in step) return [JSON.stringify(step.json)];
  if ('malformed' in step) return pieces(MALFORMED_TEXT[step.malformed]);
  if ('slowStream' in step) return [...step.slowStream.chunks];
  if ('gatedStream' in step) return [...step.gatedStream.before, ...step.gatedStream.after];
  return null;
}

export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const script: ScriptEntry[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const titleRequests: RecordedRequest[] = [];
  const problems: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const refuse = (response: ServerResponse, problem: string): void => {
    problems.push(problem);
    sendJson(response, 400, { error: { message: `scripted server: ${problem}`, type: 'scripted_server_error' } }, { 'x-should-retry': 'false' });
  };

  /** Wait, unless the server closes first (then the response is gone anyway). */
  const wait = (ms: number): Promise<void> => delay(ms, timers);
  const open = (response: ServerResponse): boolean => !closed && !response.destroyed;

  async function answerChat(step: ScriptedStep, request: RecordedRequest, response: ServerResponse): Promise<void> {
    const body = request.body as { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } } | null;
    const model = typeof body?.model === 'string' ? body.model : 'scripted-model';
    const texts = replyText(step);
    if (texts === null) {
      refuse(response, `a ${Object.keys(step).join('/')} step cannot answer ${CHAT_PATH}`);
      return;
    }
    const whole = texts.join('');
    const finishReason = 'reply' in step ? (step.finishReason ?? 'stop') : 'stop';
    const usage = ('reply' in step || 'json' in step ? step.usage : undefined) ?? { promptTokens: promptWords(body), completionTokens: wordCount(whole) };
    if (body?.stream !== true) {
      if ('gatedStream' in step) await step.gatedStream.gate;
      if ('slowStream' in step) await wait(step.slowStream.intervalMs * step.slowStream.chunks.length);
      if (open(response)) sendJson(response, 200, completion(model, whole, finishReason, usage));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (text: string): void => {
      if (open(response)) response.write(text);
    };
    const gated = 'gatedStream' in step ? step.gatedStream : undefined;
    for (const [index, text] of texts.entries()) {
      if (gated !== undefined && index === gated.before.length) await gated.gate;
      if ('slowStream' in step && index > 0) await wait(step.slowStream.intervalMs);
      send(deltaChunk(model, text));
    }
    send(chunk(model, [{ index: 0, delta: {}, finish_reason: finishReason }]));
    if (body.stream_options?.include_usage === true) send(chunk(model, [], usage));
    send('data: [DONE]\n\n');
    if (open(response)) response.end();
  }

  function answerEmbeddings(step: ScriptedStep, request: RecordedRequest, response: ServerResponse): void {
    const body = request.body as { model?: unknown; input?: unknown } | null;
    const model = typeof body?.model === 'string' ? body.model : 'scripted-embedder';
    const input = Array.isArray(body?.input) ? body.input : [body?.input];
    if ('malformed' in step) {
      sendJson(response, 200, MALFORMED_EMBEDDINGS[step.malformed]);
      return;
    }
    if (!('vectors' in step)) {
      refuse(response, `a ${Object.keys(step).join('/')} step cannot answer ${EMBEDDINGS_PATH}`);
      return;
    }
    const words = input.reduce((total: number, text) => total + (typeof text === 'string' ? wordCount(text) : 0), 0);
    sendJson(response, 200, embeddingsBody(model, step.vectors, body, words));
  }

  /** Steps that behave the same on every endpoint; true when the step was one of them. */
  async function answerFault(step: ScriptedStep, request: RecordedRequest, response: ServerResponse, socket: Socket): Promise<boolean> {
    if ('hang' in step) return true; // never answered; close() ends it
    if ('status' in step) {
      const headers: Record<string, string> = step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter) };
      sendJson(response, step.status, step.body ?? { error: { message: `scripted status ${step.status}`, type: 'scripted_error', code: null } }, headers);
      return true;
    }
    if ('raw' in step) {
      const streaming = (request.body as { stream?: unknown } | null)?.stream === true;
      response.writeHead(200, { 'content-type': step.contentType ?? (streaming ? 'text/event-stream' : 'application/json') });
      response.end(step.raw);
      return true;
    }
    if ('destroy' in step) {
      const streaming = (request.body as { stream?: unknown } | null)?.stream === true;
      if (streaming) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(deltaChunk('scripted-model', 'Partial'));
      } else {
        const text = JSON.stringify(completion('scripted-model', 'A reply cut off by a dropped connection.', 'stop', { promptTokens: 1, completionTokens: 1 }));
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        response.write(text.slice(0, Math.floor(text.length / 2)));
      }
      // Give the written bytes a moment to leave before the socket goes.
      await wait(20);
      socket.destroy();
      return true;
    }
    return false;
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    const request: RecordedRequest = { method: incoming.method ?? 'GET', path, headers: incoming.headers, body: await readBody(incoming) };
    if (options.titles !== 'script' && path === CHAT_PATH && isTitleRequest(request.body)) {
      titleRequests.push(request);
      sendJson(response, 200, completion('scripted-model', JSON.stringify({ title: SCRIPTED_TITLE }), 'stop', { promptTokens: promptWords(request.body), completionTokens: 2 }));
      return;
    }
    requests.push(request);
    if (request.method === 'GET' && path === MODELS_PATH) {
      // Answered without a step: a client lists models before it chats.
      sendJson(response, 200, { object: 'list', data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'scripted' }] });
      return;
    }
    if (request.method !== 'POST' || (path !== CHAT_PATH && path !== EMBEDDINGS_PATH)) {
      problems.push(`unexpected ${request.method} ${path}`);
      sendJson(response, 404, { error: { message: `scripted server: no route ${request.method} ${path}` } });
      return;
    }
    const entry = script.shift();
    if (entry === undefined) {
      refuse(response, `no step left for request #${requests.length} (${path})`);
      return;
    }
    const step = typeof entry === 'function' ? entry(request) : entry;
    if (step.delayMs !== undefined) await wait(step.delayMs);
    if (!open(response)) return;
    if (await answerFault(step, request, response, incoming.socket)) return;
    if (path === CHAT_PATH) await answerChat(step, request, response);
    else answerEmbeddings(step, request, response);
  }

  const server: Server = createServer({ noDelay: true }, (incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      problems.push(`handler failed: ${String(error)}`);
      if (open(response) && !response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    titleRequests,
    problems,
    push: (...steps) => {
      script.push(...steps);
    },
    remaining: () => script.length,
    close: async () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A base URL where nothing listens: a port that was bound and released. */
export async function refusedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
