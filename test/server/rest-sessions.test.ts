import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from './server-fixtures.js';

let server: TestServer;
let key: string;

beforeEach(async () => {
  server = await testServer();
  key = await server.keyOf('acme');
});

afterEach(async () => {
  await server.cleanup();
});

const KITCHEN_USER = 'Our budget for the kitchen is £18,000 all in, and the fitter, Dariusz, starts on Monday 3 March.';
const KITCHEN_ASSISTANT = 'Noted: £18,000 in total, with Dariusz starting on 3 March.';

async function newSession(title = 'Kitchen'): Promise<string> {
  const answer = await server.call('POST', '/api/sessions', { key, body: { title } });
  expect(answer.status).toBe(201);
  return answer.json.id as string;
}

describe('REST sessions', () => {
  it('creates, lists (newest first, paged), reads, renames and deletes sessions', async () => {
    const first = await newSession('First');
    const second = await newSession('Second');
    const listed = await server.call('GET', '/api/sessions', { key });
    expect(listed.status).toBe(200);
    expect(listed.json.sessions.map((session: { id: string }) => session.id)).toEqual([second, first]);
    const paged = await server.call('GET', '/api/sessions?limit=1&offset=1', { key });
    expect(paged.json.sessions.map((session: { id: string }) => session.id)).toEqual([first]);

    const renamed = await server.call('PATCH', `/api/sessions/${first}`, { key, body: { title: 'Kitchen refit', instructions: 'Answer in British English.' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id: first, title: 'Kitchen refit', instructions: 'Answer in British English.' });
    expect((await server.call('GET', `/api/sessions/${first}`, { key })).json.title).toBe('Kitchen refit');

    const named = await server.call('POST', '/api/sessions', { key, body: { id: 'kitchen-2026', title: 'Named' } });
    expect(named.json.id).toBe('kitchen-2026');
    expect((await server.call('POST', '/api/sessions', { key, body: { id: 'kitchen-2026' } })).status).toBe(409);
    for (const id of ['x\ud800y', 'with space', 'ümlaut']) expect((await server.call('POST', '/api/sessions', { key, body: { id } })).status, id).toBe(400);
    await server.call('DELETE', '/api/sessions/kitchen-2026', { key });

    const deleted = await server.call('DELETE', `/api/sessions/${first}`, { key });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = await server.call('GET', `/api/sessions/${first}`, { key });
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('SESSION_NOT_FOUND');
  });

  it('records a turn and answers the context package exactly as the library builds it', async () => {
    const sessionId = await newSession();
    const recorded = await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: KITCHEN_USER, assistant: KITCHEN_ASSISTANT, timestamp: '2026-02-20T10:00:00Z' } });
    expect(recorded.status).toBe(200);
    expect(recorded.json).toMatchObject({ turn: 1, status: 'summarised', problem: null });
    expect(recorded.json.messageIds).toHaveLength(2);

    const answer = await server.call('GET', `/api/sessions/${sessionId}/context?budget=600&query=${encodeURIComponent('what is the budget')}`, { key });
    expect(answer.status).toBe(200);
    const pkg = await (await server.memory.tenant('acme').sessions.open(sessionId)).context({ budget: 600, query: 'what is the budget' });
    expect(answer.json).toEqual(JSON.parse(JSON.stringify(pkg.toJSON())));
    expect(answer.json.tokens).toBeLessThanOrEqual(600);
    expect(answer.text).toContain('£18,000');

    const messages = await server.call('GET', `/api/sessions/${sessionId}/messages`, { key });
    expect(messages.json.messages.map((message: { content: string }) => message.content)).toEqual([KITCHEN_USER, KITCHEN_ASSISTANT]);
    expect(messages.json.messages[0].sentAt).toBe('2026-02-20T10:00:00.000Z');
    const turns = await server.call('GET', `/api/sessions/${sessionId}/turns`, { key });
    expect(turns.json.turns).toHaveLength(1);
    expect((await server.call('GET', `/api/sessions/${sessionId}/artifacts`, { key })).json).toEqual({ artifacts: [] });
    const found = await server.call('GET', `/api/sessions/${sessionId}/search?query=${encodeURIComponent('Dariusz fitter')}&limit=1`, { key });
    expect(found.json.results).toEqual([expect.objectContaining({ role: 'user', content: KITCHEN_USER, turn: 1 })]);
    expect((await server.call('GET', `/api/sessions/${sessionId}/search?query=`, { key })).status).toBe(400);
  });

  it('records a turn with tool calls and their results, and lists them with their call ids', async () => {
    const sessionId = await newSession();
    const tools = [{ text: 'Checking the supplier.', calls: [{ id: 'call_3', name: 'stock_level', arguments: { sku: 'TILE-22' }, result: '{"boxes":14}' }] }];
    const recorded = await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: 'Do they have the tiles?', tools, assistant: 'Yes, 14 boxes.' } });
    expect(recorded.status).toBe(200);
    const listed = await server.call('GET', `/api/sessions/${sessionId}/messages`, { key });
    expect(listed.json.messages.map((message: { role: string; content: string; toolCalls?: unknown; toolCallId?: string }) => [message.role, message.content, message.toolCalls, message.toolCallId])).toEqual([
      ['user', 'Do they have the tiles?', undefined, undefined],
      ['assistant', 'Checking the supplier.', [{ id: 'call_3', name: 'stock_level', arguments: '{"sku":"TILE-22"}' }], undefined],
      ['tool', '{"boxes":14}', undefined, 'call_3'],
      ['assistant', 'Yes, 14 boxes.', undefined, undefined],
    ]);
    const bad = await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: 'Again?', tools: [{ calls: [] }] } });
    expect(bad.status).toBe(400);
    expect((await server.call('GET', `/api/sessions/${sessionId}/messages`, { key })).json.messages).toHaveLength(4);
  });

  it('pages the messages: a client reads only what came after those it has', async () => {
    const sessionId = (await server.call('POST', '/api/sessions', { key, body: { title: 'Paging' } })).json.id as string;
    for (const user of ['First.', 'Second.', 'Third.']) await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user, assistant: 'Noted.' } });
    const all = (await server.call('GET', `/api/sessions/${sessionId}/messages`, { key })).json.messages as Array<{ id: string; content: string }>;
    expect(all).toHaveLength(6);
    const since = (await server.call('GET', `/api/sessions/${sessionId}/messages?offset=4`, { key })).json.messages as Array<{ id: string }>;
    expect(since.map((message) => message.id)).toEqual(all.slice(4).map((message) => message.id));
    const page = (await server.call('GET', `/api/sessions/${sessionId}/messages?offset=1&limit=2`, { key })).json.messages as Array<{ id: string }>;
    expect(page.map((message) => message.id)).toEqual(all.slice(1, 3).map((message) => message.id));
    expect((await server.call('GET', `/api/sessions/${sessionId}/messages?offset=9`, { key })).json.messages).toEqual([]);
    expect((await server.call('GET', `/api/sessions/${sessionId}/messages?offset=-1`, { key })).status).toBe(400);
  });

  it('records a speaker, and refuses a turn the library refuses without storing anything', async () => {
    const sessionId = await newSession();
    const named = await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: { content: 'I moved the delivery to Friday.', speaker: 'Maya' } } });
    expect(named.status).toBe(200);
    const empty = await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.error.code).toBe('INVALID_INPUT');
    const badTime = await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: 'Hello', timestamp: 'next week' } });
    expect(badTime.status).toBe(400);
    expect(badTime.json.error.message).toMatch(/not a valid time/u);
    const messages = await server.call('GET', `/api/sessions/${sessionId}/messages`, { key });
    expect(messages.json.messages.map((message: { speaker: string | null }) => message.speaker)).toEqual(['Maya']);
  });

  it('exports a session as JSON or Markdown and imports the export as a new session', async () => {
    const sessionId = await newSession();
    await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: KITCHEN_USER, assistant: KITCHEN_ASSISTANT } });
    const markdown = await server.call('GET', `/api/sessions/${sessionId}/export?format=markdown`, { key });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/u);
    expect(markdown.text).toContain('Dariusz');
    const exported = await server.call('GET', `/api/sessions/${sessionId}/export`, { key });
    expect(exported.headers.get('content-type')).toMatch(/^application\/json/u);

    const clash = await server.call('POST', '/api/sessions/import', { key, body: { data: exported.json } });
    expect(clash.status).toBe(409);
    expect(clash.json.error.code).toBe('SESSION_EXISTS');
    const copied = await server.call('POST', '/api/sessions/import', { key, body: { data: exported.json, newIds: true, title: 'Copy' } });
    expect(copied.status).toBe(201);
    expect(copied.json).toMatchObject({ messages: 2, turns: 1 });
    const copy = await server.call('GET', `/api/sessions/${copied.json.sessionId}/messages`, { key });
    expect(copy.json.messages.map((message: { content: string }) => message.content)).toEqual([KITCHEN_USER, KITCHEN_ASSISTANT]);
  });

  it('imports an OpenAI-style message list and reports what it skipped', async () => {
    const data = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'We are flying to Lisbon on 14 May with two children.' },
      { role: 'assistant', content: 'Lisbon on 14 May, two children: noted.' },
    ];
    const imported = await server.call('POST', '/api/sessions/import', { key, body: { data, title: 'Lisbon' } });
    expect(imported.status).toBe(201);
    expect(imported.json).toMatchObject({ messages: 2, turns: 1 });
    const bad = await server.call('POST', '/api/sessions/import', { key, body: { data: { not: 'a conversation' } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('IMPORT_INVALID');
    expect((await server.call('GET', '/api/sessions', { key })).json.sessions).toHaveLength(1);
  });

  it('reports the counters of the tenant and of one session', async () => {
    const sessionId = await newSession();
    await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: KITCHEN_USER, assistant: KITCHEN_ASSISTANT } });
    const tenant = await server.call('GET', '/api/stats', { key });
    expect(tenant.status).toBe(200);
    expect(tenant.json).toMatchObject({ turns: 1, pendingRetries: 0 });
    expect((await server.call('GET', `/api/stats?sessionId=${sessionId}`, { key })).json.turns).toBe(1);
    expect((await server.call('GET', '/api/stats?sessionId=unknown', { key })).status).toBe(404);
  });
});
