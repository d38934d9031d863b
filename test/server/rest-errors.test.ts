import { afterEach, describe, expect, it } from 'vitest';
import { StrataError } from '../../src/core/errors.js';
import { answerFor, STATUS_OF } from '../../src/server/error-response.js';
import { testServer, type TestServer } from './server-fixtures.js';

const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.cleanup()));
});

async function open(options: Parameters<typeof testServer>[0] = {}): Promise<{ server: TestServer; key: string; sessionId: string }> {
  const server = await testServer(options);
  servers.push(server);
  const key = await server.keyOf('acme');
  const sessionId = (await server.call('POST', '/api/sessions', { key, body: { title: 'Errors' } })).json.id as string;
  return { server, key, sessionId };
}

describe('REST errors', () => {
  it('answers malformed JSON, a wrong media type and wrong field types with 400 naming the problem, storing nothing', async () => {
    const { server, key, sessionId } = await open();
    const turns = `/api/sessions/${sessionId}/turns`;
    const malformed = await server.call('POST', turns, { key, body: '{"user": "hi"' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toEqual({ code: 'INVALID_INPUT', message: 'The request body is not valid JSON.' });
    const plain = await server.call('POST', turns, { key, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(400);
    expect(plain.json.error.message).toMatch(/Content-Type: application\/json/u);
    const wrongType = await server.call('POST', turns, { key, body: { user: 'hi', timestamp: { when: 'now' } } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error.message).toMatch(/^Invalid request: body\.timestamp: /u);
    const budget = await server.call('GET', `/api/sessions/${sessionId}/context?budget=-5`, { key });
    expect(budget.json.error.message).toContain('query.budget');
    const tooBig = await server.call('GET', `/api/sessions/${sessionId}/context?budget=99999999`, { key });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error.message).toMatch(/budget must be a whole number of tokens/u);
    expect((await server.call('GET', `/api/sessions/${sessionId}/messages`, { key })).json.messages).toEqual([]);
  });

  it('answers a body over the limit with 413, and an unknown route with 404, both as JSON errors', async () => {
    const { server, key, sessionId } = await open({ bodyLimit: 2048 });
    const big = await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: 'x '.repeat(2000) } });
    expect(big.status).toBe(413);
    expect(big.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(big.json.error.message).toContain('2048 bytes');
    expect((await server.call('GET', `/api/sessions/${sessionId}/messages`, { key })).json.messages).toEqual([]);
    for (const path of ['/api/nothing-here', '/nothing', `/api/sessions/${sessionId}/../../etc/passwd`]) {
      const missing = await server.call('GET', path, { key });
      expect(missing.status, path).toBe(404);
      expect(['NOT_FOUND', 'SESSION_NOT_FOUND']).toContain(missing.json.error.code);
    }
  });

  it('gives every error code a status, and hides an unexpected failure behind a 500 the log explains', async () => {
    expect(STATUS_OF.SESSION_NOT_FOUND).toBe(404);
    expect(STATUS_OF.UNAUTHORIZED).toBe(401);
    expect(STATUS_OF.MODEL_RATE_LIMITED).toBe(429);
    for (const status of Object.values(STATUS_OF)) expect(status >= 400 && status < 600).toBe(true);
    const told: unknown[] = [];
    expect(answerFor(new StrataError('SESSION_EXISTS', 'exists'), (error) => told.push(error))).toEqual({ status: 409, body: { error: { code: 'SESSION_EXISTS', message: 'exists' } } });
    const defect = answerFor(new TypeError('cannot read x of undefined'), (error) => told.push(error));
    expect(defect.status).toBe(500);
    expect(defect.body.error.code).toBe('INTERNAL');
    expect(defect.body.error.message).not.toContain('undefined');
    expect(told).toHaveLength(1);
  });
});

describe('health, metrics, OpenAPI and the request log', () => {
  it('serves /healthz and /openapi.json without a key', async () => {
    const { server } = await open();
    expect((await server.call('GET', '/healthz')).json).toEqual({ status: 'ok', auth: 'keys' });
    const doc = (await server.call('GET', '/openapi.json')).json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas).toHaveProperty('FactEvent');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/sessions/{sessionId}/context'].get.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['budget', 'query', 'sessionId']);
  });

  it('counts requests by route pattern and status, with latencies and the memory counters, in the Prometheus format', async () => {
    const { server, key, sessionId } = await open();
    await server.call('POST', `/api/sessions/${sessionId}/turns`, { key, body: { user: 'The quote for the roof is £7,400.' } });
    await server.call('GET', `/api/sessions/${sessionId}/facts`, { key });
    await server.call('GET', '/api/sessions/unknown/facts', { key });
    const metrics = await server.call('GET', '/metrics');
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/u);
    expect(metrics.text).toContain('strata_http_requests_total{method="GET",route="/api/sessions/:sessionId/facts",status="200"} 1');
    expect(metrics.text).toContain('strata_http_requests_total{method="GET",route="/api/sessions/:sessionId/facts",status="404"} 1');
    expect(metrics.text).toMatch(/strata_http_request_duration_seconds_count\{method="POST",route="\/api\/sessions\/:sessionId\/turns"\} 1/u);
    expect(metrics.text).toContain('strata_turns_total 1');
    expect(metrics.text).toContain('strata_memory_retry_queue_depth 0');
    expect(metrics.text).not.toContain(sessionId);
  });

  it('logs one line per request with its route pattern, status, time and tenant', async () => {
    const { server, key, sessionId } = await open();
    server.logs.splice(0);
    await server.call('GET', `/api/sessions/${sessionId}`, { key });
    await server.call('GET', '/api/sessions');
    expect(server.logs).toHaveLength(2);
    expect(server.logs[0]).toMatchObject({ method: 'GET', path: `/api/sessions/${sessionId}`, route: '/api/sessions/:sessionId', status: 200, tenant: 'acme' });
    expect(server.logs[1]).toMatchObject({ status: 401, tenant: null });
    expect(typeof server.logs[0]?.ms).toBe('number');
  });
});
