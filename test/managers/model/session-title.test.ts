import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../../src/memory/create-memory.js';
import { sessionTitlePrompt } from '../../../src/managers/model/prompts/session-title-prompt.js';
import { dataBlockOf } from '../../support/request-data.js';
import { serve } from './model-fixtures.js';

const memories: Memory[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
});

/** The session's title once `done` holds (titles are written beside the memory work, after record() returns). */
async function titleWhen(session: { info(): Promise<{ title: string }> }, done: () => boolean | Promise<boolean>): Promise<string> {
  for (let waited = 0; waited < 5000 && !(await done()); waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  // One more beat for the write that follows the answer.
  await new Promise((resolve) => setTimeout(resolve, 30));
  return (await session.info()).title;
}

function open(baseUrl: string): Memory {
  const memory = createMemory({ path: ':memory:', env: { STRATA_MEMORY_MODEL: 'scripted-memory', STRATA_MEMORY_BASE_URL: baseUrl, STRATA_LOG_LEVEL: 'silent' } });
  memories.push(memory);
  return memory;
}

describe('the title prompt', () => {
  it('asks for a short noun phrase in one JSON field and carries the start of the exchange as data', () => {
    const [system, user] = sessionTitlePrompt({ user: 'We are planning a garden party for 14 June.', assistant: 'x'.repeat(5000) });
    expect(system?.content).toMatch(/short noun phrase of 2 to 6 words/u);
    expect(system?.content).toContain('{"title": "…"}');
    const data = dataBlockOf({ method: 'POST', path: '/v1/chat/completions', headers: {}, body: { messages: [system, user] } }) as { user: string; assistant: string };
    expect(data.user).toBe('We are planning a garden party for 14 June.');
    expect(data.assistant).toHaveLength(2000);
  });
});

describe('titles written by the memory model', () => {
  it('answers a scripted server\'s title requests apart from its script unless asked to script them', async () => {
    const server = await serve([]);
    const memory = open(server.baseUrl);
    const session = await memory.sessions.create();
    await session.record({ user: 'Hello, about the boiler.', assistant: 'Sure.' });
    expect(await titleWhen(session, async () => (await session.info()).title === 'Scripted conversation')).toBe('Scripted conversation');
    expect(server.titleRequests).toHaveLength(1);
    expect(server.requests).toEqual([]);
  });

  it('replaces the title from the first sentence with the model\'s, once turn 1 is remembered', async () => {
    const server = await serve([{ json: { title: '"Garden party on 14 June."' } }], { titles: 'script' });
    const memory = open(server.baseUrl);
    const session = await memory.sessions.create();
    await session.record({ user: 'Hi! We are planning a garden party.', assistant: 'Lovely.' });
    expect(await titleWhen(session, async () => (await session.info()).title === 'Garden party on 14 June')).toBe('Garden party on 14 June');
    const titleRequest = server.requests.find((request) => JSON.stringify(request.body).includes('Name this conversation'));
    expect(titleRequest).toBeDefined();
  });

  it('keeps a rename made while the model writes its title', async () => {
    const server = await serve([{ json: { title: 'Model title' }, delayMs: 300 }], { titles: 'script' });
    const memory = open(server.baseUrl);
    const session = await memory.sessions.create();
    await session.record({ user: 'We are planning a garden party.', assistant: 'Lovely.' });
    await session.rename('My own name');
    expect(await titleWhen(session, () => server.remaining() === 0)).toBe('My own name');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await session.info()).title).toBe('My own name');
  });

  it('keeps the engine\'s title when the model gives no usable one, and asks nothing of a session with a title of its own', async () => {
    const server = await serve([{ json: { title: '' } }, { json: { name: 'wrong shape' } }], { titles: 'script' });
    const memory = open(server.baseUrl);
    const untitled = await memory.sessions.create();
    await untitled.record({ user: 'We are planning a garden party.', assistant: 'Lovely.' });
    expect(await titleWhen(untitled, () => server.requests.length >= 2)).toBe('We are planning a garden party');
    const asked = server.requests.length;
    const titled = await memory.sessions.create({ title: 'Party' });
    await titled.record({ user: 'The marquee is booked.', assistant: 'Good.' });
    expect((await titled.info()).title).toBe('Party');
    expect(server.requests.length).toBe(asked);
  });
});
