import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedChatModel } from '../../src/testing/scripted-chat-model.js';
import { testServer, type TestServer } from './server-fixtures.js';

let server: TestServer;

beforeEach(async () => {
  server = await testServer({}, { chatModel: createScriptedChatModel(() => 'Noted: Porto on Friday.') });
});

afterEach(async () => {
  await server.cleanup();
});

interface Probe {
  method: string;
  /** The path, given the session, fact and event ids to use. */
  path: (ids: { session: string; fact: string; event: string }) => string;
  body?: unknown;
}

/** Every `/api` route, with a valid request for it. */
const ROUTES: Probe[] = [
  { method: 'GET', path: () => '/api/sessions' },
  { method: 'POST', path: () => '/api/sessions', body: { title: 'Probe' } },
  { method: 'POST', path: () => '/api/sessions/import', body: { data: [{ role: 'user', content: 'We fly on Friday.' }] } },
  { method: 'GET', path: () => '/api/stats' },
  { method: 'POST', path: () => '/api/sessions/cleanup', body: { olderThan: '3650d', dryRun: true } },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}` },
  { method: 'PATCH', path: (ids) => `/api/sessions/${ids.session}`, body: { title: 'Renamed' } },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/messages` },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/turns` },
  { method: 'POST', path: (ids) => `/api/sessions/${ids.session}/turns`, body: { user: 'We fly to Porto on Friday.' } },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/artifacts` },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/context?budget=300` },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/export?format=markdown` },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/search?query=Porto` },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/facts` },
  { method: 'POST', path: (ids) => `/api/sessions/${ids.session}/chat`, body: { message: 'When do we fly?' } },
  { method: 'GET', path: () => '/api/chat-model' },
  { method: 'GET', path: () => '/api/eval/examples' },
  {
    method: 'POST',
    path: () => '/api/eval/retention',
    body: {
      conversation: {
        id: 'probe',
        budget: 200,
        messages: [{ role: 'user', content: 'We fly to Porto on Friday.' }],
        keyFacts: [{ id: 'trip', tier: 1, text: 'Porto on Friday', mustInclude: [['Porto']] }],
      },
    },
  },
  { method: 'GET', path: (ids) => `/api/sessions/${ids.session}/facts/events` },
  { method: 'POST', path: (ids) => `/api/sessions/${ids.session}/facts`, body: { text: 'deposit: £300', reason: 'paid' } },
  { method: 'PATCH', path: (ids) => `/api/sessions/${ids.session}/facts/${ids.fact}`, body: { text: 'deposit: £350', reason: 'more' } },
  { method: 'POST', path: (ids) => `/api/sessions/${ids.session}/facts/events/${ids.event}/undo` },
  { method: 'DELETE', path: (ids) => `/api/sessions/${ids.session}/facts/${ids.fact}`, body: { reason: 'refunded' } },
  { method: 'DELETE', path: (ids) => `/api/sessions/${ids.session}` },
];

/** Routes that name a session of the caller's tenant. */
const SESSION_ROUTES = ROUTES.filter((probe) => probe.path({ session: 'S', fact: 'F', event: 'E' }).includes('/S'));

/** A session of `tenant` holding two facts, and the ids to probe it with. */
async function seeded(tenant: string): Promise<{ session: string; fact: string; event: string }> {
  const key = await server.keyOf(tenant);
  const session = (await server.call('POST', '/api/sessions', { key, body: { title: `${tenant} plans` } })).json.id as string;
  const added = await server.call('POST', `/api/sessions/${session}/facts`, { key, body: { text: `secret: ${tenant} only`, reason: 'seed' } });
  // The event to undo adds another fact, so undoing it leaves the first for the edit and removal probes.
  const other = await server.call('POST', `/api/sessions/${session}/facts`, { key, body: { text: `note: for ${tenant}`, reason: 'seed' } });
  return { session, fact: added.json.factId, event: other.json.id };
}

describe('REST keys and tenants', () => {
  it('covers every route the OpenAPI document lists', async () => {
    const doc = (await server.call('GET', '/openapi.json')).json;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/gu, ':$1')}`))
      .sort();
    const probed = ROUTES.map((probe) => `${probe.method} ${probe.path({ session: ':sessionId', fact: ':factId', event: ':eventId' }).split('?')[0]}`).sort();
    expect(probed).toEqual(documented);
  });

  it('answers every route with a valid key, and 401 with none, a malformed or unknown one, or a revoked one', async () => {
    const ids = await seeded('acme');
    const key = await server.keyOf('acme');
    const revoked = await server.memory.keys.create({ tenant: 'acme' });
    await server.memory.keys.revoke(revoked.id);
    for (const probe of ROUTES) {
      const path = probe.path(ids);
      for (const bad of [undefined, 'strata_not-a-key', revoked.key]) {
        const answer = await server.call(probe.method, path, { ...(bad === undefined ? {} : { key: bad }), ...(probe.body === undefined ? {} : { body: probe.body }) });
        expect(answer.status, `${probe.method} ${path} with key ${bad}`).toBe(401);
        expect(answer.json.error.code).toBe('UNAUTHORIZED');
        expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      }
      const malformed = await server.call(probe.method, path, { headers: { authorization: `Basic ${key}` } });
      expect(malformed.status).toBe(401);
      const answer = await server.call(probe.method, path, { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      expect(answer.status, `${probe.method} ${path}: ${answer.text}`).toBeLessThan(300);
    }
  });

  it("answers another tenant's session, fact and event ids exactly as unknown ones, and changes nothing of theirs", async () => {
    const theirs = await seeded('beta');
    const betaKey = await server.keyOf('beta');
    const before = await server.call('GET', `/api/sessions/${theirs.session}/facts/events`, { key: betaKey });
    const mine = await seeded('acme');
    const key = await server.keyOf('acme');
    for (const probe of SESSION_ROUTES) {
      const foreign = await server.call(probe.method, probe.path(theirs), { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      const unknownIds = { session: 'no-such-session', fact: theirs.fact, event: theirs.event };
      const unknown = await server.call(probe.method, probe.path(unknownIds), { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      expect(foreign.status, `${probe.method} ${probe.path(theirs)}`).toBe(404);
      expect(foreign.json.error.code).toBe('SESSION_NOT_FOUND');
      expect(foreign.text.replace(theirs.session, 'ID')).toBe(unknown.text.replace('no-such-session', 'ID'));
    }
    // Their fact and event ids inside my own session are unknown there too.
    const namesFactOrEvent = (probe: Probe): boolean => /FACT|EVENT/u.test(probe.path({ session: 'S', fact: 'FACT', event: 'EVENT' }));
    for (const probe of SESSION_ROUTES.filter(namesFactOrEvent)) {
      const answer = await server.call(probe.method, probe.path({ session: mine.session, fact: theirs.fact, event: theirs.event }), { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      expect(answer.status, `${probe.method} ${probe.path(mine)}`).toBe(400);
    }
    expect((await server.call('GET', `/api/sessions/${theirs.session}/facts/events`, { key: betaKey })).json).toEqual(before.json);
    expect((await server.call('GET', '/api/sessions', { key })).json.sessions.map((session: { id: string }) => session.id)).toEqual([mine.session]);
  });
});
