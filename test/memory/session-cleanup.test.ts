import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { cleanupSessions, updatedBefore } from '../../src/memory/session-cleanup.js';
import { sequentialIds } from '../support/memory-fixtures.js';

let memory: Memory | undefined;

afterEach(async () => {
  await memory?.close();
});

describe('sessions.cleanup', () => {
  it('deletes the sessions not updated for the given age with everything derived, and only lists them on a dry run', async () => {
    let now = Date.parse('2026-01-01T09:00:00Z');
    memory = createMemory({ path: ':memory:', env: { STRATA_LOG_LEVEL: 'silent' }, clock: () => new Date(now), newId: sequentialIds() });
    const old = await memory.sessions.create({ title: 'Old trip' });
    await old.record({ user: 'The ferry to Bilbao leaves Portsmouth on 3 January.', assistant: 'Noted.' });
    now = Date.parse('2026-02-10T09:00:00Z');
    const recent = await memory.sessions.create({ title: 'New kitchen' });
    await recent.record({ user: 'The worktop is oak.', assistant: 'Noted.' });
    now = Date.parse('2026-02-15T09:00:00Z');

    const dry = await memory.sessions.cleanup({ olderThan: '30d', dryRun: true });
    expect(dry).toEqual({ before: '2026-01-16T09:00:00.000Z', dryRun: true, sessions: [expect.objectContaining({ id: old.id, title: 'Old trip' })] });
    expect((await memory.sessions.list()).map((session) => session.title)).toEqual(['New kitchen', 'Old trip']);

    const done = await memory.sessions.cleanup({ olderThan: '30d' });
    expect(done.sessions.map((session) => session.id)).toEqual([old.id]);
    expect((await memory.sessions.list()).map((session) => session.title)).toEqual(['New kitchen']);
    await expect(old.messages()).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect((await memory.sessions.cleanup({ olderThan: '1w' })).sessions).toEqual([]);
  });

  it('refuses an age it cannot read, deleting nothing', async () => {
    memory = createMemory({ path: ':memory:', env: { STRATA_LOG_LEVEL: 'silent' } });
    await memory.sessions.create({ title: 'Kept' });
    for (const olderThan of ['30', '30 days', '-3d', '0d', 30, undefined]) {
      const failure = await memory.sessions.cleanup({ olderThan } as never).catch((error: unknown) => error);
      expect(isStrataError(failure, 'INVALID_INPUT'), String(olderThan)).toBe(true);
    }
    expect(await memory.sessions.list()).toHaveLength(1);
  });
});

describe('cleanupSessions, its steps', () => {
  const session = (id: string, updatedAt: string) => ({ id, title: id, instructions: '', createdAt: updatedAt, updatedAt, messageCount: 0, turnCount: 0, tokenCount: 0 });

  it('reports only what it deleted: a session written to since it was listed stays and is not reported', async () => {
    const listed = [session('fresh', '2026-02-14T09:00:00Z'), session('old', '2026-01-01T09:00:00Z'), session('touched', '2026-01-02T09:00:00Z')];
    const asked: string[] = [];
    const result = await cleanupSessions(
      { olderThan: '30d' },
      {
        now: () => '2026-02-15T09:00:00.000Z',
        list: async ({ offset }) => (offset === 0 ? listed : []),
        deleteIfOlder: async (sessionId) => {
          asked.push(sessionId);
          return sessionId !== 'touched';
        },
      },
    );
    expect(asked).toEqual(['old', 'touched']);
    expect(result.sessions.map((item) => item.id)).toEqual(['old']);
  });

  it('compares times as instants, whatever offset a stored time was written with', () => {
    expect(updatedBefore({ updatedAt: '2026-01-16T10:00:00+09:00' }, '2026-01-16T09:00:00.000Z')).toBe(true);
    expect(updatedBefore({ updatedAt: '2026-01-16T08:00:00-02:00' }, '2026-01-16T09:00:00.000Z')).toBe(false);
  });
});
