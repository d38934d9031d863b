/**
 * A memory on PostgreSQL from its path setting alone: `STRATA_DB=postgres://…` (with `?schema=` for a
 * schema of its own) gives the PostgreSQL store and a session lock shared across servers, and two
 * memories on one database see each other's turns.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { isPostgresUrl, splitSchema } from '../../src/memory/default-store.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON, dropSchemas, withParameter } from '../support/postgres.js';

describe('PostgreSQL URLs as the path setting', () => {
  it('are told from file names, and give up their schema parameter before reaching the driver', () => {
    expect(isPostgresUrl('postgres://strata@db/strata')).toBe(true);
    expect(isPostgresUrl('postgresql://strata@db/strata')).toBe(true);
    expect(isPostgresUrl('./postgres.db')).toBe(false);
    expect(isPostgresUrl(':memory:')).toBe(false);
    expect(splitSchema('postgres://u:p@db:5433/app?schema=memory&sslmode=require')).toEqual({ connectionString: 'postgres://u:p@db:5433/app?sslmode=require', schema: 'memory' });
    expect(splitSchema('postgres://u@db/app')).toEqual({ connectionString: 'postgres://u@db/app' });
  });
});

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`A memory on PostgreSQL${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  const schema = `strata_test_${randomBytes(5).toString('hex')}`;
  const path = withParameter(DATABASE_URL ?? '', `schema=${schema}`);
  afterAll(() => dropSchemas(schema));

  it('stores, remembers and finds a turn, and a second memory on the database sees it', async () => {
    const first = createMemory({ path, env: {} });
    const second = createMemory({ path, env: {} });
    try {
      const session = await first.sessions.create({ title: 'Roof repair' });
      const recorded = await session.record({ user: 'The roofer quoted £4,200 and starts on 12 May.', assistant: 'Noted: £4,200, starting 12 May.' });
      expect(recorded.status).toBe('summarised');
      const pkg = await session.context({ budget: 600, query: 'when does the roofer start' });
      expect(pkg.render().map((message) => message.content).join('\n')).toContain('£4,200');
      const other = await second.sessions.open(session.id);
      await other.record({ user: 'Actually the roofer moved the start to 19 May.' });
      expect((await session.facts()).map((fact) => fact.text).join('\n')).toContain('19 May');
      expect((await first.sessions.list()).map((item) => item.title)).toEqual(['Roof repair']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);
});
