/**
 * Memories sharing one store (processes on one SQLite file, servers on one PostgreSQL database): a turn's
 * memory another of them writes later — a retry that lands there — shows in this one's next package,
 * though this one had that turn in its cache.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { createPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { temporaryFolder } from '../support/memory-fixtures.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON, dropSchemas, withParameter } from '../support/postgres.js';

const EXCHANGES: ReadonlyArray<readonly [string, string]> = [
  ['We are renovating the bathroom in the flat on Elm Road.', 'A bathroom renovation on Elm Road, noted.'],
  ['The tiler quoted £1,850 for the walls and the floor.', 'Tiling: £1,850, walls and floor.'],
  ['The plumber can only come on Thursdays.', 'Plumber on Thursdays only.'],
  ['We picked a walk-in shower instead of the bath.', 'A walk-in shower, no bath.'],
  ['The extractor fan has to vent through the north wall.', 'The fan vents north.'],
  ['Grey grout, not white: white stains too quickly.', 'Grey grout.'],
];

/** Two memories on one store, a session recorded by the first, and the store as a third party writes to it. */
async function sharedSession(first: Memory): Promise<string> {
  const session = await first.sessions.create({ title: 'Bathroom' });
  for (const [user, assistant] of EXCHANGES) await session.record({ user, assistant });
  return session.id;
}

/** What a retry landing on another server writes: turn 2's memory, anew (its messages' tiers, its summary). */
async function landsElsewhere(store: Store, sessionId: string): Promise<void> {
  const tenant = store.tenant('default');
  const turn = await tenant.turns.get({ sessionId, turn: 2 });
  const [user] = await tenant.messages.listByTurns({ sessionId, fromTurn: 2, toTurn: 2 });
  if (turn === null || user === undefined) throw new Error('turn 2 was not stored');
  const tier1 = 'tiler = £2,300 re-quoted';
  await tenant.messages.updateTiers({ sessionId, updates: [{ messageId: user.id, tier1, tier2: user.tier2, tokens: { ...user.tokens, tier1: 8 }, requiredTier: user.requiredTier }] });
  await tenant.turns.upsert({ summary: { ...turn, userSummary: 'The tiler re-quoted £2,300.' } });
}

async function showsTheNewMemory(path: string, openStore: () => Store): Promise<void> {
  const env = { STRATA_RAW_WINDOW_TURNS: '2' };
  const first = createMemory({ path, env });
  const other = openStore();
  try {
    const sessionId = await sharedSession(first);
    const session = await first.sessions.open(sessionId);
    // A budget at which older turns show their first tier.
    const before = (await session.context({ budget: 350 })).render()[0]?.content ?? '';
    expect(before).toContain('[turn 2] user: tiler = £1,850');
    await landsElsewhere(other, sessionId);
    const after = (await session.context({ budget: 350 })).render()[0]?.content ?? '';
    expect(after).toContain('[turn 2] user: tiler = £2,300 re-quoted');
    expect(after).not.toContain('[turn 2] user: tiler = £1,850');
  } finally {
    await Promise.all([first.close(), other.close()]);
  }
}

describe('a turn written by another memory sharing the store', () => {
  it('shows in the next package on one SQLite file', async () => {
    const folder = temporaryFolder();
    const path = join(folder.path, 'shared.db');
    try {
      await showsTheNewMemory(path, () => createSqliteStore({ path }));
    } finally {
      folder.cleanup();
    }
  }, 60_000);

  describe.skipIf(POSTGRES_SKIP_REASON !== null)(`on PostgreSQL${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
    const schema = `strata_test_${randomBytes(5).toString('hex')}`;
    afterAll(() => dropSchemas(schema));

    it('shows in the next package on one database', async () => {
      await showsTheNewMemory(withParameter(DATABASE_URL ?? '', `schema=${schema}`), () => createPostgresStore({ connectionString: DATABASE_URL ?? '', schema }));
    }, 60_000);
  });
});
