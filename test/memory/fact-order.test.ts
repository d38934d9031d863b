import { afterEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { timeOrderedIds } from '../../src/memory/time-ordered-ids.js';
import { temporaryFolder } from '../support/memory-fixtures.js';
import { join } from 'node:path';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('ids that sort in the order they were made', () => {
  it('are UUIDs of version 7 that grow with every call, within one millisecond and when the clock steps back', () => {
    const times = [1_000, 1_000, 1_000, 999, 2_000];
    let call = 0;
    const newId = timeOrderedIds(() => new Date(times[Math.min(call++, times.length - 1)] ?? 0));
    const ids = times.map(() => newId());
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u);
    expect(ids[4]?.startsWith('00000000-07d0')).toBe(true);
  });

  it('keep more than 4,096 ids of one millisecond in order, each once', () => {
    const newId = timeOrderedIds(() => new Date(5_000));
    const ids = Array.from({ length: 5_000 }, () => newId());
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.at(-1)).toMatch(/^00000000-1389-7/u);
  });

  it('count on from the last id when the clock gives no time or one before 1970', () => {
    const times = [new Date(7_000), new Date(Number.NaN), new Date(-5), new Date(7_000)];
    let call = 0;
    const newId = timeOrderedIds(() => times[call++] ?? new Date(7_000));
    const ids = times.map(() => newId());
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(4);
  });
});

describe('the facts of one turn', () => {
  it('are listed in the order the turn added them, with the default ids, on every read', async () => {
    const folder = temporaryFolder();
    cleanups.push(folder.cleanup);
    const path = join(folder.path, 'strata.db');
    const memory = createMemory({ path, env: {} });
    const session = await memory.sessions.create({ title: 'Order' });
    await session.record({
      user: 'Our budget is $40,000. The deadline is 14 March. The venue is Hartwell Barn. We need 96 chairs. The caterer is Fig & Fennel. The band is the Blue Notes.',
      assistant: 'Noted.',
    });
    const events = (await session.factEvents()).filter((event) => event.op === 'add');
    expect(events.length).toBeGreaterThanOrEqual(5);
    const added = events.map((event) => event.factId);
    expect((await session.facts()).map((fact) => fact.id)).toEqual(added);
    await memory.close();

    const reopened = createMemory({ path, env: {} });
    cleanups.push(() => reopened.close());
    expect((await (await reopened.sessions.open(session.id)).facts()).map((fact) => fact.id)).toEqual(added);
  });
});
