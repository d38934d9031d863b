/**
 * The PostgreSQL server tests run against: `DATABASE_URL` (`.ci/run` starts one with pgvector and sets
 * it, with STRATA_CI=1). Outside CI, without it, those tests are skipped and say why; in CI they never are.
 */
export const DATABASE_URL = process.env.DATABASE_URL;

if (DATABASE_URL === undefined && process.env.STRATA_CI === '1') {
  throw new Error('STRATA_CI=1 but DATABASE_URL is not set: .ci/run starts PostgreSQL and sets it before the tests; the PostgreSQL tests may not be skipped in CI.');
}

/** Why a PostgreSQL test is skipped here, or null when it runs. */
export const POSTGRES_SKIP_REASON: string | null =
  DATABASE_URL === undefined ? 'no DATABASE_URL: set it to a PostgreSQL 15 database with pgvector to run these tests (bash .ci/run starts one)' : null;

/** A URL's query parameter added (`?` or `&` as the URL needs). */
export function withParameter(url: string, parameter: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${parameter}`;
}

/** Drop test schemas (and everything in them) on the server of DATABASE_URL. */
export async function dropSchemas(...schemas: string[]): Promise<void> {
  const { openPool } = await import('../../src/store/postgres/pool.js');
  const admin = await openPool({ connectionString: DATABASE_URL ?? '', max: 1 });
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}
