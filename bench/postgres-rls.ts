/**
 * What row-level security would cost Strata's reads on PostgreSQL (issue 21 asked to measure, decide and
 * document). Strata binds the tenant in every statement already; RLS would add a policy on each table and
 * the tenant set on the connection before each statement (pool reads take any connection), or a
 * transaction per read. This times a session's page of messages read as a role RLS applies to (a table's
 * owner and superusers bypass it), three ways, in interleaved rounds: plain; RLS with `set_config` before
 * each read; RLS with a transaction and `SET LOCAL` per read.
 *
 * Run: `DATABASE_URL=postgres://… npm run bench:rls` (a superuser: it makes and drops the table
 * strata_rls_bench and the role strata_rls_bench_app, which logs in without a password, so the server
 * must trust local connections, as the one `.ci/run` starts does).
 */
import pg from 'pg';
import { summarise } from './percentile.js';

const READS = 4000;
const ROUNDS = 3;

type Way = 'plain' | 'set-config' | 'transaction';

async function timeReads(client: pg.PoolClient, way: Way): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let index = 0; index < READS; index += 1) {
    const tenant = `t${String(index % 100)}`;
    const start = process.hrtime.bigint();
    if (way === 'set-config') await client.query({ name: 'tenant', text: "SELECT set_config('strata.tenant', $1, false)", values: [tenant] });
    if (way === 'transaction') {
      await client.query('BEGIN');
      await client.query({ name: 'tenant-local', text: "SELECT set_config('strata.tenant', $1, true)", values: [tenant] });
    }
    const read = await client.query({ name: 'page', text: 'SELECT seq, turn, content FROM strata_rls_bench WHERE tenant_id = $1 AND session_id = $2 ORDER BY seq LIMIT 20', values: [tenant, `s${String(index % 1000)}`] });
    if (way === 'transaction') await client.query('COMMIT');
    if (read.rows.length === 0) throw new Error('The benchmark table gave no rows: the policy hid them.');
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return summarise(times);
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? process.env.STRATA_DB;
  if (url === undefined || !url.startsWith('postgres')) throw new Error('Set DATABASE_URL to a PostgreSQL database (as a superuser) to run this benchmark.');
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP TABLE IF EXISTS strata_rls_bench; DROP ROLE IF EXISTS strata_rls_bench_app;
    CREATE TABLE strata_rls_bench (tenant_id text COLLATE "C", session_id text COLLATE "C", seq bigint, turn int, content text, PRIMARY KEY (tenant_id, session_id, seq));
    INSERT INTO strata_rls_bench SELECT 't' || (g % 100), 's' || (g % 1000), g, g / 2, repeat('word ', 40) FROM generate_series(1, 200000) g;
    ANALYZE strata_rls_bench;
    CREATE ROLE strata_rls_bench_app LOGIN; GRANT SELECT ON strata_rls_bench TO strata_rls_bench_app;
    CREATE POLICY by_tenant ON strata_rls_bench USING (tenant_id = current_setting('strata.tenant', true));`);
  const appUrl = new URL(url);
  appUrl.username = 'strata_rls_bench_app';
  appUrl.password = '';
  const app = new pg.Pool({ connectionString: appUrl.toString(), max: 1 });
  const rows: string[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const way of ['plain', 'set-config', 'transaction'] as const) {
        await admin.query(`ALTER TABLE strata_rls_bench ${way === 'plain' ? 'DISABLE' : 'ENABLE'} ROW LEVEL SECURITY`);
        const client = await app.connect();
        try {
          const { p50, p95 } = await timeReads(client, way);
          rows.push(`round ${String(round)}  ${way.padEnd(12)} p50 ${p50.toFixed(3)} ms  p95 ${p95.toFixed(3)} ms`);
        } finally {
          client.release();
        }
      }
    }
  } finally {
    await app.end();
    await admin.query('DROP TABLE IF EXISTS strata_rls_bench; DROP ROLE IF EXISTS strata_rls_bench_app');
    await admin.end();
  }
  console.log(`A page of 20 messages read ${String(READS)} times per way, as a role RLS applies to:\n${rows.join('\n')}`);
}

await main();
