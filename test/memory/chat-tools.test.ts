import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/core/types.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { createOpenAiChatModel } from '../../src/providers/openai/openai-chat-model.js';
import { startScriptedServer, type ScriptedServer, type ScriptEntry } from '../support/scripted-openai-server.js';
import { sequentialIds, steppingClock } from '../support/memory-fixtures.js';
import { strataFailure } from '../support/strata-failure.js';

const servers: ScriptedServer[] = [];
const memories: Memory[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A streamed reply that calls tools, as an OpenAI-compatible server sends it (each call's arguments in two pieces). */
function callingStream(calls: readonly ToolCall[], text = ''): ScriptEntry {
  const chunk = (delta: unknown, finish: string | null = null): string => `data: ${JSON.stringify({ model: 'scripted-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const pieces = [text === '' ? '' : chunk({ role: 'assistant', content: text })];
  calls.forEach((call, index) => {
    const half = Math.floor(call.arguments.length / 2);
    pieces.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments.slice(0, half) } }] }));
    pieces.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }));
  });
  pieces.push(chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
  return { raw: pieces.join(''), contentType: 'text/event-stream' };
}

async function rig(script: ScriptEntry[]): Promise<{ memory: Memory; server: ScriptedServer }> {
  const server = await startScriptedServer({ script });
  servers.push(server);
  const chatModel = createOpenAiChatModel({ baseUrl: server.baseUrl, model: 'scripted-chat', role: 'chat', maxRetries: 0, fetch });
  const memory = createMemory({ path: ':memory:', env: {}, clock: steppingClock(), newId: sequentialIds(), durability: 'normal', chatModel });
  memories.push(memory);
  return { memory, server };
}

function requestBody(server: ScriptedServer, index: number): { messages: Array<Record<string, unknown>>; tools?: unknown; temperature?: number; max_tokens?: number } {
  return server.requests.filter((request) => request.path === '/v1/chat/completions')[index]?.body as never;
}

const TOOLS = [{ name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
const WEATHER: ToolCall = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon"}' };

/** The INVALID_INPUT a call fails with. */
function failure(promise: Promise<unknown>): Promise<Error> {
  return strataFailure(promise, 'INVALID_INPUT');
}

describe('chat with tools', () => {
  it('returns the tool calls without storing anything, then stores the whole turn once the model answers their results', async () => {
    const { memory, server } = await rig([callingStream([WEATHER]), { reply: 'Clear and 21 °C in Lisbon.' }, { reply: 'Then no umbrella.' }]);
    const session = await memory.sessions.create();
    const asked = await session.chat('What is the weather in Lisbon?', { tools: TOOLS, temperature: 0.2, maxTokens: 200 });
    expect(asked).toMatchObject({ reply: '', toolCalls: [WEATHER], turn: 0, messageIds: [] });
    await expect(asked.memory).resolves.toEqual({ turn: 0, status: 'awaiting-tool-results', problem: null });
    expect(await session.messages()).toEqual([]);
    // The caller's tool, then the detail protocol's two (offered to a model that calls tools).
    const sentTools = (requestBody(server, 0) as { tools: Array<{ function: { name: string } }> }).tools;
    expect(requestBody(server, 0)).toMatchObject({ temperature: 0.2, max_tokens: 200 });
    expect(sentTools[0]).toEqual({ type: 'function', function: TOOLS[0] });
    expect(sentTools.map((tool) => tool.function.name)).toEqual([TOOLS[0]!.name, 'request_tier', 'search_episodic']);

    const answered = await session.chat({ toolResults: [{ toolCallId: 'call_1', result: '{"celsius":21,"sky":"clear"}' }] }, { tools: TOOLS, stream: true });
    let streamed = '';
    for await (const piece of answered) streamed += piece;
    const result = await answered.result;
    expect(streamed).toBe('Clear and 21 °C in Lisbon.');
    expect(result).toMatchObject({ toolCalls: [], turn: 1 });
    expect(result.messageIds).toHaveLength(4);
    expect((await result.memory).status).toBe('summarised');
    // The model saw the question, its call and the result after the package.
    expect(requestBody(server, 1).messages.slice(-3)).toEqual([
      { role: 'user', content: 'What is the weather in Lisbon?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] },
      { role: 'tool', content: '{"celsius":21,"sky":"clear"}', tool_call_id: 'call_1' },
    ]);
    const stored = await session.messages();
    expect(stored.map((message) => [message.role, message.content, message.toolCalls, message.toolCallId])).toEqual([
      ['user', 'What is the weather in Lisbon?', undefined, undefined],
      ['assistant', '', [WEATHER], undefined],
      ['tool', '{"celsius":21,"sky":"clear"}', undefined, 'call_1'],
      ['assistant', 'Clear and 21 °C in Lisbon.', undefined, undefined],
    ]);
    expect(stored.map((message) => message.id)).toEqual(result.messageIds);

    // The next turn's package carries the exchange, the call beside its result.
    await session.chat('Do I need an umbrella?');
    const next = requestBody(server, 2).messages.filter((message) => message.role !== 'system');
    expect(next.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(next[2]).toEqual({ role: 'tool', content: '{"celsius":21,"sky":"clear"}', tool_call_id: 'call_1' });
  });

  it('refuses results that do not answer the waiting calls, and keeps the calls waiting for a correct answer', async () => {
    const other: ToolCall = { id: 'call_2', name: 'get_weather', arguments: '{"city":"Porto"}' };
    const { memory } = await rig([callingStream([WEATHER, other], 'Checking both.'), { reply: 'Lisbon 21 °C, Porto 18 °C.' }]);
    const session = await memory.sessions.create();
    await expect(failure(session.chat({ toolResults: [] }))).resolves.toHaveProperty('message', expect.stringMatching(/No tool calls of this session wait for results/u));
    const asked = await session.chat('Weather in Lisbon and Porto?', { tools: TOOLS });
    expect(asked.reply).toBe('Checking both.');
    expect(asked.toolCalls).toEqual([WEATHER, other]);
    const cases: Array<[unknown, RegExp]> = [
      [{ toolResults: [{ toolCallId: 'call_1', result: '{}' }] }, /toolResults has no result for "call_2"/u],
      [{ toolResults: [{ toolCallId: 'call_9', result: '{}' }] }, /toolResults\[0\]\.toolCallId "call_9" is not one of the calls waiting: call_1, call_2/u],
      [{ toolResults: [{ toolCallId: 'call_1', result: '{}' }, { toolCallId: 'call_1', result: '{}' }] }, /toolResults\[1\] answers "call_1" a second time/u],
      [{ toolResults: [{ toolCallId: 'call_1', result: 42 }, { toolCallId: 'call_2', result: '{}' }] }, /toolResults\[0\]\.result must be a string/u],
      [{ results: [] }, /chat\(\) takes the user's message, or \{ toolResults/u],
    ];
    for (const [input, pattern] of cases) expect((await failure(session.chat(input as never))).message).toMatch(pattern);
    const done = await session.chat({ toolResults: [{ toolCallId: 'call_2', result: '{"celsius":18}' }, { toolCallId: 'call_1', result: '{"celsius":21}' }] });
    expect(done.turn).toBe(1);
    const stored = await session.messages();
    expect(stored.map((message) => [message.role, message.toolCallId ?? null])).toEqual([
      ['user', null],
      ['assistant', null],
      ['tool', 'call_1'],
      ['tool', 'call_2'],
      ['assistant', null],
    ]);
    expect(stored[1]?.content).toBe('Checking both.');
  });

  it('gives up a turn still waiting for tool results when a new message comes, storing nothing of it', async () => {
    const { memory } = await rig([callingStream([WEATHER]), { reply: 'Hello again.' }]);
    const session = await memory.sessions.create();
    await session.chat('Weather in Lisbon?', { tools: TOOLS });
    const result = await session.chat('Never mind. Hello!');
    expect(result.turn).toBe(1);
    expect((await session.messages()).map((message) => message.content)).toEqual(['Never mind. Hello!', 'Hello again.']);
    await expect(failure(session.chat({ toolResults: [{ toolCallId: 'call_1', result: '{}' }] }))).resolves.toBeInstanceOf(Error);
  });

  it('lets one call answer waiting tool calls at a time, and a new message given meanwhile keeps its own calls', async () => {
    const porto: ToolCall = { id: 'call_p', name: 'get_weather', arguments: '{"city":"Porto"}' };
    const { memory } = await rig([callingStream([WEATHER]), { reply: 'Clear in Lisbon.', delayMs: 300 }, callingStream([porto]), { reply: 'Cloudy in Porto.' }]);
    const session = await memory.sessions.create();
    await session.chat('Weather in Lisbon?', { tools: TOOLS });
    const answer = { toolResults: [{ toolCallId: 'call_1', result: '{"celsius":21}' }] };
    const first = session.chat(answer, { tools: TOOLS });
    // A second answer to the same calls while the first is out is refused, and bills no model call.
    expect((await failure(session.chat(answer, { tools: TOOLS }))).message).toMatch(/Another chat\(\) call is already answering these tool calls/u);
    // A new message while the first answer is out gives that turn up, and waits with its own calls.
    const other = await session.chat('And Porto?', { tools: TOOLS });
    expect(other.toolCalls).toEqual([porto]);
    expect((await first).turn).toBe(1);
    // The Lisbon turn was complete and is stored; the Porto calls still wait and can be answered.
    const last = await session.chat({ toolResults: [{ toolCallId: 'call_p', result: '{"celsius":17}' }] }, { tools: TOOLS });
    expect(last.turn).toBe(2);
    expect((await session.messages()).filter((message) => message.role === 'tool').map((message) => message.toolCallId)).toEqual(['call_1', 'call_p']);
    expect((await memory.stats()).chatTurns).toBe(2);
  });

  it('keeps the calls waiting when the final reply cannot be stored, and refuses a model that calls with one id twice', async () => {
    const twice: ToolCall[] = [WEATHER, { ...WEATHER, arguments: '{"city":"Porto"}' }];
    const { memory } = await rig([callingStream([WEATHER]), { reply: 'x'.repeat(3000) }, { reply: 'Clear in Lisbon.' }, callingStream(twice)]);
    memories.pop();
    await memory.close();
    const server = servers[servers.length - 1]!;
    const chatModel = createOpenAiChatModel({ baseUrl: server.baseUrl, model: 'scripted-chat', role: 'chat', maxRetries: 0, fetch });
    const small = createMemory({ path: ':memory:', env: { STRATA_MAX_MESSAGE_BYTES: '2000' }, clock: steppingClock(), newId: sequentialIds(), durability: 'normal', chatModel });
    memories.push(small);
    const session = await small.sessions.create();
    await session.chat('Weather in Lisbon?', { tools: TOOLS });
    const answer = { toolResults: [{ toolCallId: 'call_1', result: '{"celsius":21}' }] };
    expect((await failure(session.chat(answer, { tools: TOOLS }))).message).toMatch(/is 3,000 bytes; the limit is 2,000/u);
    expect(await session.messages()).toEqual([]);
    expect((await session.chat(answer, { tools: TOOLS })).turn).toBe(1);
    expect((await strataFailure(session.chat('And Porto?', { tools: TOOLS }), 'MODEL_OUTPUT_INVALID')).message).toMatch(/called a tool with the id "call_1" twice/u);
  });

  it('refuses bad tools and model options before calling the model', async () => {
    const { memory, server } = await rig([]);
    const session = await memory.sessions.create();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ tools: 'get_weather' }, /tools must be a list/u],
      [{ tools: [{ name: 'get weather' }] }, /tools\[0\]\.name must be 1–64 letters/u],
      [{ tools: [{ name: 'a' }, { name: 'a' }] }, /tools name "a" twice/u],
      [{ tools: [{ name: 'a', parameters: 'none' }] }, /tools\[0\]\.parameters must be a JSON Schema object/u],
      [{ tools: [{ name: 'a' }], toolChoice: { name: 'b' } }, /toolChoice names "b", which is not one of its tools/u],
      [{ tools: [{ name: 'a' }], toolChoice: 'always' }, /toolChoice must be "auto", "none", "required"/u],
      [{ toolChoice: 'required' }, /toolChoice needs tools to choose from/u],
      [{ temperature: 3 }, /temperature must be a number from 0 to 2/u],
      [{ maxTokens: 0.5 }, /maxTokens must be a whole number/u],
    ];
    for (const [options, pattern] of cases) expect((await failure(session.chat('Hello', options as { stream?: false }))).message).toMatch(pattern);
    expect(server.requests).toEqual([]);
    expect(await session.messages()).toEqual([]);
  });
});
