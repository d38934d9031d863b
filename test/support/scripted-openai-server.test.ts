import { afterEach, describe, expect, it } from 'vitest';
import { refusedBaseUrl, startScriptedServer, type ScriptedServer } from './scripted-openai-server.js';

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(baseUrl: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-probe': 'yes' }, body: JSON.stringify(body) });
}

describe('scripted OpenAI-compatible server', () => {
  it('answers chat completions in script order and records each request', async () => {
    server = await startScriptedServer({ script: [{ reply: 'First.' }, { json: { ok: true }, usage: { promptTokens: 7, completionTokens: 3 } }] });
    const messages = [{ role: 'user', content: 'two words' }];
    const first = (await (await post(server.baseUrl, '/chat/completions', { model: 'm', messages })).json()) as {
      model: string;
      choices: Array<{ message: { content: string }; finish_reason: string }>;
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(first.model).toBe('m');
    expect(first.choices[0]?.message.content).toBe('First.');
    expect(first.choices[0]?.finish_reason).toBe('stop');
    expect(first.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 1 });
    const second = (await (await post(server.baseUrl, '/chat/completions', { model: 'm', messages })).json()) as typeof first;
    expect(JSON.parse(second.choices[0]?.message.content ?? '')).toEqual({ ok: true });
    expect(second.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm', messages } });
    expect(server.requests[0]?.headers['x-probe']).toBe('yes');
    expect(server.remaining()).toBe(0);
    expect(server.problems).toEqual([]);
  });

  it('streams SSE chunks, then the finish reason, the usage when asked for, and [DONE]', async () => {
    server = await startScriptedServer({ script: [{ reply: 'Hello there world' }] });
    const response = await post(server.baseUrl, '/chat/completions', { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).split('\n\n').filter((event) => event !== '');
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice('data: '.length)) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }>; usage?: unknown });
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('')).toBe('Hello there world');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 0, completion_tokens: 3 } });
  });

  it('answers with a status and retry-after, and embeddings as floats or base64', async () => {
    server = await startScriptedServer({ script: [{ status: 429, retryAfter: 2 }, { vectors: [[0.5, -0.25]] }, { vectors: [[0.5, -0.25]] }] });
    const limited = await post(server.baseUrl, '/chat/completions', { model: 'm', messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    const floats = (await (await post(server.baseUrl, '/embeddings', { model: 'e', input: ['a b'], encoding_format: 'float' })).json()) as { data: Array<{ embedding: unknown }>; usage: unknown };
    expect(floats.data[0]?.embedding).toEqual([0.5, -0.25]);
    expect(floats.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
    const encoded = (await (await post(server.baseUrl, '/embeddings', { model: 'e', input: 'a', encoding_format: 'base64' })).json()) as { data: Array<{ embedding: string }> };
    const bytes = Buffer.from(encoded.data[0]?.embedding ?? '', 'base64');
    expect([...new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)]).toEqual([0.5, -0.25]);
  });

  it('reports requests it has no step for, and steps that do not fit the endpoint', async () => {
    server = await startScriptedServer({ script: [{ reply: 'not an embedding' }] });
    const misfit = await post(server.baseUrl, '/embeddings', { model: 'e', input: ['x'] });
    expect(misfit.status).toBe(400);
    expect(misfit.headers.get('x-should-retry')).toBe('false');
    const exhausted = await post(server.baseUrl, '/chat/completions', { model: 'm', messages: [] });
    expect(exhausted.status).toBe(400);
    expect(server.problems).toEqual([expect.stringContaining('cannot answer /v1/embeddings'), expect.stringContaining('no step left for request #2')]);
  });

  it('takes steps from a function of the request, and from push', async () => {
    server = await startScriptedServer();
    server.push((request) => ({ reply: `echo ${(request.body as { model: string }).model}` }));
    const body = (await (await post(server.baseUrl, '/chat/completions', { model: 'picked', messages: [] })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content).toBe('echo picked');
  });

  it('closes promptly while a request hangs, and leaves a refused port behind', async () => {
    server = await startScriptedServer({ script: [{ hang: true }] });
    const hanging = post(server.baseUrl, '/chat/completions', { model: 'm', messages: [] });
    await expect.poll(() => server?.requests.length).toBe(1);
    await server.close();
    await expect(hanging).rejects.toThrow();
    server = undefined;
    const refused = await refusedBaseUrl();
    await expect(fetch(`${refused}/chat/completions`, { method: 'POST' })).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });

  it('drops the connection mid-response on destroy', async () => {
    server = await startScriptedServer({ script: [{ destroy: true }] });
    const response = await post(server.baseUrl, '/chat/completions', { model: 'm', messages: [] });
    await expect(response.text()).rejects.toThrow();
  });
});
