import { describe, expect, it } from 'vitest';
import { toOpenAiMessages } from '../../src/core/openai-messages.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';

describe('chat messages in the OpenAI format', () => {
  it('sends tool calls as function calls (null text when there is none) and results with their call id', () => {
    const calls = [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon"}' }];
    expect(
      toOpenAiMessages([
        { role: 'system', content: 'Memory.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: '', toolCalls: calls },
        { role: 'tool', content: '{"celsius":21}', toolCallId: 'call_1' },
        { role: 'assistant', content: 'Looking again.', toolCalls: calls.map((call) => ({ ...call, id: 'call_2' })) },
        { role: 'tool', content: '', toolCallId: 'call_2' },
        { role: 'assistant', content: '21 degrees.' },
      ]),
    ).toEqual([
      { role: 'system', content: 'Memory.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] },
      { role: 'tool', content: '{"celsius":21}', tool_call_id: 'call_1' },
      { role: 'assistant', content: 'Looking again.', tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] },
      { role: 'tool', content: '', tool_call_id: 'call_2' },
      { role: 'assistant', content: '21 degrees.' },
    ]);
  });
});

describe('counting tool use', () => {
  it("counts a call's id, name, arguments and framing, and a result's call id, on top of role and content", () => {
    const tokenizer = createGptTokenizer();
    const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Lisbon"}' };
    const plain = tokenizer.countMessages([{ role: 'assistant', content: '' }]);
    const calling = tokenizer.countMessages([{ role: 'assistant', content: '', toolCalls: [call] }]);
    expect(calling - plain).toBe(3 + tokenizer.count(call.id) + tokenizer.count(call.name) + tokenizer.count(call.arguments));
    const result = tokenizer.countMessages([{ role: 'tool', content: 'ok', toolCallId: 'call_1' }]);
    expect(result - tokenizer.countMessages([{ role: 'tool', content: 'ok' }])).toBe(tokenizer.count('call_1'));
  });
});
