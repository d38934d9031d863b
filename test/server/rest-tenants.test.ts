import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedChatModel } from '../../src/testing/scripted-chat-model.js';
import { testServer, type TestServer } from './server-fixtures.js';

let server: TestServer;

beforeEach(async () => {
  server = await testServer({}, { chatModel: createScriptedChatModel(() => 'Noted: Porto on Friday.'), tagRefinement: 'approve', refineTagsAbove: 2 });
});

afterEach(async () => {
  await server.cleanup();
});

/** The ids a probe names: a session, a fact and an event of it, two memories, a maintenance run and one of its actions. */
interface Ids {
  session: string;
  fact: string;
  event: string;
  memory: string;
  other: string;
  run: string;
  action: string;
}

interface Probe {
  method: string;
  /** The path, given the ids to use. */
  path: (ids: Ids) => string;
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
  { method: 'GET', path: () => '/api/memories' },
  { method: 'POST', path: () => '/api/memories', body: { value: 'Probe: the staging server is in eu-west.' } },
  { method: 'GET', path: (ids) => `/api/memories/${ids.memory}` },
  { method: 'PATCH', path: (ids) => `/api/memories/${ids.memory}`, body: { value: 'Never send invoices late, checked.' } },
  { method: 'GET', path: (ids) => `/api/memories/${ids.memory}/versions` },
  { method: 'POST', path: (ids) => `/api/memories/${ids.memory}/undo`, body: {} },
  { method: 'POST', path: (ids) => `/api/memories/${ids.memory}/tags`, body: { tags: ['probe'] } },
  { method: 'DELETE', path: (ids) => `/api/memories/${ids.memory}/tags`, body: { tags: ['probe'] } },
  { method: 'POST', path: (ids) => `/api/memories/${ids.memory}/edges`, body: { to: 'M2', type: 'relates-to' } },
  { method: 'DELETE', path: (ids) => `/api/memories/${ids.memory}/edges`, body: { to: 'M2', type: 'relates-to' } },
  { method: 'GET', path: () => '/api/memory-tags' },
  { method: 'POST', path: () => '/api/memory-recall', body: { query: 'invoices' } },
  { method: 'GET', path: () => '/api/memory-runs' },
  { method: 'POST', path: () => '/api/memory-runs', body: { agents: ['reviewer'] } },
  { method: 'GET', path: (ids) => `/api/memory-runs/${ids.run}` },
  { method: 'POST', path: (ids) => `/api/memory-runs/${ids.run}/actions/${ids.action}`, body: { decision: 'reject' } },
];

const NAMES: Ids = { session: 'S', fact: 'F', event: 'E', memory: 'MEMORY', other: 'OTHER', run: 'RUN', action: '0' };

/** Routes that name a session of the caller's tenant. */
const SESSION_ROUTES = ROUTES.filter((probe) => probe.path(NAMES).includes('/S'));

/** Routes that name a memory or a maintenance run of the caller's tenant. */
const MEMORY_ROUTES = ROUTES.filter((probe) => /MEMORY|RUN/u.test(probe.path(NAMES)));

/** A session of `tenant` holding two facts, memories with a maintenance run that proposed subtags, and the ids to probe them with. */
async function seeded(tenant: string): Promise<Ids> {
  const key = await server.keyOf(tenant);
  const session = (await server.call('POST', '/api/sessions', { key, body: { title: `${tenant} plans` } })).json.id as string;
  const added = await server.call('POST', `/api/sessions/${session}/facts`, { key, body: { text: `secret: ${tenant} only`, reason: 'seed' } });
  // The event to undo adds another fact, so undoing it leaves the first for the edit and removal probes.
  const other = await server.call('POST', `/api/sessions/${session}/facts`, { key, body: { text: `note: for ${tenant}`, reason: 'seed' } });
  for (const what of ['invoices', 'invoices', 'invoices', 'deliveries', 'deliveries', 'deliveries']) {
    await server.call('POST', '/api/memories', { key, body: { value: `Never send ${what} late for ${tenant}.`, tags: ['rules'] } });
  }
  const run = (await server.call('POST', '/api/memory-runs', { key, body: { agents: ['tagger'] } })).json;
  expect(run.actions[0].status).toBe('proposed');
  return { session, fact: added.json.factId, event: other.json.id, memory: 'M1', other: 'M2', run: run.id, action: '0' };
}

describe('REST keys and tenants', () => {
  it('covers every route the OpenAPI document lists', async () => {
    const doc = (await server.call('GET', '/openapi.json')).json;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/gu, ':$1')}`))
      .sort();
    const placeholders: Ids = { session: ':sessionId', fact: ':factId', event: ':eventId', memory: ':ref', other: ':ref', run: ':runId', action: ':index' };
    const probed = ROUTES.map((probe) => `${probe.method} ${probe.path(placeholders).split('?')[0]}`).sort();
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
      const unknownIds = { ...theirs, session: 'no-such-session' };
      const unknown = await server.call(probe.method, probe.path(unknownIds), { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      expect(foreign.status, `${probe.method} ${probe.path(theirs)}`).toBe(404);
      expect(foreign.json.error.code).toBe('SESSION_NOT_FOUND');
      expect(foreign.text.replace(theirs.session, 'ID')).toBe(unknown.text.replace('no-such-session', 'ID'));
    }
    // Their fact and event ids inside my own session are unknown there too.
    const namesFactOrEvent = (probe: Probe): boolean => /FACT|EVENT/u.test(probe.path({ ...NAMES, fact: 'FACT', event: 'EVENT' }));
    for (const probe of SESSION_ROUTES.filter(namesFactOrEvent)) {
      const answer = await server.call(probe.method, probe.path({ ...mine, fact: theirs.fact, event: theirs.event }), { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      expect(answer.status, `${probe.method} ${probe.path(mine)}`).toBe(400);
    }
    expect((await server.call('GET', `/api/sessions/${theirs.session}/facts/events`, { key: betaKey })).json).toEqual(before.json);
    expect((await server.call('GET', '/api/sessions', { key })).json.sessions.map((session: { id: string }) => session.id)).toEqual([mine.session]);
  });

  it("answers another tenant's memory and run ids exactly as unknown ones, and changes nothing of theirs", async () => {
    const betaKey = await server.keyOf('beta');
    await seeded('beta');
    const theirMemory = (await server.call('GET', '/api/memories/M1', { key: betaKey })).json.memory;
    const theirRun = (await server.call('GET', '/api/memory-runs', { key: betaKey })).json.runs[0];
    const before = (await server.call('GET', '/api/memories?deprecated=true', { key: betaKey })).json;
    const key = await server.keyOf('acme');
    // The caller's tenant has no memories: every memory and run id of beta's, by id or by key, is unknown here.
    for (const probe of MEMORY_ROUTES) {
      const foreign = await server.call(probe.method, probe.path({ ...NAMES, memory: theirMemory.id, run: theirRun.id }), { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      const unknown = await server.call(probe.method, probe.path({ ...NAMES, memory: 'no-such-memory', run: 'no-such-run' }), { key, ...(probe.body === undefined ? {} : { body: probe.body }) });
      expect(foreign.status, `${probe.method} ${probe.path(NAMES)}`).toBe(404);
      expect(foreign.text.replace(theirMemory.id, 'ID').replace(theirRun.id, 'ID')).toBe(unknown.text.replace('no-such-memory', 'ID').replace('no-such-run', 'ID'));
      expect((await server.call(probe.method, probe.path({ ...NAMES, memory: 'M1', run: theirRun.id }), { key, ...(probe.body === undefined ? {} : { body: probe.body }) })).status).toBe(404);
    }
    expect((await server.call('POST', '/api/memory-recall', { key, body: { query: 'invoices deliveries late' } })).json).toEqual({ memories: [], nothingRelevant: true });
    expect((await server.call('GET', '/api/memories?deprecated=true', { key: betaKey })).json).toEqual(before);
    expect((await server.call('GET', `/api/memory-runs/${theirRun.id}`, { key: betaKey })).json).toEqual(theirRun);
  });
});
