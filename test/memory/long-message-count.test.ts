import { afterEach, describe, expect, it } from 'vitest';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import type { Tokenizer } from '../../src/providers/tokenizer/tokenizer.js';
import { createScriptedMemoryManager } from '../../src/testing/index.js';
import { testMemory } from '../support/memory-fixtures.js';
import { turnsDuring } from '../support/event-loop-turns.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A pasted log (about 300 KB): lines of words and numbers, a base64 blob and a long DNA run. */
const PASTE = [
  ...Array.from({ length: 2_000 }, (_, index) => `2026-03-${String(1 + (index % 28)).padStart(2, '0')} 10:${String(index % 60).padStart(2, '0')} worker-${index % 7} paid $${index * 3}.50 to Lisbon`),
  Buffer.from(Array.from({ length: 30_000 }, (_, index) => (index * 7919) % 256)).toString('base64'),
  'ACGT'.repeat(20_000),
].join('\n');

function setup(tokenizer: Tokenizer) {
  // A manager that does no work of its own: what yields is the counting.
  const fixture = testMemory({ tokenizer, manager: createScriptedMemoryManager(() => ({})), readSliceMs: 0 });
  cleanups.push(fixture.cleanup);
  return fixture.memory;
}

describe('a long message is counted before its turn is stored', () => {
  it('in slices, letting other work run, to exactly the count of the whole message', async () => {
    const tokenizer = createGptTokenizer();
    const session = await setup(tokenizer).sessions.create({ title: 'Paste' });
    const { turns } = await turnsDuring(() => session.record({ user: PASTE, assistant: 'Got it.' }));
    expect(turns).toBeGreaterThan(10);
    const [stored] = await session.messages();
    expect(stored?.content).toBe(PASTE);
    expect(stored?.tokens.tier3).toBe(createGptTokenizer({ cacheBytes: 0 }).count(PASTE));
  });

  it('whole, with a tokenizer that cannot count in slices', async () => {
    const gpt = createGptTokenizer();
    const plain: Tokenizer = { name: gpt.name, count: (text) => gpt.count(text), countMessages: (messages) => gpt.countMessages(messages), truncate: (text, most) => gpt.truncate(text, most) };
    const session = await setup(plain).sessions.create({ title: 'Paste' });
    await session.record({ user: PASTE, assistant: 'Got it.' });
    const [stored] = await session.messages();
    expect(stored?.tokens.tier3).toBe(gpt.count(PASTE));
  });

  it('keeps a session’s turns in the order they were given while a long one is counted', async () => {
    const session = await setup(createGptTokenizer()).sessions.create({ title: 'Paste' });
    const first = session.record({ user: PASTE, assistant: 'Got it.' });
    const second = session.record({ user: 'And one more thing: the budget is $4,000.', assistant: 'Noted.' });
    expect((await first).turn).toBe(1);
    expect((await second).turn).toBe(2);
    expect((await session.messages()).map((message) => message.content.slice(0, 10))).toEqual([PASTE.slice(0, 10), 'Got it.', 'And one mo', 'Noted.']);
  });

  it('counts a long tool call’s arguments in slices too, to the count the tokenizer gives the message', async () => {
    const tokenizer = createGptTokenizer();
    const session = await setup(tokenizer).sessions.create({ title: 'Tools' });
    const call = { id: 'call_1', name: 'save_log', arguments: JSON.stringify({ log: PASTE }) };
    const { turns } = await turnsDuring(() =>
      session.record({ user: 'Save this log.', tools: [{ calls: [{ ...call, result: 'saved' }] }], assistant: 'Saved.' }),
    );
    expect(turns).toBeGreaterThan(10);
    const stored = (await session.messages()).find((message) => message.toolCalls !== undefined && message.toolCalls.length > 0);
    const fresh = createGptTokenizer({ cacheBytes: 0 });
    expect(stored?.tokens.tier3).toBe(3 + fresh.count('call_1') + fresh.count('save_log') + fresh.count(call.arguments));
  });
});
