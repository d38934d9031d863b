/**
 * The PostgreSQL session lock, as several servers use it: two locks on the same database (two pools,
 * as two processes would have) serialise one session's work and leave other sessions and tenants
 * alone; a lock is given back when its work fails, and when the process holding it dies.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSessionLock, type PostgresSessionLock } from '../../../src/store/postgres/session-lock.js';
import { bundledChild } from '../../support/bundle.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON } from '../../support/postgres.js';
import { strataFailure } from '../../support/strata-failure.js';

const locks: PostgresSessionLock[] = [];
afterEach(async () => {
  await Promise.all(locks.splice(0).map((lock) => lock.close()));
});

function server(waitMs?: number): PostgresSessionLock {
  const lock = createPostgresSessionLock({ connectionString: DATABASE_URL ?? '', ...(waitMs === undefined ? {} : { waitMs }) });
  locks.push(lock);
  return lock;
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const S1 = { tenant: 'acme', sessionId: 's1' };

/** Take `lock` for session s1 and keep it until `release` is called (`note` hears the work start and end); `done` settles once it is given back. */
async function holding(lock: PostgresSessionLock, note: (event: 'starts' | 'ends') => void = () => undefined): Promise<{ release: () => void; done: Promise<void> }> {
  const held = gate();
  const release = gate();
  const done = lock.run(S1, async () => {
    note('starts');
    held.open();
    await release.opened;
    note('ends');
  });
  await held.opened;
  return { release: release.open, done };
}

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`the PostgreSQL session lock${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  let child: Awaited<ReturnType<typeof bundledChild>> | null = null;
  beforeAll(async () => {
    child = await bundledChild('test/store/postgres/lock-holder.ts');
  });
  afterAll(() => child?.remove());

  it("runs one session's work on two servers one at a time, in the order they asked", async () => {
    const [first, second] = [server(), server()];
    const events: string[] = [];
    const a = await holding(first, (event) => events.push(`first ${event}`));
    const b = second.run(S1, async () => {
      events.push('second runs');
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(events).toEqual(['first starts']);
    a.release();
    await Promise.all([a.done, b]);
    expect(events).toEqual(['first starts', 'first ends', 'second runs']);
  });

  it('lets other sessions, and the same session id in another tenant, run meanwhile', async () => {
    const [first, second] = [server(), server()];
    const a = await holding(first);
    await expect(second.run({ tenant: 'acme', sessionId: 's2' }, async () => 'other session')).resolves.toBe('other session');
    await expect(second.run({ tenant: 'globex', sessionId: 's1' }, async () => 'other tenant')).resolves.toBe('other tenant');
    a.release();
    await a.done;
  });

  it('gives the lock back when the work fails, and bounds the wait', async () => {
    const [first, second] = [server(), server(200)];
    await expect(first.run(S1, async () => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
    await expect(second.run(S1, async () => 'taken after a failure')).resolves.toBe('taken after a failure');
    const a = await holding(first);
    const refused = await strataFailure(second.run(S1, async () => 'never'), 'STORE_FAILURE');
    expect(refused.message).toContain('lock timeout');
    a.release();
    await a.done;
  });

  it('is free again once the process holding it is killed', async () => {
    const holder = spawn(process.execPath, [child?.path ?? '', DATABASE_URL ?? ''], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(holder.stdout, 'data')) as [Buffer];
    expect(line.toString()).toContain('held');
    const blocked = server(300);
    await strataFailure(blocked.run(S1, async () => 'never'), 'STORE_FAILURE');
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    // The server notices the lost connection and ends its session, with the lock.
    const start = Date.now();
    await expect(server().run(S1, async () => 'taken')).resolves.toBe('taken');
    expect(Date.now() - start).toBeLessThan(10_000);
  });

  it('names the database it cannot reach, and writes nothing', async () => {
    const url = new URL(DATABASE_URL ?? 'postgres://localhost/x');
    url.port = '1';
    const lock = createPostgresSessionLock({ connectionString: url.toString() });
    locks.push(lock);
    let ran = false;
    const failure = await strataFailure(
      lock.run(S1, async () => {
        ran = true;
      }),
      'STORE_FAILURE',
    );
    expect(failure.message).toContain(`${url.hostname}:1`);
    expect(ran).toBe(false);
  });

  it('survives the database ending its connections, idle or holding a lock, and takes the lock again', async () => {
    const lock = server();
    const admin = server();
    await lock.run(S1, async () => undefined);
    const terminate = (): Promise<unknown> =>
      admin.run({ tenant: 'admin', sessionId: 'terminate' }, async () => {
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: DATABASE_URL });
        await client.connect();
        try {
          return await client.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid() UNION ALL SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle' AND query LIKE '%pg_advisory_unlock%'");
        } finally {
          await client.end();
        }
      });
    // Idle in the pool after its lock was given back.
    await terminate();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(lock.run(S1, async () => 'again')).resolves.toBe('again');
    // Lost while it holds the lock: the work goes on, the lock is gone with the connection.
    const result = await lock.run(S1, async () => {
      await terminate();
      await new Promise((resolve) => setTimeout(resolve, 100));
      return 'finished';
    });
    expect(result).toBe('finished');
    await expect(server().run(S1, async () => 'free')).resolves.toBe('free');
  });
});
