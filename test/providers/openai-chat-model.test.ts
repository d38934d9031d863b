import { afterEach, describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../../src/providers/chat-model/chat-model.js';
import { createOpenAiChatModel, type OpenAiChatModelSettings } from '../../src/providers/openai/openai-chat-model.js';
import { refusedBaseUrl, startScriptedServer, type ScriptedServer, type ScriptEntry } from '../support/scripted-openai-server.js';
import { strataFailure } from '../support/strata-failure.js';

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Where do we deploy?' },
];

const schema = {
  name: 'turn_memory',
  jsonSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false },
};

async function serve(script: ScriptEntry[]): Promise<ScriptedServer> {
  server = await startScriptedServer({ script });
  return server;
}

function model(running: ScriptedServer, settings: Partial<OpenAiChatModelSettings> = {}) {
  return createOpenAiChatModel({ baseUrl: running.baseUrl, model: 'scripted-chat', fetch, ...settings });
}

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const seen: ChatStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function bodyOf(running: ScriptedServer, index: number): Record<string, unknown> {
  return running.requests[index]?.body as Record<string, unknown>;
}

describe('OpenAI-compatible chat model: generate', () => {
  it('returns the text, usage, model and finish reason, through the injected fetch', async () => {
    const running = await serve([{ reply: 'We deploy to Frankfurt.', usage: { promptTokens: 12, completionTokens: 5 } }]);
    let fetched = 0;
    const counting: typeof fetch = (input, init) => {
      fetched += 1;
      return fetch(input, init);
    };
    const result = await model(running, { fetch: counting }).generate({ messages, maxTokens: 50, temperature: 0 });
    expect(result).toEqual({ text: 'We deploy to Frankfurt.', usage: { promptTokens: 12, completionTokens: 5 }, model: 'scripted-chat', finishReason: 'stop', toolCalls: [] });
    expect(fetched).toBe(1);
    expect(bodyOf(running, 0)).toMatchObject({ model: 'scripted-chat', messages, max_tokens: 50, temperature: 0 });
    expect(bodyOf(running, 0)).not.toHaveProperty('response_format');
  });

  it('returns the tool calls of a completion, in order', async () => {
    const message = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] };
    const completion = { id: 'x', object: 'chat.completion', model: 'scripted-chat', choices: [{ index: 0, message, finish_reason: 'tool_calls' }] };
    const running = await serve([{ raw: JSON.stringify(completion), contentType: 'application/json' }]);
    const result = await model(running).generate({ messages, tools: [{ name: 'get_weather' }], toolChoice: 'required' });
    expect(result).toMatchObject({ text: '', finishReason: 'tool-calls', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon"}' }] });
    expect(bodyOf(running, 0)).toMatchObject({ tools: [{ type: 'function', function: { name: 'get_weather' } }], tool_choice: 'required' });
  });

  it('sends the API key and the extra headers; sends no Authorization header without a key', async () => {
    const running = await serve([{ reply: 'one' }, { reply: 'two' }]);
    await model(running, { apiKey: 'sk-test-123', headers: { 'HTTP-Referer': 'https://example.test', 'api-key': 'azure-key' } }).generate({ messages });
    await model(running).generate({ messages });
    expect(running.requests[0]?.headers).toMatchObject({ authorization: 'Bearer sk-test-123', 'http-referer': 'https://example.test', 'api-key': 'azure-key' });
    expect(running.requests[1]?.headers).not.toHaveProperty('authorization');
  });

  it('reports the finish reason "length" and zero usage when the endpoint reports none', async () => {
    const running = await serve([{ raw: JSON.stringify({ choices: [{ message: { content: 'cut' }, finish_reason: 'length' }] }) }]);
    const result = await model(running).generate({ messages });
    expect(result).toEqual({ text: 'cut', usage: { promptTokens: 0, completionTokens: 0 }, model: 'scripted-chat', finishReason: 'length', toolCalls: [] });
  });

  it('hands malformed model text back unchanged: judging it is the caller’s job', async () => {
    const running = await serve([{ malformed: 'truncated' }]);
    const result = await model(running).generate({ messages, schema });
    expect(() => JSON.parse(result.text) as unknown).toThrow();
  });
});

describe('OpenAI-compatible chat model: structured output', () => {
  it('asks for a strict JSON schema in auto mode', async () => {
    const running = await serve([{ json: { summary: 'ok' } }]);
    const result = await model(running).generate({ messages, schema });
    expect(JSON.parse(result.text)).toEqual({ summary: 'ok' });
    expect(bodyOf(running, 0)).toMatchObject({
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'turn_memory', schema: schema.jsonSchema, strict: true } },
    });
  });

  it('falls back to JSON instructions when the endpoint rejects response_format, and remembers it', async () => {
    const running = await serve([
      { status: 400, body: { error: { message: "response_format 'json_schema' is not supported by this server", type: 'invalid_request_error' } } },
      { json: { summary: 'first' } },
      { json: { summary: 'second' } },
    ]);
    const chat = model(running);
    expect(JSON.parse((await chat.generate({ messages, schema })).text)).toEqual({ summary: 'first' });
    expect(JSON.parse((await chat.generate({ messages, schema })).text)).toEqual({ summary: 'second' });
    expect(running.requests).toHaveLength(3);
    for (const index of [1, 2]) {
      const body = bodyOf(running, index);
      expect(body).not.toHaveProperty('response_format');
      const sent = body.messages as Array<{ role: string; content: string }>;
      expect(sent.slice(0, 2)).toEqual(messages);
      expect(sent[2]?.role).toBe('system');
      expect(sent[2]?.content).toContain('"turn_memory"');
      expect(sent[2]?.content).toContain(JSON.stringify(schema.jsonSchema));
    }
  });

  it('does not fall back on a 400 about something else', async () => {
    const running = await serve([{ status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens." } } }]);
    const error = await strataFailure(model(running).generate({ messages, schema }), 'MODEL_FAILURE');
    expect(error.details).toMatchObject({ status: 400, retryable: false });
    expect(running.requests).toHaveLength(1);
  });

  it('uses json_object or plain instructions when configured so', async () => {
    const running = await serve([{ json: { summary: 'a' } }, { json: { summary: 'b' } }]);
    await model(running, { structuredOutput: 'json-object' }).generate({ messages, schema });
    await model(running, { structuredOutput: 'prompt' }).generate({ messages, schema });
    expect(bodyOf(running, 0)).toMatchObject({ response_format: { type: 'json_object' } });
    expect(bodyOf(running, 1)).not.toHaveProperty('response_format');
    for (const index of [0, 1]) expect((bodyOf(running, index).messages as unknown[]).at(-1)).toMatchObject({ role: 'system' });
  });
});

describe('OpenAI-compatible chat model: stream', () => {
  it('yields deltas as they arrive, before the server has sent the rest, then the totals', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running = await serve([{ gatedStream: { before: ['We ', 'deploy '], gate, after: ['to ', 'Frankfurt.'] } }]);
    const seen: ChatStreamEvent[] = [];
    // The server holds back the last two chunks until the first delta has reached this loop; a
    // client that buffered the whole response would wait for ever and fail with MODEL_TIMEOUT.
    for await (const event of model(running, { timeoutMs: 5000 }).stream({ messages })) {
      if (seen.length === 0) release();
      seen.push(event);
    }
    expect(seen).toEqual([
      { type: 'delta', text: 'We ' },
      { type: 'delta', text: 'deploy ' },
      { type: 'delta', text: 'to ' },
      { type: 'delta', text: 'Frankfurt.' },
      { type: 'done', text: 'We deploy to Frankfurt.', usage: { promptTokens: 6, completionTokens: 4 }, model: 'scripted-chat', finishReason: 'stop', toolCalls: [] },
    ]);
    expect(bodyOf(running, 0)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('gathers streamed tool calls from their pieces, by index, and sends tools, the tool choice and tool messages', async () => {
    const chunk = (delta: unknown, finish: string | null = null): string => `data: ${JSON.stringify({ model: 'scripted-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const sse = [
      chunk({ role: 'assistant', content: 'Checking.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'find_hotel', arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Lisbon"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: 'ty":"Porto"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    const running = await serve([{ raw: sse, contentType: 'text/event-stream' }]);
    const tools = [{ name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }, { name: 'find_hotel' }];
    const history = [
      ...messages,
      { role: 'assistant' as const, content: '', toolCalls: [{ id: 'call_0', name: 'get_weather', arguments: '{}' }] },
      { role: 'tool' as const, content: '{"celsius":20}', toolCallId: 'call_0' },
    ];
    const events = await collect(model(running).stream({ messages: history, tools, toolChoice: { name: 'get_weather' } }));
    expect(events.at(-1)).toEqual({
      type: 'done',
      text: 'Checking.',
      usage: { promptTokens: 0, completionTokens: 0 },
      model: 'scripted-chat',
      finishReason: 'tool-calls',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: '{"city":"Lisbon"}' },
        { id: 'call_b', name: 'find_hotel', arguments: '{"city":"Porto"}' },
      ],
    });
    expect(bodyOf(running, 0)).toMatchObject({
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: tools[0]!.parameters } },
        { type: 'function', function: { name: 'find_hotel' } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', content: '{"celsius":20}', tool_call_id: 'call_0' },
      ],
    });
  });

  it('rejects a streamed tool call that never got its id', async () => {
    const sse = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'get_weather', arguments: '{}' } }] }, finish_reason: 'tool_calls' }] })}\n\ndata: [DONE]\n\n`;
    const running = await serve([{ raw: sse, contentType: 'text/event-stream' }]);
    const failure = await strataFailure(collect(model(running).stream({ messages })), 'MODEL_OUTPUT_INVALID');
    expect(failure.message).toMatch(/a streamed tool call came without an id/u);
  });

  it('lets a slow stream run longer than the timeout as long as pieces keep coming', async () => {
    const running = await serve([{ slowStream: { chunks: ['a', 'b', 'c', 'd', 'e', 'f'], intervalMs: 100 } }]);
    const events = await collect(model(running, { timeoutMs: 400 }).stream({ messages }));
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'abcdef' });
  });

  it('times out when the next piece does not come', async () => {
    const running = await serve([{ gatedStream: { before: ['partial '], gate: new Promise(() => undefined), after: ['never'] } }]);
    const deltas: string[] = [];
    const run = (async () => {
      for await (const event of model(running, { timeoutMs: 200 }).stream({ messages })) if (event.type === 'delta') deltas.push(event.text);
    })();
    const error = await strataFailure(run, 'MODEL_TIMEOUT');
    expect(deltas).toEqual(['partial ']);
    expect(error.details).toMatchObject({ retryable: true, timeoutMs: 200 });
  });

  it('is cancelled by the caller’s signal mid-stream', async () => {
    const running = await serve([{ gatedStream: { before: ['first '], gate: new Promise(() => undefined), after: ['never'] } }]);
    const controller = new AbortController();
    const run = (async () => {
      for await (const event of model(running).stream({ messages, signal: controller.signal })) if (event.type === 'delta') controller.abort();
    })();
    await strataFailure(run, 'MODEL_ABORTED');
  });

  it('fails with MODEL_FAILURE when the connection drops mid-stream', async () => {
    const running = await serve([{ destroy: true }]);
    const error = await strataFailure(collect(model(running, { maxRetries: 0 }).stream({ messages })), 'MODEL_FAILURE');
    expect(error.details).toMatchObject({ retryable: true });
  });

  it('surfaces an error the endpoint reports mid-stream', async () => {
    const running = await serve([{ raw: 'data: {"error": {"message": "model overloaded"}}\n\n' }]);
    const error = await strataFailure(collect(model(running).stream({ messages })), 'MODEL_FAILURE');
    expect(error.message).toContain('model overloaded');
    expect(error.details).toMatchObject({ status: null, retryable: true });
  });

  it('rejects a chunk of the wrong shape', async () => {
    const running = await serve([{ raw: 'data: {"choices": "nope"}\n\ndata: [DONE]\n\n' }]);
    await strataFailure(collect(model(running).stream({ messages })), 'MODEL_OUTPUT_INVALID');
  });

  it('stops reading when the loop is left early', async () => {
    const running = await serve([{ gatedStream: { before: ['one '], gate: new Promise(() => undefined), after: ['never'] } }, { reply: 'next' }]);
    const chat = model(running);
    for await (const event of chat.stream({ messages })) {
      expect(event).toEqual({ type: 'delta', text: 'one ' });
      break;
    }
    expect((await chat.generate({ messages })).text).toBe('next');
  });
});

describe('OpenAI-compatible chat model: failures', () => {
  it('retries a 429 after the retry-after wait and succeeds', async () => {
    const running = await serve([{ status: 429, retryAfter: 0 }, { reply: 'after the wait' }]);
    expect((await model(running).generate({ messages })).text).toBe('after the wait');
    expect(running.requests).toHaveLength(2);
  });

  it('waits as long as retry-after says, bounded by the timeout', async () => {
    // The client sleeps for the 30 s the server asked for instead of retrying at once; the call's own
    // time limit ends that wait.
    const running = await serve([{ status: 429, retryAfter: 30 }, { reply: 'too late' }]);
    await strataFailure(model(running, { timeoutMs: 300 }).generate({ messages }), 'MODEL_TIMEOUT');
    expect(running.requests).toHaveLength(1);
  });

  it('surfaces MODEL_RATE_LIMITED when 429s outlast the retries', async () => {
    const running = await serve([{ status: 429, retryAfter: 0 }, { status: 429, retryAfter: 0 }]);
    const error = await strataFailure(model(running, { maxRetries: 1 }).generate({ messages }), 'MODEL_RATE_LIMITED');
    expect(error.details).toMatchObject({ status: 429, retryable: true, retryAfter: '0' });
    expect(running.requests).toHaveLength(2);
  });

  it('retries a 500, then surfaces MODEL_FAILURE after maxRetries', async () => {
    const running = await serve([{ status: 500, retryAfter: 0 }, { status: 500, retryAfter: 0 }, { status: 500, retryAfter: 0 }, { reply: 'unused' }]);
    const error = await strataFailure(model(running, { maxRetries: 2 }).generate({ messages }), 'MODEL_FAILURE');
    expect(error.details).toMatchObject({ status: 500, retryable: true, model: 'scripted-chat', baseUrl: running.baseUrl });
    expect(error.message).toContain('HTTP 500');
    expect(running.requests).toHaveLength(3);
    expect(running.remaining()).toBe(1);
  });

  it('times out on a hanging endpoint and on a late answer', async () => {
    const running = await serve([{ hang: true }, { delayMs: 5000, reply: 'late' }]);
    const hung = await strataFailure(model(running, { timeoutMs: 200, maxRetries: 0 }).generate({ messages }), 'MODEL_TIMEOUT');
    expect(hung.details).toMatchObject({ retryable: true, timeoutMs: 200 });
    expect(hung.message).toContain('200 ms');
    await strataFailure(model(running, { maxRetries: 0 }).generate({ messages, timeoutMs: 200 }), 'MODEL_TIMEOUT');
  });

  it('names the base URL and the variable to check when the connection is refused', async () => {
    const baseUrl = await refusedBaseUrl();
    const chat = createOpenAiChatModel({ baseUrl, model: 'm', role: 'memory', maxRetries: 0, fetch });
    const error = await strataFailure(chat.generate({ messages }), 'MODEL_FAILURE');
    expect(error.message).toContain(baseUrl);
    expect(error.message).toContain('refused the connection');
    expect(error.message).toContain('STRATA_MEMORY_BASE_URL');
    expect(error.details).toMatchObject({ status: null, retryable: true, connection: 'ECONNREFUSED' });
    expect(error.cause).toBeDefined();
  });

  it('is cancelled by the caller’s signal, before or during the request', async () => {
    const running = await serve([{ hang: true }]);
    const already = new AbortController();
    already.abort();
    await strataFailure(model(running).generate({ messages, signal: already.signal }), 'MODEL_ABORTED');
    expect(running.requests).toHaveLength(0);
    const controller = new AbortController();
    const pending = model(running).generate({ messages, signal: controller.signal });
    await expect.poll(() => running.requests.length).toBe(1);
    controller.abort();
    await strataFailure(pending, 'MODEL_ABORTED');
  });

  it('says which key to check on 401', async () => {
    const running = await serve([{ status: 401, body: { error: { message: 'Incorrect API key provided' } } }]);
    const chat = createOpenAiChatModel({ baseUrl: running.baseUrl, model: 'm', role: 'chat', apiKey: 'wrong', fetch });
    const error = await strataFailure(chat.generate({ messages }), 'MODEL_FAILURE');
    expect(error.message).toContain('STRATA_CHAT_API_KEY');
    expect(error.details).toMatchObject({ status: 401, retryable: false });
  });

  it('rejects responses that are not JSON or have the wrong shape, and dropped connections', async () => {
    const running = await serve([{ raw: '{"choices": [{"message": {"content": "cut' }, { raw: '{"choices": "nope"}' }, { raw: '{"choices": []}' }, { destroy: true }]);
    const chat = model(running, { maxRetries: 0 });
    await strataFailure(chat.generate({ messages }), 'MODEL_OUTPUT_INVALID');
    const shape = await strataFailure(chat.generate({ messages }), 'MODEL_OUTPUT_INVALID');
    expect(shape.message).toContain('choices');
    await strataFailure(chat.generate({ messages }), 'MODEL_OUTPUT_INVALID');
    await strataFailure(chat.generate({ messages }), 'MODEL_FAILURE');
  });

  it('rejects invalid settings with INVALID_CONFIG', () => {
    expect(() => createOpenAiChatModel({ baseUrl: 'localhost:11434', model: 'm' })).toThrow(/baseUrl/u);
    expect(() => createOpenAiChatModel({ baseUrl: 'http://localhost:11434/v1', model: ' ' })).toThrow(/model/u);
    expect(() => createOpenAiChatModel({ baseUrl: 'http://localhost:11434/v1', model: 'm', timeoutMs: 0 })).toThrow(/timeoutMs/u);
    expect(() => createOpenAiChatModel({ baseUrl: 'http://localhost:11434/v1', model: 'm', structuredOutput: 'xml' as never })).toThrow(/structuredOutput/u);
  });
});
