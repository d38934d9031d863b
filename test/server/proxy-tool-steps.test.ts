import { afterEach, describe, expect, it } from 'vitest';
import { toolSteps } from '../../src/server/proxy/chat-request.js';
import { rememberTurn } from '../../src/server/proxy/proxy-session.js';
import { testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const call = (id: string, city: string): unknown => ({ id, type: 'function', function: { name: 'get_weather', arguments: `{"city":"${city}"}` } });

describe("the proxy's reading of an exchange's tool steps", () => {
  it('pairs each call with the results right after it, even when a later step reuses the id', () => {
    const current = [
      { role: 'user', content: 'Lisbon, then Porto?' },
      { role: 'assistant', content: null, tool_calls: [call('call_0', 'Lisbon')] },
      { role: 'tool', tool_call_id: 'call_0', content: '21' },
      { role: 'assistant', content: 'Now Porto.', tool_calls: [call('call_0', 'Porto')] },
      { role: 'tool', tool_call_id: 'call_0', content: '18' },
    ];
    expect(toolSteps(current)).toEqual([
      { calls: [{ id: 'call_0', name: 'get_weather', arguments: '{"city":"Lisbon"}', result: '21' }] },
      { text: 'Now Porto.', calls: [{ id: 'call_0', name: 'get_weather', arguments: '{"city":"Porto"}', result: '18' }] },
    ]);
  });

  it('gives no steps when a call has no result right after it, or a call is malformed', () => {
    expect(toolSteps([{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [call('c1', 'Lisbon')] }, { role: 'assistant', content: 'gave up' }])).toEqual([]);
    expect(toolSteps([{ role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] }, { role: 'tool', tool_call_id: 'c1', content: 'x' }])).toEqual([]);
  });

  it('keeps the turn as text when the library refuses its tool traffic', async () => {
    const made = testMemory({ env: { STRATA_MAX_MESSAGE_BYTES: '1000' } });
    cleanups.push(made.cleanup);
    const tenant = made.memory.tenant('default');
    const tools = [{ calls: [{ id: 'c1', name: 'fetch_page', arguments: '{}', result: 'x'.repeat(2000) }] }];
    await rememberTurn(tenant, 'agent', { history: [], user: 'Read the page.', tools, assistant: 'It is long.' });
    const session = await tenant.sessions.open('agent');
    expect((await session.messages()).map((message) => [message.role, message.content])).toEqual([
      ['user', 'Read the page.'],
      ['assistant', 'It is long.'],
    ]);
  });

  it("records a new session's history with its tool calls, each user message a turn", async () => {
    const made = testMemory();
    cleanups.push(made.cleanup);
    const tenant = made.memory.tenant('default');
    const history = [
      { role: 'user', content: 'Weather in Lisbon?' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'Lisbon')] },
      { role: 'tool', tool_call_id: 'c1', content: '{"celsius":21}' },
      { role: 'assistant', content: 'Sunny, 21 degrees.' },
      { role: 'user', content: 'And Porto?' },
      { role: 'assistant', content: 'Cloudier there.' },
    ];
    await rememberTurn(tenant, 'agent', { history, user: 'Thanks!', tools: [], assistant: 'You are welcome.' });
    const session = await tenant.sessions.open('agent');
    expect((await session.messages()).map((message) => [message.turn, message.role, message.toolCallId ?? message.toolCalls?.[0]?.name ?? message.content])).toEqual([
      [1, 'user', 'Weather in Lisbon?'],
      [1, 'assistant', 'get_weather'],
      [1, 'tool', 'c1'],
      [1, 'assistant', 'Sunny, 21 degrees.'],
      [2, 'user', 'And Porto?'],
      [2, 'assistant', 'Cloudier there.'],
      [3, 'user', 'Thanks!'],
      [3, 'assistant', 'You are welcome.'],
    ]);
  });
});
