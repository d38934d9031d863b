/**
 * The PostgreSQL store under the failures a server meets: a connection the database ends mid-transaction,
 * another server holding a tenant's lock, a statement sent after its transaction ended, text PostgreSQL
 * cannot hold, and connection options in the URL. None may crash the process or change what is stored.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { openPool } from '../../../src/store/postgres/pool.js';
import { createPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import type { Store } from '../../../src/store/store.js';
import { makeExchange, makeSession, at } from '../../contract/store-contract.js';
import { deferred } from '../../support/deferred.js';
import { DATABASE_URL, POSTGRES_SKIP_REASON, dropSchemas, withParameter } from '../../support/postgres.js';
import { strataFailure } from '../../support/strata-failure.js';

const databaseUrl = DATABASE_URL ?? '';

describe.skipIf(POSTGRES_SKIP_REASON !== null)(`PostgreSQL store connections${POSTGRES_SKIP_REASON === null ? '' : ` (skipped: ${POSTGRES_SKIP_REASON})`}`, () => {
  const schema = `strata_test_${randomBytes(5).toString('hex')}`;
  let admin: Pool;
  const stores: Store[] = [];
  /** A store on the test schema; `application` names its connections in pg_stat_activity. */
  const open = (settings: { application?: string; max?: number; url?: string } = {}): Store => {
    const url = settings.application === undefined ? (settings.url ?? databaseUrl) : withParameter(settings.url ?? databaseUrl, `application_name=${settings.application}`);
    const store = createPostgresStore({ connectionString: url, schema, pool: { max: settings.max ?? 4, connectMs: 3000 } });
    stores.push(store);
    return store;
  };
  beforeAll(async () => {
    admin = await openPool({ connectionString: databaseUrl, max: 2 });
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await admin.end();
    await dropSchemas(schema);
  });

  it('fails a transaction whose connection the database ends, without crashing the process, and works on', async () => {
    const application = `strata_cut_${randomBytes(3).toString('hex')}`;
    const tenant = open({ application }).tenant('cut');
    await tenant.sessions.create({ session: makeSession('s-cut') });
    const held = deferred();
    const inside = deferred();
    const transaction = tenant.transaction(async (tx) => {
      await tx.sessions.update({ sessionId: 's-cut', title: 'never committed', updatedAt: at(1) });
      inside.resolve();
      await held.promise;
      await tx.sessions.update({ sessionId: 's-cut', title: 'after the cut', updatedAt: at(2) });
    });
    await inside.promise;
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'", [application]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    held.resolve();
    await strataFailure(transaction, 'STORE_FAILURE');
    expect((await tenant.sessions.get({ sessionId: 's-cut' }))?.title).toBe('Conversation s-cut');
  });

  it("queues a tenant's writes in the process while another server holds its lock, so other tenants are still served", async () => {
    const holder = open().tenant('busy');
    await holder.sessions.create({ session: makeSession('s-busy') });
    const waiting = open({ max: 2 });
    await waiting.tenant('other').sessions.create({ session: makeSession('s-other') });
    const held = deferred();
    const locked = deferred();
    const holding = holder.transaction(async () => {
      locked.resolve();
      await held.promise;
    });
    await locked.promise;
    const writes = [1, 2, 3].map((minute) => waiting.tenant('busy').sessions.update({ sessionId: 's-busy', title: `write ${String(minute)}`, updatedAt: at(minute) }));
    // With two connections, the three queued writes would hold both and this read would time out.
    expect((await waiting.tenant('other').sessions.get({ sessionId: 's-other' }))?.id).toBe('s-other');
    held.resolve();
    await holding;
    expect(await Promise.all(writes)).toEqual([true, true, true]);
    expect((await holder.sessions.get({ sessionId: 's-busy' }))?.title).toBe('write 3');
  });

  it('refuses a statement sent after its transaction ended', async () => {
    const tenant = open().tenant('late');
    await tenant.sessions.create({ session: makeSession('s-late') });
    let late: Promise<unknown> = Promise.resolve();
    await tenant.transaction(async (tx) => {
      late = new Promise((resolve) => setTimeout(resolve, 50)).then(() => tx.sessions.update({ sessionId: 's-late', title: 'written after the end', updatedAt: at(1) }));
    });
    await strataFailure(late, 'STORE_FAILURE');
    expect((await tenant.sessions.get({ sessionId: 's-late' }))?.title).toBe('Conversation s-late');
  });

  it('refuses text holding U+0000 as bad input, changing nothing', async () => {
    const tenant = open().tenant('nul');
    await tenant.sessions.create({ session: makeSession('s-nul') });
    const error = await strataFailure(tenant.messages.append({ sessionId: 's-nul', messages: makeExchange('s-nul', 1, 'binary\u0000paste', 'ok'), updatedAt: at(1) }), 'INVALID_INPUT');
    expect(error.message).toMatch(/U\+0000/u);
    expect((await tenant.sessions.get({ sessionId: 's-nul' }))?.messageCount).toBe(0);
    expect(await tenant.messages.list({ sessionId: 's-nul' })).toEqual([]);
  });

  it("keeps its schema when the URL brings connection options of its own", async () => {
    const tenant = open({ url: withParameter(databaseUrl, 'options=-c%20statement_timeout%3D60000') }).tenant('options');
    await tenant.sessions.create({ session: makeSession('s-options') });
    expect((await tenant.sessions.get({ sessionId: 's-options' }))?.id).toBe('s-options');
  });
});
