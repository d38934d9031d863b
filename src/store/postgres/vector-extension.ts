/**
 * pgvector, the PostgreSQL extension that keeps and searches vectors. Created in the database when it
 * is installed on the server and the role may create it (in schema public, where every Strata schema
 * of the database finds it); without it the store keeps no vectors and recall stays lexical.
 */
import type { Pool } from 'pg';
import { quoted } from './migrate.js';

/** Whether pgvector is usable, in which schema, and why not when it is not. */
export type PostgresVectorExtension = { loaded: true; schema: string } | { loaded: false; reason: string };

async function installedIn(pool: Pool): Promise<string | undefined> {
  const found = await pool.query<{ schema: string }>("SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'");
  return found.rows[0]?.schema;
}

/** Find pgvector in the database, creating it when missing; never fails (a failure says why vectors are off). */
export async function loadPostgresVectorExtension(pool: Pool): Promise<PostgresVectorExtension> {
  try {
    const existing = await installedIn(pool);
    if (existing !== undefined) return { loaded: true, schema: quoted(existing) };
    try {
      await pool.query('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
    } catch (error) {
      // Another server may have created it at the same moment.
      const created = await installedIn(pool);
      if (created !== undefined) return { loaded: true, schema: quoted(created) };
      throw error;
    }
    return { loaded: true, schema: quoted((await installedIn(pool)) ?? 'public') };
  } catch (error) {
    return { loaded: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
