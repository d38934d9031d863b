import { describe, expect, it } from 'vitest';
import { messageText, toolPairingProblem, toolUseOf, type ToolUse } from '../../src/core/tool-calls.js';

const call = (id: string, name = 'get_weather'): { id: string; name: string; arguments: string } => ({ id, name, arguments: `{"city":"${id}"}` });
const label = (index: number): string => `message ${index}`;

describe('toolPairingProblem', () => {
  it('accepts a turn whose calls are each answered right after their assistant message, over several steps', () => {
    const turn: ToolUse[] = [
      { role: 'user' },
      { role: 'assistant', toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'b' },
      { role: 'tool', toolCallId: 'a' },
      { role: 'assistant', toolCalls: [call('c')] },
      { role: 'tool', toolCallId: 'c' },
      { role: 'assistant' },
    ];
    expect(toolPairingProblem(turn, label)).toBeNull();
    expect(toolPairingProblem([{ role: 'user' }, { role: 'assistant' }], label)).toBeNull();
  });

  it('refuses a call left unanswered, at the end of the turn or before the next message, naming the call', () => {
    expect(toolPairingProblem([{ role: 'user' }, { role: 'assistant', toolCalls: [call('a'), call('b')] }, { role: 'tool', toolCallId: 'a' }], label)).toMatch(
      /^message 1 calls a tool \("b"\) that no tool message answers/u,
    );
    expect(toolPairingProblem([{ role: 'assistant', toolCalls: [call('a')] }, { role: 'assistant' }], label)).toMatch(/^message 0 calls a tool \("a"\) that no tool message answers before message 1/u);
  });

  it('refuses a result with no call before it, one answering another message, and one answered twice', () => {
    expect(toolPairingProblem([{ role: 'user' }, { role: 'tool', toolCallId: 'a' }], label)).toMatch(/^message 1 is a tool result with no assistant tool call right before it/u);
    expect(toolPairingProblem([{ role: 'assistant', toolCalls: [call('a')] }, { role: 'tool', toolCallId: 'z' }], label)).toMatch(/^message 1 answers tool call "z"/u);
    const twice: ToolUse[] = [{ role: 'assistant', toolCalls: [call('a')] }, { role: 'tool', toolCallId: 'a' }, { role: 'tool', toolCallId: 'a' }];
    expect(toolPairingProblem(twice, label)).toMatch(/^message 2 answers tool call "a".*already answered/u);
    // A result separated from its call by another message is no longer its call's.
    const separated: ToolUse[] = [{ role: 'assistant', toolCalls: [call('a')] }, { role: 'tool', toolCallId: 'a' }, { role: 'assistant' }, { role: 'tool', toolCallId: 'a' }];
    expect(toolPairingProblem(separated, label)).toMatch(/^message 3 is a tool result with no assistant tool call/u);
  });

  it('refuses a call id used twice by one message, and accepts one used again by a later step', () => {
    expect(toolPairingProblem([{ role: 'assistant', toolCalls: [call('a'), call('a')] }, { role: 'tool', toolCallId: 'a' }], label)).toMatch(/^message 0 repeats the tool call id "a"/u);
    const steps: ToolUse[] = [{ role: 'assistant', toolCalls: [call('a')] }, { role: 'tool', toolCallId: 'a' }, { role: 'assistant', toolCalls: [call('a')] }, { role: 'tool', toolCallId: 'a' }];
    expect(toolPairingProblem(steps, label)).toBeNull();
  });
});

describe('messageText', () => {
  it('is the content of a message without calls, and adds the calls after any content', () => {
    expect(messageText({ content: 'Hello.' })).toBe('Hello.');
    expect(messageText({ content: '', toolCalls: [call('a'), call('b', 'find_hotel')] })).toBe('called get_weather({"city":"a"}); find_hotel({"city":"b"})');
    expect(messageText({ content: 'Checking.', toolCalls: [call('a')] })).toBe('Checking.\ncalled get_weather({"city":"a"})');
  });
});

describe('toolUseOf', () => {
  it('copies calls and a call id, and gives plain messages no fields at all', () => {
    const calls = [call('a')];
    const use = toolUseOf({ toolCalls: calls });
    expect(use).toEqual({ toolCalls: calls });
    expect(use.toolCalls?.[0]).not.toBe(calls[0]);
    expect(toolUseOf({ toolCallId: 'a' })).toEqual({ toolCallId: 'a' });
    expect(Object.keys(toolUseOf({}))).toEqual([]);
    expect(Object.keys(toolUseOf({ toolCalls: [] }))).toEqual([]);
  });
});
