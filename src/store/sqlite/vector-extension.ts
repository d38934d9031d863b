/**
 * sqlite-vec, the SQLite extension that keeps and searches vectors: an optional dependency. Loaded into
 * each connection when installed; without it the store keeps no vectors and recall stays lexical.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';

/** Whether sqlite-vec could be loaded into `db`, and why not when it could not. */
export type VectorExtension = { loaded: true } | { loaded: false; reason: string };

export function loadVectorExtension(db: Database.Database): VectorExtension {
  try {
    const extension = createRequire(import.meta.url)('sqlite-vec') as { load(db: Database.Database): void };
    extension.load(db);
    return { loaded: true };
  } catch (error) {
    return { loaded: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
