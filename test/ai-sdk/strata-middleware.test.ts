import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { strataMiddleware } from '../../src/ai-sdk/index.js';
import type { ChatMessage } from '../../src/core/types.js';
import type { Memory } from '../../src/memory/create-memory.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import { startScriptedServer, type ScriptedServer, type ScriptEntry } from '../support/scripted-openai-server.js';
import { testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const tokenizer = createGptTokenizer();

/** A streamed reply that calls one tool, as an OpenAI-compatible server sends it. */
function callingStream(id: string, name: string, args: string): ScriptEntry {
  const chunk = (delta: unknown, finish: string | null = null): string => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return {
    raw: [chunk({ role: 'assistant', tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }] }), chunk({}, 'tool_calls'), 'data: [DONE]\n\n'].join(''),
    contentType: 'text/event-stream',
  };
}

async function rig(script: ScriptEntry[]): Promise<{ server: ScriptedServer; memory: Memory }> {
  const server = await startScriptedServer({ script });
  const made = testMemory();
  cleanups.push(made.cleanup, () => server.close());
  return { server, memory: made.memory };
}

function provider(server: ScriptedServer) {
  return createOpenAICompatible({ name: 'scripted', baseURL: server.baseUrl, apiKey: 'test' });
}

/** Each chat request's messages, as the model received them. */
function prompts(server: ScriptedServer): Array<Array<Record<string, unknown>>> {
  return server.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => (request.body as { messages: Array<Record<string, unknown>> }).messages);
}

/** A request's messages counted as Strata counts a package. */
function tokensOf(messages: Array<Record<string, unknown>>): number {
  return tokenizer.countMessages(
    messages.map((message): ChatMessage => {
      const calls = (message.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }> | undefined)?.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments }));
      return {
        role: message.role as ChatMessage['role'],
        content: typeof message.content === 'string' ? message.content : '',
        ...(calls === undefined ? {} : { toolCalls: calls }),
        ...(typeof message.tool_call_id === 'string' ? { toolCallId: message.tool_call_id } : {}),
      };
    }),
  );
}

const CITIES = ['Lisbon', 'Porto', 'Seville', 'Granada', 'Valencia'];

describe('the AI SDK middleware', () => {
  it('over 20 streamed turns, some calling a tool: every turn recorded once and in order, tool calls kept, every prompt within the budget', async () => {
    const script: ScriptEntry[] = [];
    for (let turn = 0; turn < 20; turn += 1) {
      if (turn % 4 === 1) script.push(callingStream(`call_${turn}`, 'get_weather', JSON.stringify({ city: CITIES[turn % 5] })));
      script.push({ reply: `Turn ${turn + 1}: ${CITIES[turn % 5]} it is; I have noted the plan for day ${turn + 1} of the trip, with the museum in the morning.` });
    }
    const { server, memory } = await rig(script);
    const session = await memory.sessions.create({ title: 'Trip' });
    const budget = 700;
    const model = wrapLanguageModel({ model: provider(server).chatModel('scripted-model'), middleware: strataMiddleware({ session, budget }) });
    const getWeather = tool({
      description: 'The weather in a city',
      inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      execute: async ({ city }) => ({ city, celsius: 21 }),
    });
    const history: ModelMessage[] = [];
    for (let turn = 0; turn < 20; turn += 1) {
      history.push({ role: 'user', content: `Day ${turn + 1}: what should we do in ${CITIES[turn % 5]}, and how is the weather? We travel with two children and a budget of 90 euros a day.` });
      const result = streamText({ model, system: 'You plan family trips.', messages: history, tools: { get_weather: getWeather }, stopWhen: stepCountIs(3) });
      let text = '';
      for await (const piece of result.textStream) text += piece;
      expect(text).toBe(script.map((entry) => ('reply' in entry ? entry.reply : '')).filter((reply) => reply !== '')[turn]);
      history.push(...(await result.response).messages);
    }
    // (Each answer's turn is recorded once its stream has ended; the next call waits for it, the last one is awaited here.)
    await expect.poll(async () => (await session.info()).turnCount).toBe(20);
    const messages = await session.messages();
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(history.filter((message) => message.role === 'user').map((message) => message.content));
    expect(messages.filter((message) => message.role === 'assistant' && message.toolCalls === undefined).map((message) => message.content.slice(0, 8))).toEqual(
      Array.from({ length: 20 }, (_, turn) => `Turn ${turn + 1}:`.padEnd(8).slice(0, 8)),
    );
    const calls = messages.filter((message) => message.toolCalls !== undefined);
    expect(calls.map((message) => [message.turn, message.toolCalls?.[0]?.name, message.toolCalls?.[0]?.arguments])).toEqual(
      [1, 5, 9, 13, 17].map((index) => [index + 1, 'get_weather', JSON.stringify({ city: CITIES[index % 5] })]),
    );
    expect(messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([1, 5, 9, 13, 17].map((index) => JSON.stringify({ city: CITIES[index % 5], celsius: 21 })));
    // Every prompt the model received fits the budget; late ones hold the package, not the whole history.
    const sent = prompts(server);
    expect(sent).toHaveLength(25);
    for (const messages of sent) expect(tokensOf(messages)).toBeLessThanOrEqual(budget);
    expect(sent.at(-1)!.length).toBeLessThan(history.length);
    expect(JSON.stringify(sent.at(-1))).toContain('What this conversation has established');
  });

  it('with generateText records the turn after the answer, and the history of a session new to it first', async () => {
    const { server, memory } = await rig([{ reply: 'Carrots go in from March.' }, { reply: 'Every two weeks until June.' }]);
    const session = await memory.sessions.create();
    const model = wrapLanguageModel({ model: provider(server).chatModel('scripted-model'), middleware: strataMiddleware({ session, budget: 2000 }) });
    const history: ModelMessage[] = [
      { role: 'user', content: 'Our allotment is plot 14.' },
      { role: 'assistant', content: 'Plot 14, noted.' },
      { role: 'user', content: 'When do I sow carrots?' },
    ];
    const first = await generateText({ model, messages: history });
    expect(first.text).toBe('Carrots go in from March.');
    // A session with no turns gets the prompt as sent.
    expect(prompts(server)[0]?.map((message) => message.content)).toEqual(['Our allotment is plot 14.', 'Plot 14, noted.', 'When do I sow carrots?']);
    await generateText({ model, messages: [...history, { role: 'assistant', content: first.text }, { role: 'user', content: 'And how often after that?' }] });
    const stored = await session.messages();
    expect(stored.map((message) => message.content)).toEqual([
      'Our allotment is plot 14.',
      'Plot 14, noted.',
      'When do I sow carrots?',
      'Carrots go in from March.',
      'And how often after that?',
      'Every two weeks until June.',
    ]);
  });

  it('records nothing of an answer that failed mid-stream, and keeps going after a recording that failed', async () => {
    const chunk = (body: unknown): string => `data: ${JSON.stringify(body)}\n\n`;
    const broken = [chunk({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'scripted-model', choices: [{ index: 0, delta: { content: 'The answer is partly wri' }, finish_reason: null }] }), chunk({ error: { message: 'overloaded' } }), 'data: [DONE]\n\n'].join('');
    const server = await startScriptedServer({ script: [{ raw: broken, contentType: 'text/event-stream' }, { reply: 'y '.repeat(600) }, { reply: 'A short answer.' }] });
    const made = testMemory({ env: { STRATA_MAX_MESSAGE_BYTES: '1000' } });
    cleanups.push(made.cleanup, () => server.close());
    const session = await made.memory.sessions.create();
    const failures: unknown[] = [];
    const middleware = strataMiddleware({
      session,
      onError: (error) => {
        failures.push(error);
        throw new Error('the handler fails too');
      },
    });
    const model = wrapLanguageModel({ model: provider(server).chatModel('scripted-model'), middleware });
    const first = streamText({ model, messages: [{ role: 'user', content: 'What is the answer?' }], onError: () => undefined });
    for await (const piece of first.textStream) void piece;
    // A reply over the size limit: its recording fails, onError hears of it (and throws), later turns go on.
    await generateText({ model, messages: [{ role: 'user', content: 'Say y many times.' }] });
    await generateText({ model, messages: [{ role: 'user', content: 'Now briefly.' }] });
    await expect.poll(async () => (await session.info()).turnCount).toBe(1);
    expect((await session.messages()).map((message) => message.content)).toEqual(['Now briefly.', 'A short answer.']);
    expect(failures).toHaveLength(1);
  });

  it('records a tool exchange the app did not take further before the next message, and names files the user sent', async () => {
    const server = await startScriptedServer({
      script: [callingStream('call_1', 'get_weather', '{"city":"Lisbon"}'), { reply: 'You are welcome.' }, { reply: 'A lighthouse at dusk.' }],
    });
    const made = testMemory();
    cleanups.push(made.cleanup, () => server.close());
    const session = await made.memory.sessions.create();
    const model = wrapLanguageModel({ model: provider(server).chatModel('scripted-model'), middleware: strataMiddleware({ session }) });
    const getWeather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }), execute: async () => ({ celsius: 21 }) });
    const history: ModelMessage[] = [{ role: 'user', content: 'Weather in Lisbon?' }];
    // One step only (the SDK's default): the tool runs, the model is not asked again.
    const first = streamText({ model, messages: history, tools: { get_weather: getWeather } });
    for await (const piece of first.textStream) void piece;
    history.push(...(await first.response).messages, { role: 'user', content: 'Thanks!' });
    const second = streamText({ model, messages: history, tools: { get_weather: getWeather } });
    for await (const piece of second.textStream) void piece;
    await expect.poll(async () => (await session.info()).turnCount).toBe(2);
    const stored = await session.messages();
    expect(stored.map((message) => [message.turn, message.role, message.toolCallId ?? message.toolCalls?.[0]?.name ?? message.content])).toEqual([
      [1, 'user', 'Weather in Lisbon?'],
      [1, 'assistant', 'get_weather'],
      [1, 'tool', 'call_1'],
      [2, 'user', 'Thanks!'],
      [2, 'assistant', 'You are welcome.'],
    ]);
    await generateText({ model, messages: [{ role: 'user', content: [{ type: 'image', image: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' }] }] });
    await expect.poll(async () => (await session.info()).turnCount).toBe(3);
    expect((await session.messages()).slice(-2).map((message) => message.content)).toEqual(['[file image/png]', 'A lighthouse at dusk.']);
  });

  it('records the history of a new session once when two wrapped models answer in it at once', async () => {
    const server = await startScriptedServer({ script: [{ reply: 'First answer.' }, { reply: 'Second answer.' }] });
    const made = testMemory();
    cleanups.push(made.cleanup, () => server.close());
    const session = await made.memory.sessions.create();
    // Recording is slow here, so the second answer comes while the first is still being recorded.
    const slow = { ...session, record: async (input: Parameters<typeof session.record>[0]) => (await new Promise((resolve) => setTimeout(resolve, 100)), session.record(input)) };
    const models = [0, 1].map(() => wrapLanguageModel({ model: provider(server).chatModel('scripted-model'), middleware: strataMiddleware({ session: slow }) }));
    const history: ModelMessage[] = [
      { role: 'user', content: 'Our plot is number 14.' },
      { role: 'assistant', content: 'Plot 14, noted.' },
    ];
    await Promise.all(models.map((model, index) => generateText({ model, messages: [...history, { role: 'user', content: `Question ${index + 1}?` }] })));
    await expect.poll(async () => (await session.info()).turnCount).toBe(3);
    expect((await session.messages()).filter((message) => message.content === 'Our plot is number 14.')).toHaveLength(1);
  });
});
