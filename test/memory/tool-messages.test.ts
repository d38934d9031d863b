import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/core/types.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import { testMemory } from '../support/memory-fixtures.js';
import { strataFailure } from '../support/strata-failure.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function fixture(): ReturnType<typeof testMemory> {
  const made = testMemory();
  cleanups.push(made.cleanup);
  return made;
}

const CITIES = ['Lisbon', 'Porto', 'Madrid', 'Seville', 'Valencia', 'Bilbao', 'Granada', 'Malaga', 'Cordoba', 'Toledo'];

/**
 * An agent's conversation in the OpenAI format: each turn a question, one or two steps of tool calls
 * with their results, and an answer; `calls` tool calls in all.
 */
function agentConversation(calls: number): unknown[] {
  const messages: unknown[] = [{ role: 'system', content: 'You plan trips with the tools you have.' }];
  let made = 0;
  for (let turn = 0; made < calls; turn += 1) {
    const city = CITIES[turn % CITIES.length] ?? 'Lisbon';
    messages.push({ role: 'user', content: `What is the weather in ${city} on day ${turn + 1}, and is there a hotel under 120 euros?` });
    const steps = turn % 3 === 0 ? [['get_weather', 'find_hotel'], ['book_hotel']] : [['get_weather']];
    for (const names of steps) {
      const ids = names.map((name) => `call_${turn}_${name}`);
      made += names.length;
      messages.push({
        role: 'assistant',
        content: names[0] === 'book_hotel' ? `Booking the cheapest one in ${city}.` : null,
        tool_calls: names.map((name, index) => ({ id: ids[index], type: 'function', function: { name, arguments: JSON.stringify({ city, day: turn + 1 }) } })),
      });
      names.forEach((name, index) => {
        const result = name === 'get_weather' ? { city, celsius: 14 + (turn % 12), sky: turn % 2 === 0 ? 'clear' : 'cloudy' } : { city, hotel: `Casa ${turn}`, euros: 80 + turn };
        messages.push({ role: 'tool', tool_call_id: ids[index], content: JSON.stringify(result) });
      });
    }
    messages.push({ role: 'assistant', content: `In ${city} it will be ${14 + (turn % 12)} °C; Casa ${turn} costs ${80 + turn} euros a night.` });
  }
  return messages;
}

/** Why the rendered messages split a tool call from its result, or null when every pair is whole. */
function splitPair(messages: readonly ChatMessage[]): string | null {
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      const answers = messages.slice(index + 1, index + 1 + message.toolCalls.length);
      const ids = answers.map((answer) => (answer.role === 'tool' ? answer.toolCallId : undefined));
      if (JSON.stringify([...ids].sort()) !== JSON.stringify(message.toolCalls.map((call) => call.id).sort())) return `calls at ${index} not answered right after`;
    }
    if (message.role === 'tool') {
      const caller = messages.slice(0, index).reverse().find((other) => other.role !== 'tool');
      if (caller?.toolCalls?.some((call) => call.id === message.toolCallId) !== true) return `result at ${index} without its call`;
    }
  }
  return null;
}

describe('tool messages', () => {
  it('records a turn with tool steps as an assistant call message and a tool message per result, and sends them as pairs', async () => {
    const { memory } = fixture();
    const session = await memory.sessions.create({ title: 'Agent' });
    const result = await session.record({
      user: 'What is the weather in Lisbon tomorrow?',
      tools: [{ calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Lisbon', when: 'tomorrow' }, result: '{"celsius":21,"sky":"clear"}' }] }],
      assistant: 'Clear skies and 21 °C in Lisbon tomorrow.',
    });
    expect(result.status).toBe('summarised');
    const messages = await session.messages();
    expect(messages.map((message) => [message.role, message.content, message.toolCalls, message.toolCallId])).toEqual([
      ['user', 'What is the weather in Lisbon tomorrow?', undefined, undefined],
      ['assistant', '', [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon","when":"tomorrow"}' }], undefined],
      ['tool', '{"celsius":21,"sky":"clear"}', undefined, 'call_1'],
      ['assistant', 'Clear skies and 21 °C in Lisbon tomorrow.', undefined, undefined],
    ]);
    // The call's tokens are its message's: an empty text does not make it free.
    expect(messages[1]!.tokens.tier3).toBeGreaterThan(10);
    // The memory says what was called and what came back.
    expect(messages[1]!.tier2).toBe('called get_weather({"city":"Lisbon","when":"tomorrow"})');
    expect(messages[2]!.tier2).toBe('get_weather returned: {"celsius":21,"sky":"clear"}');
    expect(result.summary.assistantSummary).toMatch(/^Called get_weather\. /u);

    const pkg = await session.context({ budget: 2000 });
    const rendered = pkg.render();
    expect(rendered.filter((message) => message.role !== 'system')).toEqual([
      { role: 'user', content: 'What is the weather in Lisbon tomorrow?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon","when":"tomorrow"}' }] },
      { role: 'tool', content: '{"celsius":21,"sky":"clear"}', toolCallId: 'call_1' },
      { role: 'assistant', content: 'Clear skies and 21 °C in Lisbon tomorrow.' },
    ]);
    expect(pkg.tokens).toBe(createGptTokenizer().countMessages(rendered));
    // The archive finds the call by its tool.
    const [hit] = await session.search({ query: 'get_weather' });
    expect(hit).toMatchObject({ messageId: messages[1]!.id, role: 'assistant', content: 'called get_weather({"city":"Lisbon","when":"tomorrow"})' });
  });

  it('refuses tool steps that are malformed or reuse a call id, storing nothing', async () => {
    const { memory } = fixture();
    const session = await memory.sessions.create();
    const rejected = async (tools: unknown, pattern: RegExp): Promise<void> => {
      expect((await strataFailure(session.record({ user: 'Check Porto.', tools: tools as never, assistant: 'Done.' }), 'INVALID_INPUT')).message).toMatch(pattern);
    };
    await rejected('get_weather', /tools must be a list/u);
    await rejected([{ calls: [] }], /tools\[0\]\.calls must be a non-empty list/u);
    await rejected([{ calls: [{ id: 'c1', name: 'get_weather', arguments: '{}' }] }], /tools\[0\]\.calls\[0\]\.result must be a string/u);
    await rejected([{ calls: [{ id: '', name: 'get_weather', arguments: '{}', result: 'x' }] }], /tools\[0\]\.calls\[0\]\.id must be non-empty text/u);
    await rejected([{ calls: [{ id: 'c1', name: 'get_weather', arguments: { toJSON: () => undefined }, result: 'x' }] }], /tools\[0\]\.calls\[0\]\.arguments cannot be written as JSON/u);
    await rejected([{ calls: [{ id: 'c1', name: 'get_weather', arguments: 42, result: 'x' }] }], /arguments must be the arguments as JSON text or an object/u);
    const twice = { id: 'c1', name: 'get_weather', arguments: '{}', result: '{}' };
    await rejected([{ calls: [twice, twice] }], /repeats the tool call id "c1"/u);
    expect(await session.messages()).toEqual([]);
  });

  it('imports an agent conversation with 50 tool calls, and its export imports back byte-identical', async () => {
    const first = fixture();
    const imported = await first.memory.sessions.import({ data: { messages: agentConversation(50) }, title: 'Trip agent' });
    expect(imported.skipped).toBe(0);
    const session = await first.memory.sessions.open(imported.sessionId);
    const stored = await session.messages();
    expect(stored.flatMap((message) => message.toolCalls ?? [])).toHaveLength(50);
    expect(stored.filter((message) => message.role === 'tool')).toHaveLength(50);
    const exported = await session.export({ format: 'json' });

    const second = fixture();
    await second.memory.sessions.import({ data: exported });
    const again = await (await second.memory.sessions.open(imported.sessionId)).export({ format: 'json' });
    const withoutTime = (text: string): unknown => ({ ...(JSON.parse(text) as object), exportedAt: null });
    expect(withoutTime(again)).toEqual(withoutTime(exported));
    expect(again.replace(/"exportedAt": "[^"]*"/u, '')).toBe(exported.replace(/"exportedAt": "[^"]*"/u, ''));

    const markdown = await session.export({ format: 'markdown' });
    expect(markdown).toContain('- calls `get_weather` (`call_0_get_weather`) with `{"city":"Lisbon","day":1}`');
    expect(markdown).toContain('**tool** answering `call_0_get_weather`');
  });

  it('refuses an edited export whose tool fields are malformed, storing nothing', async () => {
    const { memory } = fixture();
    const imported = await memory.sessions.import({ data: agentConversation(3), title: 'Edited' });
    const session = await memory.sessions.open(imported.sessionId);
    const exported = JSON.parse(await session.export({ format: 'json' })) as { messages: Array<{ role: string; speaker: string | null; toolCalls?: Array<{ name: string; arguments: string }> }> };
    await session.delete();
    const longName = structuredClone(exported);
    longName.messages.find((message) => message.toolCalls !== undefined)!.toolCalls![0]!.name = 'n'.repeat(5000);
    const spoken = structuredClone(exported);
    spoken.messages.find((message) => message.role === 'tool')!.speaker = 'Weather bot';
    const broken = structuredClone(exported);
    broken.messages.find((message) => message.toolCalls !== undefined)!.toolCalls![0]!.arguments = '{"city":"\ud800"}';
    for (const [data, pattern] of [
      [longName, /has a tool call id or name that is empty, over 200 characters/u],
      [spoken, /is a tool result with a speaker/u],
      [broken, /tool call arguments with a lone UTF-16 surrogate/u],
    ] as const) {
      expect((await strataFailure(memory.sessions.import({ data, source: 'edited.json' }), 'IMPORT_INVALID')).message).toMatch(pattern);
    }
    expect(await memory.sessions.list()).toEqual([]);
  });

  it('refuses a file whose tool call has no result, or whose result answers no call, naming the message', async () => {
    const { memory } = fixture();
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }] };
    const cases: Array<[unknown[], RegExp]> = [
      [[{ role: 'user', content: 'Find flights.' }, call, { role: 'assistant', content: 'None found.' }], /agent\.json messages\[1\] calls a tool \("c1"\) that no tool message answers before agent\.json messages\[2\]/u],
      [[{ role: 'user', content: 'Find flights.' }, { role: 'tool', tool_call_id: 'c1', content: '[]' }], /agent\.json messages\[1\] is a tool result with no assistant tool call/u],
      [[{ role: 'user', content: 'Find flights.' }, call, { role: 'tool', content: '[]' }], /agent\.json messages\[2\]\.tool_call_id must be non-empty text/u],
      [[{ role: 'user', content: 'Find flights.' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] }], /messages\[1\]\.tool_calls\[0\] must be/u],
      [[{ role: 'user', content: 'Find flights.', tool_calls: [call.tool_calls[0]] }], /agent\.json messages\[0\] is a user message with tool_calls/u],
      [[{ role: 'user', content: 'Find flights.' }, { role: 'assistant', content: 'Done.', tool_call_id: 'c1' }], /agent\.json messages\[1\] is an assistant message with a tool_call_id/u],
    ];
    for (const [data, pattern] of cases) {
      expect((await strataFailure(memory.sessions.import({ data, source: 'agent.json' }), 'IMPORT_INVALID')).message).toMatch(pattern);
    }
    expect(await memory.sessions.list()).toEqual([]);
  });

  it('never splits a tool call from its result in a package, at any budget from 200 to 20,000 tokens', async () => {
    const { memory } = fixture();
    const imported = await memory.sessions.import({ data: agentConversation(60), title: 'Pairs' });
    const session = await memory.sessions.open(imported.sessionId);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 200, max: 20_000 }), fc.option(fc.constantFrom('hotel in Porto', 'weather Seville', 'book_hotel'), { nil: undefined }), async (budget, query) => {
        const pkg = await session.context(query === undefined ? { budget } : { budget, query });
        const rendered = pkg.render();
        expect(pkg.tokens).toBeLessThanOrEqual(budget);
        expect(splitPair(rendered)).toBeNull();
      }),
      { numRuns: 60, seed: 20261126 },
    );
  });
});
