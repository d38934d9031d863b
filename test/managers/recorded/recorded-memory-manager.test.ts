import { afterEach, describe, expect, it } from 'vitest';
import { createRecordedMemoryManager, type RecordedTurn } from '../../../src/managers/recorded/index.js';
import { createMemory, type Memory } from '../../../src/memory/create-memory.js';
import { recordingLogger, warnings } from '../../support/recording-logger.js';

const TURNS: RecordedTurn[] = [
  {
    messages: [
      { externalId: 'D1:1', content: 'We moved to Lisbon in 2021 and love it.', tier2: 'Moved to Lisbon in 2021.' },
      { externalId: 'D1:2', tier1: 'reaction = happy' },
    ],
    userSummary: 'Moved to Lisbon in 2021.',
    facts: [
      { text: 'home: Lisbon since 2021', sources: ['D1:1'] },
      { text: 'Maya moved to Porto in 2019', sources: ['D1:1'] },
    ],
  },
  {
    messages: [{ externalId: 'D1:3' }, { externalId: 'D1:4' }],
    facts: [
      { text: 'They both enjoy living by the sea', sources: ['D1:3', 'D1:4'] },
      { text: 'The move was a success', sources: ['D1:1', 'D1:4'] },
    ],
  },
];

describe('createRecordedMemoryManager', () => {
  let memory: Memory | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  it('plays back tiers, summaries and facts with their sources mapped to message ids; the engine still validates', async () => {
    const manager = createRecordedMemoryManager({ turns: TURNS });
    memory = createMemory({ path: ':memory:', env: {}, manager });
    const session = await memory.sessions.create();
    const first = await session.record({ user: 'We moved to Lisbon in 2021 and love it.', assistant: 'That sounds wonderful!' });
    expect(first.status).toBe('summarised');
    const [userId, assistantId] = first.messageIds;
    expect(manager.messageIdOf(session.id, 'D1:1')).toBe(userId);
    expect(manager.messageIdOf(session.id, 'D1:2')).toBe(assistantId);

    // The grounded fact is added with its single source; the one naming Porto and 2019 is rejected as ungrounded.
    expect(first.factEvents.map((event) => [event.op, event.newText, event.sourceMessageIds, event.actor])).toEqual([
      ['add', 'home: Lisbon since 2021', [userId], 'recorded'],
      ['reject', 'Maya moved to Porto in 2019', [], 'recorded'],
    ]);
    expect(first.factEvents[1]?.reason).toBe('not grounded in the exchange: 2019, Porto not found there');
    expect(first.summary).toMatchObject({ userSummary: 'Moved to Lisbon in 2021.', assistantSummary: 'That sounds wonderful!' });
    const messages = await session.messages();
    expect(messages.map((message) => [message.tier1, message.tier2, message.requiredTier])).toEqual([
      ['', 'Moved to Lisbon in 2021.', 2],
      ['reaction = happy', '', 2],
    ]);

    // Turn 2: a fact citing both messages of its exchange is accepted; one citing an earlier turn is not.
    const second = await session.record({ user: 'We both enjoy living by the sea.', assistant: 'The sea is the best part.' });
    expect(second.factEvents.map((event) => [event.op, event.newText, event.sourceMessageIds.length])).toEqual([
      ['add', 'They both enjoy living by the sea', 2],
      ['reject', 'The move was a success', 0],
    ]);
    expect(second.factEvents[1]?.reason).toMatch(/^cites messages outside this exchange: /u);
    expect(manager.proposedFacts()).toBe(4);
    expect((await session.facts()).map((fact) => fact.text)).toEqual(['home: Lisbon since 2021', 'They both enjoy living by the sea']);
  });

  it('fails the turn (kept raw and flagged) when the replay does not follow the recording', async () => {
    const { logger, records } = recordingLogger();
    memory = createMemory({ path: ':memory:', env: {}, manager: createRecordedMemoryManager({ turns: TURNS }), logger });
    const session = await memory.sessions.create();
    const wrong = await session.record({ user: 'Something else entirely.', assistant: 'Sure.' });
    expect(wrong.status).toBe('fallback-raw');
    expect(wrong.problem).toMatch(/Message 1 of turn 1 is not the recorded message D1:1/u);

    const short = await session.record({ user: 'Only one side.' });
    expect(short.problem).toMatch(/Turn 2 has 1 messages but 2 were recorded/u);
    await session.record({ user: 'a', assistant: 'b' });
    const beyond = await session.record({ user: 'Past the end.' });
    expect(beyond.problem).toMatch(/The recording has 2 turns; nothing was recorded for turn 4/u);
    expect((await session.messages()).length).toBe(6);
    // Every failed turn is logged as a warning.
    expect(warnings(records).map((warning) => warning.message)).toEqual(Array.from({ length: 4 }, () => 'turn memory fell back to the raw exchange'));
  });

  it('keeps an id map per session and names itself as the actor', async () => {
    const manager = createRecordedMemoryManager({ turns: [{ messages: [{ externalId: 'x1' }], facts: [{ text: 'Plants need water', sources: ['x1'] }] }], name: 'locomo-recorded' });
    memory = createMemory({ path: ':memory:', env: {}, manager });
    const a = await memory.sessions.create();
    const b = await memory.sessions.create();
    const first = await a.record({ user: 'Plants need water daily.' });
    const second = await b.record({ user: 'Plants need water weekly.' });
    expect(manager.messageIdOf(a.id, 'x1')).toBe(first.messageIds[0]);
    expect(manager.messageIdOf(b.id, 'x1')).toBe(second.messageIds[0]);
    expect(first.factEvents[0]).toMatchObject({ op: 'add', actor: 'locomo-recorded' });
  });

  it('rejects a fact citing a message that has not been replayed yet', async () => {
    const manager = createRecordedMemoryManager({ turns: [{ messages: [{ externalId: 'a' }], facts: [{ text: 'x', sources: ['later'] }] }] });
    const { logger, records } = recordingLogger();
    memory = createMemory({ path: ':memory:', env: {}, manager, logger });
    const session = await memory.sessions.create();
    const result = await session.record({ user: 'Hello there.' });
    expect(result.status).toBe('fallback-raw');
    expect(result.problem).toMatch(/cites later, which has not been replayed yet/u);
    expect(warnings(records)[0]?.details).toMatchObject({ turn: 1, status: 'fallback-raw', code: 'MEMORY_MANAGER_FAILURE' });
  });
});
