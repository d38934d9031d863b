import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryManager } from '../../src/managers/memory-manager.js';
import { createScriptedMemoryManager } from '../../src/testing/scripted-memory-manager.js';
import { proxyRig, upstreamMessages, type ProxyRig } from './proxy-fixtures.js';

const rigs: ProxyRig[] = [];

afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.close()));
});

async function rig(...args: Parameters<typeof proxyRig>): Promise<ProxyRig> {
  const made = await proxyRig(...args);
  rigs.push(made);
  return made;
}

/** Wait until the session has `count` turns stored (the proxy records after the answer has gone). */
async function turnsStored(made: ProxyRig, sessionId: string, count: number): Promise<Array<{ content: string; role: string }>> {
  for (let waited = 0; ; waited += 20) {
    const messages = (await storedMessages(made, sessionId)) as Array<{ content: string; role: string }>;
    if (messages.length >= count * 2 || waited > 10_000) return messages;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const SYSTEM = 'You are a concise planning assistant.';

/** The messages stored for a session; none when it was never created (the proxy creates it only to record a turn). */
async function storedMessages(made: ProxyRig, sessionId: string): Promise<unknown[]> {
  const listed = await made.memory.sessions.list({ limit: 500 });
  if (!listed.some((session) => session.id === sessionId)) return [];
  return (await made.memory.sessions.open(sessionId)).messages();
}

describe('the OpenAI-compatible proxy, used by the official openai client', () => {
  it('over 22 turns of a client resending its whole history: stores each new turn once, in order, and sends the package instead of the history', async () => {
    const turns = Array.from({ length: 22 }, (_, index) => ({
      user: index === 0 ? 'Our venue budget is £9,000 and the wedding is on 14 June in Harrogate.' : `Question ${index + 1}: what should we sort out for item ${index + 1} of the plan?`,
      reply: `Reply ${index + 1}: book item ${index + 1} this week.`,
    }));
    const made = await rig(turns.map((turn) => ({ reply: turn.reply })));
    const client = made.client({ session: 'wedding-plan' });
    const history: Array<{ role: 'system' | 'user' | 'assistant'; content: string }> = [{ role: 'system', content: SYSTEM }];
    for (const turn of turns) {
      history.push({ role: 'user', content: turn.user });
      const { data, response } = await client.chat.completions.create({ model: 'scripted-model', messages: history }).withResponse();
      expect(response.headers.get('x-strata-session')).toBe('wedding-plan');
      expect(data.choices[0]?.message.content).toBe(turn.reply);
      history.push({ role: 'assistant', content: turn.reply });
    }
    const stored = await turnsStored(made, 'wedding-plan', 22);
    expect(stored.map((message) => message.content)).toEqual(turns.flatMap((turn) => [turn.user, turn.reply]));

    const last = upstreamMessages(made.upstream, 21);
    expect(last[0]).toEqual({ role: 'system', content: SYSTEM });
    expect(last[last.length - 1]).toEqual({ role: 'user', content: turns[21]?.user });
    // The package carries the first turn's facts and the reply just before (recorded before the next request is answered); the history itself is not resent whole.
    expect(JSON.stringify(last)).toContain('£9,000');
    expect(JSON.stringify(last)).toContain(turns[20]?.reply);
    expect(last.length).toBeLessThan(history.length);
  });

  it("builds the next package on the previous reply's memory, even when that memory is slow to write", async () => {
    const scripted = createScriptedMemoryManager([{ diff: { add: [{ text: 'venue: Ripley Castle, booked for 14 June', kind: 'fact', sourceMessageIds: [] }] } }]);
    const slow: MemoryManager = { ...scripted, processTurn: async (turn) => (await new Promise((resolve) => setTimeout(resolve, 300)), scripted.processTurn(turn)) };
    const made = await rig([{ reply: 'Congratulations on Ripley Castle!' }, { reply: 'Ripley Castle, on 14 June.' }], {}, slow);
    const client = made.client({ session: 'venue' });
    await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'We booked Ripley Castle for 14 June.' }] });
    await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Where is the wedding again?' }] });
    const package2 = JSON.stringify(upstreamMessages(made.upstream, 1));
    expect(package2, package2).toContain('venue: Ripley Castle, booked for 14 June');
  });

  it('streams the upstream chunks back as they come, then records the turn', async () => {
    const made = await rig([{ reply: 'The caterer needs the final numbers by 1 May.' }]);
    const client = made.client({ session: 'streamed' });
    const stream = await client.chat.completions.create({ model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'When does the caterer need numbers?' }] });
    const pieces: string[] = [];
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
    expect(pieces.filter((piece) => piece !== '').length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe('The caterer needs the final numbers by 1 May.');
    const stored = await turnsStored(made, 'streamed', 1);
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ['user', 'When does the caterer need numbers?'],
      ['assistant', 'The caterer needs the final numbers by 1 May.'],
    ]);
  });

  it('lets a client that names its session send only the new message, and remembers earlier turns for it', async () => {
    const made = await rig([{ reply: 'Noted: no nuts at all.' }, { reply: 'Yes, the menu is nut-free.' }]);
    const client = made.client({ session: 'allergy' });
    await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Hard rule: the menu must never contain nuts, my sister has a severe allergy.' }] });
    await turnsStored(made, 'allergy', 1);
    await client.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Is the dessert safe for my sister?' }] });
    const second = upstreamMessages(made.upstream, 1);
    expect(JSON.stringify(second)).toMatch(/never contain nuts/u);
    expect(second[second.length - 1]).toEqual({ role: 'user', content: 'Is the dessert safe for my sister?' });
  });

  it('names the session by the session query parameter or the user field, and makes a new one when none is named', async () => {
    const made = await rig([{ reply: 'One.' }, { reply: 'Two.' }, { reply: 'Three.' }, { reply: 'Four.' }]);
    const byQuery = await made.client({ query: { session: 'from-query' } }).chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'First question.' }] }).withResponse();
    expect(byQuery.response.headers.get('x-strata-session')).toBe('from-query');
    const byUser = await made.client().chat.completions.create({ model: 'scripted-model', user: 'from-user', messages: [{ role: 'user', content: 'Second question.' }] }).withResponse();
    expect(byUser.response.headers.get('x-strata-session')).toBe('from-user');
    const fresh = await made.client().chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Third question.' }] }).withResponse();
    const other = await made.client().chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Fourth question.' }] }).withResponse();
    const freshId = fresh.response.headers.get('x-strata-session') ?? '';
    expect(freshId).not.toBe('');
    expect(other.response.headers.get('x-strata-session')).not.toBe(freshId);
    await turnsStored(made, freshId, 1);
    expect((await made.memory.sessions.list()).map((session) => session.title).sort()).toEqual(['First question', 'Fourth question', 'Second question', 'Third question']);
  });

  it('passes tool calls and their results through intact and records the turn once the model answers', async () => {
    const toolCall = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Harrogate"}' } };
    const toolReply = {
      id: 'chatcmpl-tool',
      object: 'chat.completion',
      created: 0,
      model: 'scripted-model',
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [toolCall] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
    const made = await rig([{ raw: JSON.stringify(toolReply), contentType: 'application/json' }, { reply: 'It will be 18 degrees and dry in Harrogate.' }, { reply: 'Not on the day: it stays dry.' }]);
    const client = made.client({ session: 'tools' });
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const user = { role: 'user' as const, content: 'What will the weather be in Harrogate on the day?' };
    const first = await client.chat.completions.create({ model: 'scripted-model', tools, messages: [user] });
    expect(first.choices[0]?.message.tool_calls).toEqual([toolCall]);
    const sentTools = (made.upstream.requests[0]?.body as { tools?: unknown }).tools;
    expect(sentTools).toEqual(tools);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await storedMessages(made, 'tools')).toEqual([]);

    const assistant = { role: 'assistant' as const, content: null, tool_calls: [toolCall as never] };
    const result = { role: 'tool' as const, tool_call_id: 'call_1', content: '{"temperature":18,"rain":false}' };
    const second = await client.chat.completions.create({ model: 'scripted-model', tools, messages: [user, assistant, result] });
    expect(second.choices[0]?.message.content).toBe('It will be 18 degrees and dry in Harrogate.');
    const sent = upstreamMessages(made.upstream, 1);
    expect(sent.slice(-3)).toEqual([user, assistant, result]);
    // The turn keeps the call and its result between the question and the answer.
    const stored = (await turnsStored(made, 'tools', 2)) as Array<{ role: string; content: string; toolCalls?: unknown; toolCallId?: string }>;
    expect(stored.map((message) => [message.role, message.content, message.toolCalls, message.toolCallId])).toEqual([
      ['user', user.content, undefined, undefined],
      ['assistant', '', [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Harrogate"}' }], undefined],
      ['tool', result.content, undefined, 'call_1'],
      ['assistant', 'It will be 18 degrees and dry in Harrogate.', undefined, undefined],
    ]);

    // The next request's package sends that turn back in the OpenAI format, the call beside its result.
    const next = { role: 'user' as const, content: 'And should I bring an umbrella?' };
    await client.chat.completions.create({ model: 'scripted-model', tools, messages: [next] });
    const window = upstreamMessages(made.upstream, 2).filter((message) => message.role !== 'system');
    expect(window).toEqual([
      user,
      { role: 'assistant', content: null, tool_calls: [toolCall] },
      result,
      { role: 'assistant', content: 'It will be 18 degrees and dry in Harrogate.' },
      next,
    ]);
  });

  it('returns an upstream error with its status and body, and stores nothing', async () => {
    const made = await rig([{ status: 429, retryAfter: 7, body: { error: { message: 'Rate limit reached for scripted-model', type: 'requests', code: 'rate_limit_exceeded' } } }]);
    const failure = await made
      .client({ session: 'limited' })
      .chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'Hello there.' }] })
      .then(
        () => ({ status: 200, message: '', headers: new Headers() }),
        (error: unknown) => error as { status?: number; message?: string; headers: Headers },
      );
    expect(failure.status).toBe(429);
    expect(failure.headers.get('retry-after')).toBe('7');
    expect(failure.message).toContain('Rate limit reached for scripted-model');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await storedMessages(made, 'limited')).toEqual([]);
  });

  it('refuses a session id that cannot travel in a header and a bad budget before calling the upstream, storing nothing', async () => {
    const made = await rig();
    const send = (init: { headers?: Record<string, string>; body: unknown }) =>
      fetch(`${made.server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${made.key}`, 'content-type': 'application/json', ...init.headers }, body: JSON.stringify(init.body) });
    const message = { model: 'scripted-model', messages: [{ role: 'user', content: 'Hello.' }] };
    for (const user of ['用户', 'a\ud800b', 'two words', '']) {
      const answer = await send({ body: { ...message, user: user === '' ? 'x'.repeat(300) : user } });
      expect(answer.status, user).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/session id/u);
    }
    for (const budget of ['0', 'lots', '99999999999']) {
      const answer = await send({ headers: { 'x-strata-budget': budget, 'x-strata-session': 'budgeted' }, body: message });
      expect(answer.status, budget).toBe(400);
    }
    expect(made.upstream.requests).toEqual([]);
    expect(await made.memory.sessions.list()).toEqual([]);
  });

  it('lists the upstream models, and answers 503 naming the variables when no chat endpoint is configured', async () => {
    const made = await rig();
    const models = await made.client().models.list();
    expect(models.data.map((model) => model.id)).toEqual(['scripted-model']);

    const bare = await proxyRig([], { STRATA_CHAT_MODEL: '' });
    rigs.push(bare);
    const failure = await bare
      .client()
      .chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => ({ status: 200, message: '' }),
        (error: unknown) => error as { status?: number; message?: string },
      );
    expect(failure.status).toBe(503);
    expect(failure.message).toContain('STRATA_CHAT_MODEL');
  });

  it('stores nothing when the client goes away in the middle of a streamed reply', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const made = await rig([{ gatedStream: { before: ['The ', 'florist '], gate, after: ['opens ', 'at nine.'] } }]);
    const controller = new AbortController();
    const stream = await made
      .client({ session: 'gone' })
      .chat.completions.create({ model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'When does the florist open?' }] }, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await iterator.next().catch(() => undefined);
    // The rest of the reply comes once the proxy has seen the client go.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await storedMessages(made, 'gone')).toEqual([]);
  });
});
