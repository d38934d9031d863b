import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { createScriptedChatModel, createScriptedMemoryManager } from '../../src/testing/index.js';

let memory: Memory | undefined;
afterEach(async () => {
  await memory?.close();
  memory = undefined;
});

describe('strata-memory/testing', () => {
  it('a scripted chat model answers a session’s chat turns in order, streamed or not, and records what it was sent', async () => {
    const model = createScriptedChatModel(['Noted: the budget is $82,000.', 'Still $82,000.']);
    memory = createMemory({ path: ':memory:', env: {}, chatModel: model, manager: createScriptedMemoryManager([]) });
    const session = await memory.sessions.create();
    const first = await session.chat('The budget got cut to $82,000.');
    expect(first.reply).toBe('Noted: the budget is $82,000.');
    const stream = await session.chat('What is the budget?', { stream: true });
    const pieces: string[] = [];
    for await (const piece of stream) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('Still $82,000.');
    expect(model.calls.map((call) => call.kind)).toEqual(['stream', 'stream']);
    expect(model.calls[1]?.messages.at(-1)).toEqual({ role: 'user', content: 'What is the budget?' });
    // Past the end of its script it fails as a model would, and the turn is not stored.
    const failed = await session.chat('And now?').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isStrataError(failed, 'MODEL_FAILURE')).toBe(true);
    expect((await session.turns()).length).toBe(2);
  });

  it('a scripted memory manager proposes the facts of its script, validated like any manager’s, and can fall back', async () => {
    const manager = createScriptedMemoryManager([
      { diff: { add: [{ text: 'budget: $82,000', kind: 'constraint', sourceMessageIds: [] }] } },
      // Not said in the exchange: the engine rejects it.
      { diff: { add: [{ text: 'venue: Halcombe Barn', kind: 'fact', sourceMessageIds: [] }] } },
      { fallback: { reason: 'timeout', retry: false, code: 'MODEL_TIMEOUT', message: 'the memory model timed out' } },
    ]);
    memory = createMemory({ path: ':memory:', env: {}, manager });
    const session = await memory.sessions.create();
    await session.record({ user: 'The budget got cut to $82,000.', assistant: 'Noted.' });
    const second = await session.record({ user: 'Any news on the venue?', assistant: 'Not yet.' });
    expect(second.factEvents.map((event) => event.op)).toEqual(['reject']);
    const third = await session.record({ user: 'Thanks.', assistant: 'Any time.' });
    expect(third.status).toBe('fallback-raw');
    expect((await session.facts()).map((fact) => [fact.text, fact.kind])).toEqual([['budget: $82,000', 'constraint']]);
    expect((await session.factEvents())[0]?.actor).toBe('scripted');
  });
});
