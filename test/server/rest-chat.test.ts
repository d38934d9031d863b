import { request } from 'node:http';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptEntry } from '../support/scripted-openai-server.js';
import { allEvents, serverSentEvents, type ServerSentEvent } from './event-stream.js';
import { proxyRig, type ProxyRig } from './proxy-fixtures.js';
import { testServer } from './server-fixtures.js';

const rigs: ProxyRig[] = [];

afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.close()));
});

/** A running server whose memory's chat model is a scripted OpenAI-compatible server. */
async function rig(script: ScriptEntry[] = []): Promise<ProxyRig> {
  const made = await proxyRig(script);
  rigs.push(made);
  return made;
}

/** A request to the running server, with the rig's key unless `key` says otherwise (null: none). */
function send(made: ProxyRig, method: string, path: string, options: { body?: unknown; key?: string | null } = {}): Promise<Response> {
  const key = options.key === undefined ? made.key : options.key;
  return fetch(`${made.server.url}${path}`, {
    method,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

/** The body of a chat request sent on a connection of its own (no pool), so that cancelling it closes that connection. */
function chatBody(made: ProxyRig, sessionId: string, message: string): Promise<ReadableStream<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${made.key}`, 'content-type': 'application/json' };
    const sent = request(`${made.server.url}/api/sessions/${sessionId}/chat`, { method: 'POST', agent: false, headers }, (answer) => resolve(Readable.toWeb(answer) as ReadableStream<Uint8Array>));
    sent.on('error', reject);
    sent.end(JSON.stringify({ message }));
  });
}

async function newSession(made: ProxyRig): Promise<string> {
  const answer = await send(made, 'POST', '/api/sessions', { body: { title: 'Kitchen', instructions: 'Answer in British English.' } });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

/** A chat turn's answer, which must be an event stream; its events once it has ended. */
async function chatEvents(made: ProxyRig, sessionId: string, body: unknown): Promise<ServerSentEvent[]> {
  const answer = await send(made, 'POST', `/api/sessions/${sessionId}/chat`, { body });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/u);
  return allEvents(answer.body as ReadableStream<Uint8Array>);
}

const REPLY = 'Noted: £18,000 in total, with Dariusz starting on 3 March.';
const USER = 'Our budget for the kitchen is £18,000 all in, and the fitter, Dariusz, starts on Monday 3 March.';

describe('REST chat: POST /api/sessions/{sessionId}/chat', () => {
  it('streams the reply piece by piece, then says the turn is stored, then that its memory is written', async () => {
    const made = await rig([{ reply: REPLY }, { reply: 'Dariusz starts on 3 March.' }]);
    const sessionId = await newSession(made);
    const events = await chatEvents(made, sessionId, { message: USER, budget: 4000 });
    const names = events.map((event) => event.event);
    expect(names.slice(-2)).toEqual(['stored', 'memory']);
    const replies = events.slice(0, -2);
    expect(replies.length).toBeGreaterThan(1);
    expect(replies.every((event) => event.event === 'reply')).toBe(true);
    expect(replies.map((event) => event.data.text).join('')).toBe(REPLY);

    const stored = events[events.length - 2]?.data;
    expect(stored).toMatchObject({ turn: 1, budget: 4000, staleMemory: false });
    expect(stored.messageIds).toHaveLength(2);
    expect(stored.contextTokens).toBeGreaterThan(0);
    expect(stored.contextTokens).toBeLessThanOrEqual(4000);
    expect(events[events.length - 1]?.data).toEqual({ turn: 1, status: 'summarised', problem: null });

    const messages = (await (await send(made, 'GET', `/api/sessions/${sessionId}/messages`)).json()) as { messages: Array<{ id: string; role: string; content: string }> };
    expect(messages.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', USER],
      ['assistant', REPLY],
    ]);
    expect(messages.messages.map((message) => message.id)).toEqual(stored.messageIds);

    const second = await chatEvents(made, sessionId, { message: 'When does Dariusz start?' });
    const storedAgain = second.find((event) => event.event === 'stored')?.data;
    expect(storedAgain.turn).toBe(2);
    expect(storedAgain.contextTokens).toBeGreaterThan(stored.contextTokens);
    expect(second[second.length - 1]).toEqual({ event: 'memory', data: { turn: 2, status: 'summarised', problem: null } });
    // The second call was sent the package, which holds the first turn.
    expect(JSON.stringify(made.upstream.requests[1]?.body)).toContain('£18,000');
  });

  it('passes each piece on as the model writes it, not once the reply is complete', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const made = await rig([{ gatedStream: { before: ['The fitter ', 'is Dariusz'], gate, after: [', from 3 March.'] } }]);
    const sessionId = await newSession(made);
    const answer = await send(made, 'POST', `/api/sessions/${sessionId}/chat`, { body: { message: 'Who is the fitter?' } });
    const seen: ServerSentEvent[] = [];
    for await (const event of serverSentEvents(answer.body as ReadableStream<Uint8Array>)) {
      seen.push(event);
      // Two pieces arrived while the model is held mid-reply: let it finish.
      if (seen.length === 2) open();
    }
    expect(seen.map((event) => event.event)).toEqual(['reply', 'reply', 'reply', 'stored', 'memory']);
    expect(seen.slice(0, 3).map((event) => event.data.text)).toEqual(['The fitter ', 'is Dariusz', ', from 3 March.']);
  });

  it('answers a chat model failing before the reply begins (after its retries) as a JSON error, and stores nothing', async () => {
    const failure = { status: 500, retryAfter: 0, body: { error: { message: 'upstream exploded' } } };
    const made = await rig([failure, failure, failure]);
    const sessionId = await newSession(made);
    const answer = await send(made, 'POST', `/api/sessions/${sessionId}/chat`, { body: { message: USER } });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/u);
    const body = (await answer.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('MODEL_FAILURE');
    expect(body.error.message).toContain('upstream exploded');
    expect(made.upstream.remaining()).toBe(0);
    expect(await (await made.memory.sessions.open(sessionId)).messages()).toEqual([]);
  });

  it('ends the stream with an error event when the model fails mid-reply, and stores nothing', async () => {
    const made = await rig([{ destroy: true }]);
    const sessionId = await newSession(made);
    const events = await chatEvents(made, sessionId, { message: USER });
    expect(events[0]).toEqual({ event: 'reply', data: { text: 'Partial' } });
    const last = events[events.length - 1];
    expect(last?.event).toBe('error');
    expect(last?.data.error.code).toMatch(/^MODEL_/u);
    expect(typeof last?.data.error.message).toBe('string');
    expect(events.some((event) => event.event === 'stored')).toBe(false);
    expect(await (await made.memory.sessions.open(sessionId)).messages()).toEqual([]);
  });

  it('cancels the model call when the client goes away mid-reply, so nothing is stored', async () => {
    const chunks = Array.from({ length: 20 }, (_, index) => `piece ${index + 1} `);
    const made = await rig([{ slowStream: { chunks, intervalMs: 40 } }]);
    const sessionId = await newSession(made);
    for await (const event of serverSentEvents(await chatBody(made, sessionId, 'Count slowly.'))) {
      expect(event).toEqual({ event: 'reply', data: { text: 'piece 1 ' } });
      break; // cancels the body: the connection closes
    }
    // Had the call gone on, the whole reply (800 ms) would have been stored by now.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await (await made.memory.sessions.open(sessionId)).messages()).toEqual([]);
  });

  it('lets a turn in flight finish when the server stops', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const made = await rig([{ gatedStream: { before: ['Stopping '], gate, after: ['gracefully.'] } }]);
    const sessionId = await newSession(made);
    const answer = await send(made, 'POST', `/api/sessions/${sessionId}/chat`, { body: { message: 'Say goodbye.' } });
    const seen: string[] = [];
    let stopped: Promise<void> | undefined;
    for await (const event of serverSentEvents(answer.body as ReadableStream<Uint8Array>)) {
      seen.push(event.event);
      if (stopped === undefined) {
        stopped = made.server.close();
        open();
      }
    }
    await stopped;
    expect(seen).toEqual(['reply', 'reply', 'stored', 'memory']);
  });

  it('refuses an unknown session, an empty message, a bad budget and a missing key before anything is sent', async () => {
    const made = await rig();
    const sessionId = await newSession(made);
    const unknown = await send(made, 'POST', '/api/sessions/no-such-session/chat', { body: { message: 'Hello' } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('SESSION_NOT_FOUND');
    for (const body of [{ message: '   ' }, { message: '' }, {}, { message: 'Hi', budget: 0 }, { message: 'Hi', budget: 2.5 }]) {
      const answer = await send(made, 'POST', `/api/sessions/${sessionId}/chat`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      const error = ((await answer.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toMatch(/body\.(message|budget)/u);
    }
    const anonymous = await send(made, 'POST', `/api/sessions/${sessionId}/chat`, { body: { message: 'Hello' }, key: null });
    expect(anonymous.status).toBe(401);
    expect(made.upstream.requests).toEqual([]);
  });

  it("answers another tenant's session exactly as an unknown one", async () => {
    const made = await rig();
    const sessionId = await newSession(made);
    const otherKey = (await made.memory.keys.create({ tenant: 'other', name: 'test' })).key;
    const foreign = await send(made, 'POST', `/api/sessions/${sessionId}/chat`, { body: { message: 'Hello' }, key: otherKey });
    const unknown = await send(made, 'POST', '/api/sessions/no-such-session/chat', { body: { message: 'Hello' }, key: otherKey });
    expect(foreign.status).toBe(404);
    expect((await foreign.text()).replace(sessionId, 'ID')).toBe((await unknown.text()).replace('no-such-session', 'ID'));
    expect(made.upstream.requests).toEqual([]);
  });
});

describe('REST chat: GET /api/chat-model and no chat model', () => {
  it('names the configured model', async () => {
    const made = await rig();
    const answer = await send(made, 'GET', '/api/chat-model');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ configured: true, model: 'scripted-model' });
    expect((await send(made, 'GET', '/api/chat-model', { key: null })).status).toBe(401);
  });

  it('says what to set when there is none, and a chat turn is then a 503 naming the variables', async () => {
    const server = await testServer();
    try {
      const key = await server.keyOf('acme');
      const model = await server.call('GET', '/api/chat-model', { key });
      expect(model.status).toBe(200);
      expect(model.json.configured).toBe(false);
      expect(model.json.problem).toContain('STRATA_CHAT_MODEL');
      const sessionId = (await server.call('POST', '/api/sessions', { key, body: {} })).json.id as string;
      const answer = await server.call('POST', `/api/sessions/${sessionId}/chat`, { key, body: { message: 'Hello' } });
      expect(answer.status).toBe(503);
      expect(answer.json.error.code).toBe('MODEL_NOT_CONFIGURED');
      expect(answer.json.error.message).toContain('STRATA_CHAT_MODEL');
      expect(answer.json.error.message).toBe(model.json.problem);
      expect((await server.call('GET', `/api/sessions/${sessionId}/messages`, { key })).json.messages).toEqual([]);
    } finally {
      await server.cleanup();
    }
  });

  it('documents the stream in the OpenAPI document', async () => {
    const server = await testServer();
    try {
      const doc = (await server.call('GET', '/openapi.json')).json;
      const chat = doc.paths['/api/sessions/{sessionId}/chat'].post;
      expect(Object.keys(chat.responses['200'].content)).toEqual(['text/event-stream']);
      for (const event of ['reply', 'stored', 'memory', 'error']) expect(chat.responses['200'].description).toContain(`event: ${event}`);
      expect(chat.responses['503'].content['application/json']).toBeDefined();
      expect(doc.paths['/api/chat-model'].get.responses['200']).toBeDefined();
    } finally {
      await server.cleanup();
    }
  });
});
