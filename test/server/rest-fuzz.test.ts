import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedBaseUrl } from '../support/scripted-openai-server.js';
import { testServer, type TestServer } from './server-fixtures.js';

/** How many requests the fuzz sends (the closing figure is measured with STRATA_FUZZ_REQUESTS=10000). */
const RUNS = Number(process.env.STRATA_FUZZ_REQUESTS ?? 1500);

let server: TestServer;
let acmeKey: string;
let betaKey: string;
let ids: { session: string; fact: string; event: string; foreign: string };

beforeAll(async () => {
  // A chat endpoint where nothing listens: proxy requests are read and answered 502, never forwarded.
  server = await testServer({ bodyLimit: 64 * 1024 }, { env: { STRATA_CHAT_MODEL: 'fuzz-model', STRATA_CHAT_BASE_URL: await refusedBaseUrl() } });
  acmeKey = await server.keyOf('acme');
  betaKey = await server.keyOf('beta');
  const session = (await server.call('POST', '/api/sessions', { key: acmeKey, body: { title: 'Fuzzed' } })).json.id as string;
  await server.call('POST', `/api/sessions/${session}/turns`, { key: acmeKey, body: { user: 'The deposit is £300 and the van comes at 8.' } });
  const added = (await server.call('POST', `/api/sessions/${session}/facts`, { key: acmeKey, body: { text: 'van: 8am on Saturday', reason: 'seed' } })).json;
  const foreign = (await server.call('POST', '/api/sessions', { key: betaKey, body: { title: 'Theirs' } })).json.id as string;
  ids = { session, fact: added.factId, event: added.id, foreign };
});

afterAll(async () => {
  await server.cleanup();
});

/** Everything both tenants hold, as text, to compare before and after a refused request. */
async function stored(): Promise<string> {
  const parts: unknown[] = [];
  for (const tenant of ['acme', 'beta']) {
    const memory = server.memory.tenant(tenant);
    for (const session of await memory.sessions.list({ limit: 500 })) {
      const handle = await memory.sessions.open(session.id);
      parts.push(session.id, session.title, session.instructions, (await handle.messages()).length, await handle.facts(), (await handle.factEvents()).length);
    }
  }
  parts.push((await server.memory.keys.list()).map((key) => [key.id, key.revokedAt]));
  return JSON.stringify(parts);
}

const idArbitrary = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant('SESSION'),
    fc.constant('FOREIGN'),
    fc.constantFrom('..', '../..', '%2e%2e%2f', '..%2F..%2Fetc%2Fpasswd', '%00', ' ', '%20acme', 'null', 'undefined', '__proto__', 'constructor', 'x'.repeat(300)),
    fc.string({ minLength: 1, maxLength: 40 }).map((text) => encodeURIComponent(text)),
  );

const PATHS = [
  '/api/sessions',
  '/api/sessions/import',
  '/api/sessions/cleanup',
  '/api/stats',
  '/api/sessions/{s}',
  '/api/sessions/{s}/messages',
  '/api/sessions/{s}/turns',
  '/api/sessions/{s}/artifacts',
  '/api/sessions/{s}/context',
  '/api/sessions/{s}/search',
  '/api/sessions/{s}/export',
  '/api/sessions/{s}/facts',
  '/api/sessions/{s}/facts/events',
  '/api/sessions/{s}/facts/{f}',
  '/api/sessions/{s}/facts/events/{e}/undo',
  '/api/sessions/{s}/chat',
  '/api/chat-model',
  '/api/eval/examples',
  '/api/eval/retention',
  '/v1/chat/completions',
  '/v1/models',
  '/mcp',
  '/healthz',
  '/metrics',
  '/openapi.json',
  '/api',
  '/api/sessions/{s}/unknown',
];

const FIELD_NAMES = ['user', 'assistant', 'timestamp', 'title', 'instructions', 'text', 'kind', 'reason', 'data', 'newIds', 'messages', 'stream', 'budget', 'id', 'model'];

const bodyArbitrary = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string({ maxLength: 60 }),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 3 }), fc.jsonValue())).map((value) => JSON.stringify(value)),
  fc.constant(JSON.stringify({ user: 'y'.repeat(70_000) })),
  fc.constant('{"user": "unterminated'),
  fc.constant(JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true })),
);

const requestArbitrary = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'),
  path: fc.constantFrom(...PATHS),
  session: idArbitrary(),
  fact: idArbitrary(),
  event: idArbitrary(),
  query: fc.dictionary(fc.constantFrom('budget', 'query', 'limit', 'offset', 'atTurn', 'format', 'session', 'sessionId'), fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constant('99999999999'))),
  auth: fc.constantFrom('acme', 'beta', 'none', 'garbage', 'basic'),
  contentType: fc.constantFrom('application/json', 'text/plain', 'none'),
  budgetHeader: fc.option(fc.string({ maxLength: 12 })),
  body: bodyArbitrary,
});

describe('the REST API, the proxy and MCP, fuzzed', () => {
  it(`answers ${RUNS} malformed, hostile or foreign requests without a 500, always as JSON errors, and stores nothing for a refused one`, async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (request) => {
        const pick = (value: string): string => (value === 'SESSION' ? ids.session : value === 'FOREIGN' ? ids.foreign : value);
        const path = request.path.replace('{s}', pick(request.session)).replace('{f}', request.fact === 'SESSION' ? ids.fact : pick(request.fact)).replace('{e}', request.event === 'SESSION' ? ids.event : pick(request.event));
        const query = new URLSearchParams(request.query).toString();
        const headers: Record<string, string> = {};
        if (request.auth === 'acme' || request.auth === 'beta') headers.authorization = `Bearer ${request.auth === 'acme' ? acmeKey : betaKey}`;
        if (request.auth === 'garbage') headers.authorization = `Bearer strata_${'z'.repeat(43)}`;
        if (request.auth === 'basic') headers.authorization = 'Basic dXNlcjpwYXNz';
        if (request.contentType !== 'none' && request.body !== undefined) headers['content-type'] = request.contentType;
        if (request.budgetHeader !== null) headers['x-strata-budget'] = request.budgetHeader.replace(/[^\x20-\x7e]/gu, '');
        const before = await stored();
        const answer = await server.call(request.method, query === '' ? path : `${path}?${query}`, { headers, ...(request.body === undefined || request.method === 'GET' ? {} : { body: request.body }) });
        expect(answer.status, `${request.method} ${path}: ${answer.text.slice(0, 300)}`).not.toBe(500);
        if (answer.status >= 400 && !path.startsWith('/mcp')) {
          expect(typeof answer.json?.error?.message, `${request.method} ${path}: ${answer.text.slice(0, 200)}`).toBe('string');
          // A proxy call that reached the (unreachable) upstream may have made its session first; any other refusal stores nothing.
          if (answer.status !== 502) expect(await stored(), `${request.method} ${path} (${answer.status}) changed stored data`).toBe(before);
        }
      }),
      { numRuns: RUNS, seed: 23 },
    );
  }, 600_000);
});
