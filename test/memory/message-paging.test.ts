import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { testMemory } from '../support/memory-fixtures.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('session.messages() paging', () => {
  it('reads from an offset and up to a limit, in order', async () => {
    const { memory, cleanup } = testMemory();
    cleanups.push(cleanup);
    const session = await memory.sessions.create({ title: 'Paging' });
    for (const user of ['One.', 'Two.', 'Three.']) await session.record({ user, assistant: 'Noted.' });
    const all = await session.messages();
    expect(await session.messages({ offset: 4 })).toEqual(all.slice(4));
    expect(await session.messages({ offset: 1, limit: 3 })).toEqual(all.slice(1, 4));
    expect(await session.messages({ limit: 0 })).toEqual([]);
  });

  it('refuses an offset or limit that is not a whole number ≥ 0, naming it', async () => {
    const { memory, cleanup } = testMemory();
    cleanups.push(cleanup);
    const session = await memory.sessions.create();
    for (const options of [{ offset: -1 }, { limit: 1.5 }, { offset: '2' }, null] as unknown[]) {
      const error = await session.messages(options as { offset?: number }).catch((caught: unknown) => caught);
      expect(isStrataError(error, 'INVALID_INPUT'), JSON.stringify(options)).toBe(true);
    }
  });
});
