import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiEmbedder, type OpenAiEmbedderSettings } from '../../src/providers/openai/openai-embedder.js';
import { startScriptedServer, type ScriptedServer, type ScriptEntry } from '../support/scripted-openai-server.js';
import { strataFailure } from '../support/strata-failure.js';

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptEntry[]): Promise<ScriptedServer> {
  server = await startScriptedServer({ script });
  return server;
}

function embedder(running: ScriptedServer, settings: Partial<OpenAiEmbedderSettings> = {}) {
  return createOpenAiEmbedder({ baseUrl: running.baseUrl, model: 'scripted-embedder', maxRetries: 0, fetch, ...settings });
}

/** A vector per input text: [index, length of the text, 1]. */
const perText: ScriptEntry = (request) => ({
  vectors: ((request.body as { input: string[] }).input).map((text, index) => [index, text.length, 1]),
});

describe('OpenAI-compatible embedder', () => {
  it('returns one vector per text with the dimensions and usage, asking for floats', async () => {
    const running = await serve([perText]);
    const result = await embedder(running, { apiKey: 'sk-embed' }).embed({ texts: ['one two', 'three'] });
    expect(result).toEqual({ vectors: [[0, 7, 1], [1, 5, 1]], dimensions: 3, usage: { promptTokens: 3 } });
    expect(running.requests[0]?.body).toEqual({ model: 'scripted-embedder', input: ['one two', 'three'], encoding_format: 'float' });
    expect(running.requests[0]?.headers.authorization).toBe('Bearer sk-embed');
  });

  it('names its vector space after the model and the dimensions asked for', async () => {
    const running = await serve([{ vectors: [[1, 0]] }]);
    const shortened = embedder(running, { dimensions: 2 });
    expect(shortened.id).toBe('openai:scripted-embedder:2');
    expect(embedder(running).id).toBe('openai:scripted-embedder');
    await shortened.embed({ texts: ['x'] });
    expect(running.requests[0]?.body).toMatchObject({ dimensions: 2 });
  });

  it('splits long lists into batches and keeps the order', async () => {
    const running = await serve([perText, perText, perText]);
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const result = await embedder(running, { batchSize: 2 }).embed({ texts });
    expect(result.vectors.map((vector) => vector[1])).toEqual([1, 2, 3, 4, 5]);
    expect(running.requests.map((request) => (request.body as { input: string[] }).input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
  });

  it('orders vectors by their index when the endpoint returns them out of order', async () => {
    const body = { data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }], usage: { prompt_tokens: 2 } };
    const running = await serve([{ raw: JSON.stringify(body) }]);
    expect((await embedder(running).embed({ texts: ['first', 'second'] })).vectors).toEqual([[1, 0], [0, 1]]);
  });

  it('makes no request for no texts', async () => {
    const running = await serve([]);
    expect(await embedder(running).embed({ texts: [] })).toEqual({ vectors: [], dimensions: 0, usage: { promptTokens: 0 } });
    expect(await embedder(running, { dimensions: 64 }).embed({ texts: [] })).toMatchObject({ dimensions: 64 });
    expect(running.requests).toHaveLength(0);
  });

  it('rejects vectors of differing or unexpected dimensions, and the wrong number of vectors', async () => {
    const running = await serve([{ vectors: [[1, 0, 0], [1, 0]] }, { vectors: [[1, 0, 0]] }, { vectors: [[1, 0]] }]);
    const differing = await strataFailure(embedder(running).embed({ texts: ['a', 'b'] }), 'MODEL_OUTPUT_INVALID');
    expect(differing.message).toContain('dimensions');
    expect(differing.details).toMatchObject({ retryable: true, model: 'scripted-embedder' });
    await strataFailure(embedder(running, { dimensions: 2 }).embed({ texts: ['a'] }), 'MODEL_OUTPUT_INVALID');
    const count = await strataFailure(embedder(running).embed({ texts: ['a', 'b'] }), 'MODEL_OUTPUT_INVALID');
    expect(count.message).toContain('1 vectors for 2 texts');
  });

  it('rejects malformed, truncated and wrongly shaped bodies', async () => {
    const running = await serve([{ malformed: 'wrong-shape' }, { malformed: 'not-json' }, { malformed: 'truncated' }]);
    const shape = await strataFailure(embedder(running).embed({ texts: ['a'] }), 'MODEL_OUTPUT_INVALID');
    expect(shape.message).toContain('embedding');
    await strataFailure(embedder(running).embed({ texts: ['a'] }), 'MODEL_OUTPUT_INVALID');
    await strataFailure(embedder(running).embed({ texts: ['a'] }), 'MODEL_OUTPUT_INVALID');
  });

  it('wraps HTTP failures, time-outs and cancellation', async () => {
    const running = await serve([{ status: 500, retryAfter: 0 }, { status: 500, retryAfter: 0 }, { hang: true }, { hang: true }]);
    const failed = await strataFailure(embedder(running, { maxRetries: 1, role: 'embedding' }).embed({ texts: ['a'] }), 'MODEL_FAILURE');
    expect(failed.details).toMatchObject({ status: 500, retryable: true, role: 'embedding' });
    expect(running.requests).toHaveLength(2);
    await strataFailure(embedder(running, { timeoutMs: 200 }).embed({ texts: ['a'] }), 'MODEL_TIMEOUT');
    const controller = new AbortController();
    const pending = embedder(running).embed({ texts: ['a'], signal: controller.signal });
    await expect.poll(() => running.requests.length).toBe(4);
    controller.abort();
    await strataFailure(pending, 'MODEL_ABORTED');
  });

  it('rejects invalid settings with INVALID_CONFIG', () => {
    expect(() => createOpenAiEmbedder({ baseUrl: 'http://localhost/v1', model: 'e', dimensions: 0 })).toThrow(/dimensions/u);
    expect(() => createOpenAiEmbedder({ baseUrl: 'http://localhost/v1', model: 'e', batchSize: 1.5 })).toThrow(/batchSize/u);
    expect(() => createOpenAiEmbedder({ baseUrl: 'http://localhost/v1', model: 'e', maxRetries: -1 })).toThrow(/maxRetries/u);
  });
});
