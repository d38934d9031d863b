import { afterEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { PLANNING_TURNS, sequentialIds, steppingClock, temporaryFolder, testMemory } from '../support/memory-fixtures.js';
import { join } from 'node:path';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('persistence', () => {
  it('keeps every session, fact and package across a restart', async () => {
    const folder = temporaryFolder();
    cleanups.push(folder.cleanup);
    const path = join(folder.path, 'strata.db');
    const first = createMemory({ path, env: {}, clock: steppingClock(), newId: sequentialIds('a') });
    const session = await first.sessions.create({ title: 'Survives' });
    for (const turn of PLANNING_TURNS) await session.record(turn);
    const facts = await session.facts();
    const pkg = (await session.context({ budget: 300, query: 'database backups' })).toJSON();
    await first.close();

    const second = createMemory({ path, env: {}, clock: steppingClock(), newId: sequentialIds('b') });
    cleanups.push(() => second.close());
    expect((await second.sessions.list()).map((listed) => listed.title)).toEqual(['Survives']);
    const reopened = await second.sessions.open(session.id);
    expect(await reopened.facts()).toEqual(facts);
    expect((await reopened.context({ budget: 300, query: 'database backups' })).toJSON()).toEqual(pkg);
    const next = await reopened.record({ user: 'And the staging host?', assistant: 'It mirrors production at half size.' });
    expect(next.turn).toBe(6);
  });

  it('round-trips a session through its JSON export losslessly', async () => {
    const source = testMemory();
    cleanups.push(source.cleanup);
    const session = await source.memory.sessions.create({ title: 'Round trip', instructions: 'Answer briefly.' });
    for (const turn of PLANNING_TURNS) await session.record(turn);
    await session.record({
      user: 'Write the health check.',
      assistant: 'Here it is:\n```ts\nexport function healthCheck(): boolean {\n  return true;\n}\n```',
    });
    await session.record({
      user: 'Make it async.',
      assistant: 'Updated:\n```ts\nexport async function healthCheck(): Promise<boolean> {\n  return true;\n}\n```',
    });
    // An undo: the fact comes back as of the turn it was established, and the event names what it reverts.
    const changed = (await session.factEvents()).filter((event) => event.op === 'update').at(-1);
    expect(changed).toBeDefined();
    const undo = await session.undoFactEvent(changed?.id ?? '');
    expect(undo.undoes).toBe(changed?.id);
    const restored = (await session.facts()).find((fact) => fact.id === changed?.factId);
    expect(restored?.updatedTurn).toBeLessThan(undo.turn);
    expect(await session.facts()).toEqual(await session.facts({ atTurn: undo.turn }));
    const exported = await session.export({ format: 'json' });

    const target = testMemory();
    cleanups.push(target.cleanup);
    const result = await target.memory.sessions.import({ data: exported, source: 'export.json' });
    expect(result).toEqual({ sessionId: session.id, messages: 14, turns: 7, skipped: 0 });
    const reimported = await target.memory.sessions.open(session.id);
    const strip = (text: string): unknown => {
      const value = JSON.parse(text) as Record<string, unknown>;
      delete value.exportedAt;
      return value;
    };
    expect(strip(await reimported.export({ format: 'json' }))).toEqual(strip(exported));
    expect((await reimported.facts()).find((fact) => fact.id === changed?.factId)).toEqual(restored);
    expect((await reimported.artifacts()).flatMap((artifact) => artifact.versions.map((version) => version.version))).toEqual([1, 2]);
  });

  it('imports plain and OpenAI-style message files', async () => {
    const fixture = testMemory();
    cleanups.push(fixture.cleanup);
    const plain = await fixture.memory.sessions.import({
      data: [
        { role: 'user', content: 'Hello there, I need a plan.' },
        { role: 'assistant', content: 'Happy to help.' },
        { role: 'user', content: 'The deadline is May 3.' },
        { role: 'assistant', content: 'May 3 it is.' },
      ],
    });
    expect(plain).toMatchObject({ messages: 4, turns: 2, skipped: 0 });
    const openai = await fixture.memory.sessions.import({
      title: 'From OpenAI',
      data: {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'You are a travel agent.' },
          { role: 'user', content: [{ type: 'text', text: 'Book Lisbon for two.' }], name: 'Ana' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: '{"flights": 3}' },
          { role: 'assistant', content: 'I found three flights to Lisbon.' },
        ],
      },
    });
    expect(openai).toMatchObject({ messages: 4, turns: 1, skipped: 0 });
    const session = await fixture.memory.sessions.open(openai.sessionId);
    expect((await session.info()).instructions).toBe('You are a travel agent.');
    const messages = await session.messages();
    expect(messages.map((message) => [message.role, message.speaker, message.content, message.toolCalls, message.toolCallId])).toEqual([
      ['user', 'Ana', 'Book Lisbon for two.', undefined, undefined],
      ['assistant', null, '', [{ id: 'c1', name: 'search', arguments: '{}' }], undefined],
      ['tool', null, '{"flights": 3}', undefined, 'c1'],
      ['assistant', null, 'I found three flights to Lisbon.', undefined, undefined],
    ]);
    const rendered = (await session.context({ budget: 500 })).render();
    expect(rendered[0]?.content).toContain('You are a travel agent.');
    expect(rendered.slice(1)).toEqual([
      { role: 'user', content: 'Ana: Book Lisbon for two.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'search', arguments: '{}' }] },
      { role: 'tool', content: '{"flights": 3}', toolCallId: 'c1' },
      { role: 'assistant', content: 'I found three flights to Lisbon.' },
    ]);
  });

  it('writes a readable Markdown export with the memory and the transcript', async () => {
    const fixture = testMemory();
    cleanups.push(fixture.cleanup);
    const session = await fixture.memory.sessions.create({ title: 'Readable' });
    for (const turn of PLANNING_TURNS) await session.record(turn);
    const markdown = await session.export({ format: 'markdown' });
    expect(markdown).toMatch(/^# Readable\n/u);
    expect(markdown).toContain('## Memory');
    expect(markdown).toContain('45,000');
    expect(markdown).toContain('## Turn log');
    expect(markdown).toContain('## Transcript');
    expect(markdown).toContain(PLANNING_TURNS[1]?.user ?? '');
    // The header counts as the session does, in words that agree with the number.
    const info = await session.info();
    expect(markdown).toContain(`${info.turnCount} turns · ${info.messageCount} messages · ${info.tokenCount.toLocaleString('en-US')} tokens`);
    const single = await fixture.memory.sessions.create({ title: 'One' });
    await single.record({ user: 'Hi.', assistant: 'Hello.' });
    expect(await single.export({ format: 'markdown' })).toContain(' · 1 turn · 2 messages · ');
  });
});
