import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';

let memory: Memory | undefined;

afterEach(async () => {
  await memory?.close();
});

describe('a session created without a title', () => {
  it('is named after its first exchange, and a given or changed title is never replaced', async () => {
    memory = createMemory({ path: ':memory:', env: { STRATA_LOG_LEVEL: 'silent' } });
    const untitled = await memory.sessions.create();
    expect((await untitled.info()).title).toMatch(/^Session \d{4}-\d\d-\d\d \d\d:\d\d$/u);
    await untitled.record({ user: 'Could you help me plan the garden party for Saturday 14 June?', assistant: 'Happily.' });
    expect((await untitled.info()).title).toBe('Plan the garden party for Saturday 14…');
    await untitled.record({ user: 'Also the marquee needs booking.', assistant: 'Noted.' });
    expect((await untitled.info()).title).toBe('Plan the garden party for Saturday 14…');

    const titled = await memory.sessions.create({ title: 'Party' });
    await titled.record({ user: 'The marquee is 6 by 9 metres.' });
    expect((await titled.info()).title).toBe('Party');
    const renamed = await memory.sessions.create();
    await renamed.rename('My own name');
    await renamed.record({ user: 'Something else entirely.' });
    expect((await renamed.info()).title).toBe('My own name');
  });
});
