/**
 * pgvector, the PostgreSQL extension that keeps and searches vectors. Created in the database when it
 * is installed on the server and the role may create it (in schema public, where every Strata schema
 * of the database finds it); without it the store keeps no vectors and recall stays lexical.
 */
import type { Pool } from 'pg';
import { quoted } from './migrate.js';

/**
 * Whether pgvector is usable, in which schema, and why not when it is not; `hnsw` when it can search an
 * HNSW index with a filter to the end (iterative index scans, pgvector 0.8.0 and later).
 */
export type PostgresVectorExtension = { loaded: true; schema: string; hnsw: boolean } | { loaded: false; reason: string };

interface Installed {
  schema: string;
  hnsw: boolean;
}

async function installedIn(pool: Pool): Promise<Installed | undefined> {
  const found = await pool.query<{ schema: string; version: string }>(
    "SELECT n.nspname AS schema, e.extversion AS version FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
  );
  const row = found.rows[0];
  if (row === undefined) return undefined;
  const [major = 0, minor = 0] = row.version.split('.').map(Number);
  return { schema: quoted(row.schema), hnsw: major > 0 || minor >= 8 };
}

/** Find pgvector in the database, creating it when missing; never fails (a failure says why vectors are off). */
export async function loadPostgresVectorExtension(pool: Pool): Promise<PostgresVectorExtension> {
  try {
    const existing = await installedIn(pool);
    if (existing !== undefined) return { loaded: true, ...existing };
    try {
      await pool.query('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
    } catch (error) {
      // Another server may have created it at the same moment.
      const created = await installedIn(pool);
      if (created !== undefined) return { loaded: true, ...created };
      throw error;
    }
    return { loaded: true, ...((await installedIn(pool)) ?? { schema: quoted('public'), hnsw: false }) };
  } catch (error) {
    return { loaded: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
