/**
 * The detail protocol through the proxy: the upstream model asks for a message in full or for a search
 * (as a marker, or through the detail tools when the client offers tools), the proxy applies it, builds
 * the package again and asks again, and the client sees only the answer — plain or streamed, with the
 * official openai client. Only the upstream's own output makes a request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptEntry, RecordedRequest } from '../support/scripted-openai-server.js';
import { createScriptedMemoryManager } from '../../src/testing/scripted-memory-manager.js';
import { proxyRig, upstreamMessages, type ProxyRig } from './proxy-fixtures.js';

const FILLER = 'We walked the garden again this morning and talked about where the new beds should go, how much sun the corner gets, and whether the old apple tree needs pruning before winter arrives.';
/** Turn 1: the code sits past the first 40 words, so the message's shorter tiers leave it out. */
const GATE = `${FILLER} Also, for the delivery on Friday: the side gate code is 4417, and the driver should ring twice.`;

const rigs: ProxyRig[] = [];
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.close()));
});

/** A rig whose session `garden` holds eight turns, the first with the gate code; the upstream answers by `answer`. */
async function gardenRig(answer: (request: RecordedRequest, seen: string) => ScriptEntry, env: Record<string, string> = {}): Promise<ProxyRig> {
  const script = Array.from({ length: 8 }, () => (request: RecordedRequest) => {
    const step = answer(request, JSON.stringify((request.body as { messages?: unknown }).messages));
    return typeof step === 'function' ? step(request) : step;
  });
  const rig = await proxyRig(script, env, createScriptedMemoryManager([]));
  rigs.push(rig);
  const session = await rig.memory.sessions.create({ id: 'garden', title: 'Garden' });
  await session.record({ user: GATE, assistant: 'Noted.' });
  for (let turn = 2; turn <= 8; turn++) await session.record({ user: `Turn ${turn}: ${FILLER}`, assistant: `Reply ${turn}.` });
  return rig;
}

/** The session's turns once the proxied turn is stored (the proxy records after answering). */
async function turnsOf(rig: ProxyRig, count: number): Promise<Awaited<ReturnType<Awaited<ReturnType<ProxyRig['memory']['sessions']['open']>>['turns']>>> {
  const session = await rig.memory.sessions.open('garden');
  for (let waited = 0; waited < 10_000; waited += 20) {
    const turns = await session.turns();
    if (turns.length >= count && turns.at(-1)?.status !== 'pending-retry') return turns;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the session never reached ${String(count)} turns`);
}

const askForGate = (_request: RecordedRequest, seen: string): ScriptEntry => (seen.includes('4417') ? { reply: 'The side gate code is 4417.' } : { reply: '[REQUEST_TIER:3:1u]' });

describe('the detail protocol through the proxy', () => {
  it('plain: raises the message the model asks for, asks again, answers from it, and keeps the request with the turn', async () => {
    const rig = await gardenRig(askForGate);
    const completion = await rig.client({ session: 'garden' }).chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'What was that number again?' }] });
    expect(completion.choices[0]?.message.content).toBe('The side gate code is 4417.');
    const asked = upstreamMessages(rig.upstream, 0);
    expect(asked.some((message) => message.role === 'system' && String(message.content).includes('[REQUEST_TIER:3:12u]'))).toBe(true);
    expect(JSON.stringify(asked)).not.toContain('4417');
    expect(JSON.stringify(upstreamMessages(rig.upstream, 1))).toContain('4417');
    // Both rounds' tokens are billed: the usage says so.
    const words = (index: number): number => upstreamMessages(rig.upstream, index).reduce((total, message) => total + String(message.content ?? '').split(/\s+/u).filter(Boolean).length, 0);
    expect(completion.usage?.prompt_tokens).toBe(words(0) + words(1));

    const turns = await turnsOf(rig, 9);
    const session = await rig.memory.sessions.open('garden');
    const [first] = await session.messages();
    expect(first?.requiredTier).toBe(3);
    expect(turns.at(-1)?.detailRequests).toEqual([{ round: 1, kind: 'tier', target: '1u', tier: 3, messageId: first?.id, outcome: 'raised' }]);
    expect((await session.messages()).at(-1)?.content).toBe('The side gate code is 4417.');
    expect(await rig.memory.stats()).toMatchObject({ detailRequests: 1, detailRequestsIgnored: 0 });
  });

  it('streamed: a marker split over chunks never reaches the client, and the next round streams on', async () => {
    const rig = await gardenRig((_request, seen) => (seen.includes('4417') ? { reply: 'It is 4417.' } : { reply: 'Let me look. [SEARCH_EPISODIC: side gate code for the delivery]' }), { STRATA_RECALL: 'lexical' });
    const stream = await rig.client({ session: 'garden' }).chat.completions.create({ model: 'scripted-model', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Remind me of that number, please.' }] });
    const pieces: string[] = [];
    const finishes: unknown[] = [];
    let usage: unknown = null;
    for await (const chunk of stream) {
      pieces.push(chunk.choices[0]?.delta.content ?? '');
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces.join('')).toBe('Let me look. It is 4417.');
    expect(pieces.some((piece) => piece.includes('['))).toBe(false);
    // One end for the client, after the last round, with both rounds' usage.
    expect(finishes).toEqual(['stop']);
    // (The scripted upstream counts words: 10 in the first reply, 3 in the second.)
    expect(usage).toMatchObject({ completion_tokens: 13 });
    expect(rig.upstream.requests).toHaveLength(2);
    const turns = await turnsOf(rig, 9);
    expect(turns.at(-1)?.detailRequests).toEqual([{ round: 1, kind: 'search', target: 'side gate code for the delivery', outcome: 'searched' }]);
    expect((await (await rig.memory.sessions.open('garden')).messages()).at(-1)?.content).toBe('Let me look. It is 4417.');
  });

  it('does nothing for a marker the user typed, and ignores (and counts) a request naming another session', async () => {
    let calls = 0;
    const rig = await gardenRig(() => (calls++ === 0 ? { reply: 'Done.' } : { reply: 'Checking. [REQUEST_TIER:3:other-session-message]' }));
    const other = await rig.memory.sessions.create({ id: 'other' });
    await other.record({ user: 'Something else entirely.', assistant: 'Sure.' });
    const client = rig.client({ session: 'garden' });
    const typed = await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Please [REQUEST_TIER:3:1a] and tell me.' }] });
    expect(typed.choices[0]?.message.content).toBe('Done.');
    expect(rig.upstream.requests).toHaveLength(1);
    await turnsOf(rig, 9);
    const [, reply] = await (await rig.memory.sessions.open('garden')).messages();
    expect(reply?.requiredTier).not.toBe(3);

    const foreign = await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'And the other thing?' }] });
    expect(foreign.choices[0]?.message.content).toBe('Checking. Checking. Checking. ');
    const turns = await turnsOf(rig, 10);
    expect(turns.at(-1)?.detailRequests?.map((request) => request.outcome)).toEqual(['ignored', 'ignored', 'over-limit']);
    expect(await rig.memory.stats()).toMatchObject({ detailRequests: 3, detailRequestsIgnored: 3 });
  });

  it('offers the detail tools to a client that sends tools, answers their calls itself, and gives the client only its own', async () => {
    const detailCall = { id: 'call_detail', type: 'function', function: { name: 'request_tier', arguments: '{"message":"1u","tier":3}' } };
    const weatherCall = { id: 'call_weather', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Leeds"}' } };
    const completion = (calls: unknown[]): ScriptEntry => ({
      raw: JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'scripted-model', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } }),
      contentType: 'application/json',
    });
    // (Lexical recall: the question shares no word with the code's message, so the first package lacks it.)
    const rig = await gardenRig((_request, seen) => (seen.includes('4417') ? completion([weatherCall]) : completion([detailCall, weatherCall])), { STRATA_RECALL: 'lexical' });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const answer = await rig.client({ session: 'garden' }).chat.completions.create({ model: 'scripted-model', tools, messages: [{ role: 'user', content: 'What was that number again, and will it rain in Leeds?' }] });
    // Round 1 asked for detail beside the client's call: the reply stands, without the detail call.
    expect(answer.choices[0]?.message.tool_calls).toEqual([weatherCall]);
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    const offered = (rig.upstream.requests[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((tool) => tool.function.name);
    expect(offered).toEqual(['get_weather', 'request_tier', 'search_episodic']);
    expect(upstreamMessages(rig.upstream, 0).some((message) => message.role === 'system' && String(message.content).includes('request_tier'))).toBe(true);
    const [first] = await (await rig.memory.sessions.open('garden')).messages();
    expect(first?.requiredTier).toBe(3);
    expect(rig.upstream.requests).toHaveLength(1);
  });

  it('streamed with tools: a round that only calls detail tools is answered by the proxy and the next round streams the answer', async () => {
    const sse = (chunks: unknown[]): ScriptEntry => ({ raw: `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`, contentType: 'text/event-stream' });
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'scripted-model' };
    const askChunks = [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_d', type: 'function', function: { name: 'request_tier', arguments: '' } }] }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"message":"1u"}' } }] }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ];
    const answerChunks = [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'The code is ' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: { content: '4417.' }, finish_reason: null }] },
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ];
    const rig = await gardenRig((_request, seen) => (seen.includes('4417') ? sse(answerChunks) : sse(askChunks)));
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }];
    const stream = await rig.client({ session: 'garden' }).chat.completions.create({ model: 'scripted-model', stream: true, tools, messages: [{ role: 'user', content: 'What was that number again?' }] });
    const seenCalls: unknown[] = [];
    let text = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.choices[0]?.delta.tool_calls) seenCalls.push(chunk.choices[0].delta.tool_calls);
    }
    expect(text).toBe('The code is 4417.');
    expect(seenCalls).toEqual([]);
    // The second round carries the detail call and what it did, after the user's message.
    const second = upstreamMessages(rig.upstream, 1);
    expect(second.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_d', function: { name: 'request_tier' } }] });
    expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_d' });
    expect(String(second.at(-1)?.content)).toContain('now shown at tier 3');
    const turns = await turnsOf(rig, 9);
    expect(turns.at(-1)?.detailRequests?.map((request) => request.outcome)).toEqual(['raised']);
  });

  it('ends the stream with an error event and stores nothing when the upstream fails in a later round', async () => {
    let calls = 0;
    const rig = await gardenRig(() => (calls++ === 0 ? { reply: '[REQUEST_TIER:3:1u]' } : { status: 500, body: { error: { message: 'upstream fell over' } } }));
    const stream = await rig.client({ session: 'garden' }).chat.completions.create({ model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'What was that number again?' }] });
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow(/HTTP 500/u);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await (await rig.memory.sessions.open('garden')).turns()).length).toBe(8);
  });
});

const CHUNK = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'scripted-model' };
const sse = (chunks: unknown[], tail = 'data: [DONE]\n\n'): ScriptEntry => ({ raw: `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}${tail}`, contentType: 'text/event-stream' });
const completionOf = (message: unknown, finish: string): ScriptEntry => ({
  raw: JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'scripted-model', choices: [{ index: 0, message, finish_reason: finish }] }),
  contentType: 'application/json',
});
const weatherTool = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];

/** A request to the proxy as raw HTTP, and the chunks of its answer when it streams. */
async function post(rig: ProxyRig, body: Record<string, unknown>): Promise<{ status: number; text: string; chunks: Array<{ choices: Array<{ index: number; delta: { content?: string; tool_calls?: unknown[] }; finish_reason: unknown }> }> }> {
  const answer = await fetch(`${rig.server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${rig.key}`, 'content-type': 'application/json', 'x-strata-session': 'garden' },
    body: JSON.stringify({ model: 'scripted-model', ...body }),
  });
  const text = await answer.text();
  const chunks = text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { choices: Array<{ index: number; delta: { content?: string; tool_calls?: unknown[] }; finish_reason: unknown }> });
  return { status: answer.status, text, chunks };
}

const contentOf = (chunks: Awaited<ReturnType<typeof post>>['chunks']): string => chunks.map((chunk) => chunk.choices.find((choice) => choice.index === 0)?.delta.content ?? '').join('');

describe('what the proxy passes on while the protocol is on', () => {
  it('sends the last piece once when it comes in the chunk that ends the reply, text or tool call', async () => {
    let calls = 0;
    const rig = await gardenRig(() =>
      calls++ === 0
        ? sse([{ ...CHUNK, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello ' }, finish_reason: null }] }, { ...CHUNK, choices: [{ index: 0, delta: { content: 'world.' }, finish_reason: 'stop' }] }])
        : sse([
            { ...CHUNK, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }, finish_reason: null }] },
            { ...CHUNK, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Leeds"}' } }] }, finish_reason: 'tool_calls' }] },
          ]),
    );
    const text = await post(rig, { stream: true, messages: [{ role: 'user', content: 'Hi?' }] });
    expect(contentOf(text.chunks)).toBe('Hello world.');
    expect(text.chunks.filter((chunk) => chunk.choices[0]?.finish_reason === 'stop')).toHaveLength(1);
    const tool = await post(rig, { stream: true, tools: weatherTool, messages: [{ role: 'user', content: 'Weather?' }] });
    const pieces = tool.chunks.flatMap((chunk) => (chunk.choices[0]?.delta.tool_calls ?? []) as Array<{ function?: { arguments?: string } }>);
    expect(pieces.map((piece) => piece.function?.arguments ?? '').join('')).toBe('{"city":"Leeds"}');
  });

  it('shows and stores the same text when a round that asks ends on held-back text', async () => {
    let calls = 0;
    const rig = await gardenRig(() =>
      calls++ === 0 ? sse([{ ...CHUNK, choices: [{ index: 0, delta: { role: 'assistant', content: 'Look [SEARCH_EPISODIC: walked] [REQ' }, finish_reason: null }] }, { ...CHUNK, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }]) : { reply: 'Done.' },
    );
    const answer = await post(rig, { stream: true, messages: [{ role: 'user', content: 'Hi?' }] });
    await turnsOf(rig, 9);
    const stored = (await (await rig.memory.sessions.open('garden')).messages()).at(-1)?.content;
    expect(contentOf(answer.chunks)).toBe('Look  [REQDone.');
    expect(stored).toBe('Look  [REQDone.');
  });

  it("drops an event's other fields with the data it holds back", async () => {
    const data = (content: string, finish: string | null = null): string => `data: ${JSON.stringify({ ...CHUNK, choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
    const rig = await gardenRig(() => ({ raw: `${data('A [')}event: ping\n${data('REQ')}event: note\n${data('x] b')}${data('', 'stop')}data: [DONE]\n\n`, contentType: 'text/event-stream' }));
    const answer = await post(rig, { stream: true, messages: [{ role: 'user', content: 'Hi?' }] });
    expect(contentOf(answer.chunks)).toBe('A [REQx] b');
    expect(answer.text).not.toContain('event: ping');
    expect(answer.text).toContain('event: note\ndata: ');
  });

  it('leaves several choices (n > 1) to the upstream: no protocol, the answer as it came', async () => {
    const rig = await gardenRig(() => ({ reply: 'Plain answer.' }));
    const answer = await post(rig, { n: 2, messages: [{ role: 'user', content: 'Hi?' }] });
    expect(answer.status).toBe(200);
    expect(rig.upstream.requests).toHaveLength(1);
    expect(JSON.stringify(upstreamMessages(rig.upstream, 0))).not.toContain('REQUEST_TIER');
  });

  it('tells calls apart by id when the provider sends no index, and keeps only the client’s', async () => {
    const rig = await gardenRig(() =>
      sse([
        { ...CHUNK, choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ id: 'call_d', type: 'function', function: { name: 'request_tier', arguments: '{"message":"1u"}' } }] }, finish_reason: null }] },
        { ...CHUNK, choices: [{ index: 0, delta: { tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Leeds"}' } }] }, finish_reason: null }] },
        { ...CHUNK, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      ]),
    );
    const answer = await post(rig, { stream: true, tools: weatherTool, messages: [{ role: 'user', content: 'Weather?' }] });
    const calls = answer.chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([{ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Leeds"}' } }]);
    expect((await (await rig.memory.sessions.open('garden')).messages())[0]?.requiredTier).toBe(3);
  });

  it('never fails the request or loses the turn for what the model asks: tier 1, empty arguments, fifty-one markers', async () => {
    let calls = 0;
    const many = Array.from({ length: 51 }, (_, index) => `[SEARCH_EPISODIC: word${String(index)}]`).join(' ');
    const script = [
      { reply: 'Hm [REQUEST_TIER:1:1u]' },
      { reply: 'Fine.' },
      completionOf({ role: 'assistant', content: null, tool_calls: [{ id: 'call_d', type: 'function', function: { name: 'request_tier', arguments: '' } }] }, 'tool_calls'),
      completionOf({ role: 'assistant', content: 'The answer.' }, 'stop'),
      { reply: many },
      { reply: 'Found it.' },
    ];
    const rig = await gardenRig(() => script[calls++] ?? { reply: 'Spare.' });
    expect((await post(rig, { messages: [{ role: 'user', content: 'What?' }] })).status).toBe(200);
    await turnsOf(rig, 9);
    expect((await post(rig, { tools: weatherTool, messages: [{ role: 'user', content: 'And?' }] })).status).toBe(200);
    const turns = await turnsOf(rig, 10);
    expect(turns.at(-2)?.detailRequests?.map((request) => [request.tier, request.outcome])).toEqual([[1, 'unchanged']]);
    expect(turns.at(-1)?.detailRequests).toEqual([{ round: 1, kind: 'tier', target: '(no arguments)', outcome: 'ignored' }]);
    expect((await post(rig, { messages: [{ role: 'user', content: 'Anything else?' }] })).status).toBe(200);
    const last = (await turnsOf(rig, 11)).at(-1)?.detailRequests ?? [];
    // Eight applied, the rest over the limit; the turn keeps the first fifty.
    expect(last.filter((request) => request.outcome === 'searched')).toHaveLength(8);
    expect(last).toHaveLength(50);
  });
});
