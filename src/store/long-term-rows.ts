/**
 * Rows of the long-term memory tables as the SQL adapters read them, and the model they become: SQLite
 * gives booleans as 0 or 1 and sources as JSON text, PostgreSQL as booleans and parsed JSON.
 */
import type { EdgeType, LongTermMemory, MemoryAuthor, MemoryEdge, MemorySource, MemoryTag, MemoryVersion } from '../core/long-term-memory.js';
import type { MaintenanceRun } from '../core/maintenance-run.js';

export interface LongTermRow {
  id: string;
  key: string;
  name: string | null;
  subject: string | null;
  value: string;
  version: number;
  deprecated: number | boolean;
  sources: string | MemorySource[];
  created_at: string;
  modified_at: string;
  reviewed_at: string | null;
  tended_at: string | null;
  accessed_at: string | null;
}

export interface VersionRow {
  memory_id: string;
  version: number;
  value: string;
  deprecated: number | boolean;
  at: string;
  author: string;
  reason: string;
}

export interface TagRow {
  memory_id: string;
  tag: string;
  author: string;
  at: string;
}

export interface EdgeRow {
  from_id: string;
  to_id: string;
  type: string;
  author: string;
  at: string;
  reason: string;
}

export function toLongTermMemory(row: LongTermRow): LongTermMemory {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    subject: row.subject,
    value: row.value,
    version: Number(row.version),
    deprecated: row.deprecated === true || row.deprecated === 1,
    sources: typeof row.sources === 'string' ? (JSON.parse(row.sources) as MemorySource[]) : row.sources,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
    reviewedAt: row.reviewed_at,
    tendedAt: row.tended_at,
    accessedAt: row.accessed_at,
  };
}

export function toMemoryVersion(row: VersionRow): MemoryVersion {
  return { memoryId: row.memory_id, version: Number(row.version), value: row.value, deprecated: row.deprecated === true || row.deprecated === 1, at: row.at, by: row.author as MemoryAuthor, reason: row.reason };
}

export function toMemoryTag(row: TagRow): MemoryTag {
  return { memoryId: row.memory_id, tag: row.tag, by: row.author as MemoryAuthor, at: row.at };
}

export function toMemoryEdge(row: EdgeRow): MemoryEdge {
  return { fromId: row.from_id, toId: row.to_id, type: row.type as EdgeType, by: row.author as MemoryAuthor, at: row.at, reason: row.reason };
}

/** The column a `mark` sets, from a fixed list (never from input text). */
export const MARKED_COLUMN = { reviewed: 'reviewed_at', tended: 'tended_at', accessed: 'accessed_at' } as const;

/** The most words a memory search looks for. */
const MAX_SEARCH_WORDS = 32;

/** Search terms as plain words (letters and digits only, lower case, each once), safe to quote in any query language. */
export function searchWords(terms: readonly string[]): string[] {
  const words = new Set<string>();
  for (const term of terms) {
    for (const word of term.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word !== '' && words.size < MAX_SEARCH_WORDS) words.add(word);
  }
  return [...words];
}

/** A kept maintenance run: JSON text in SQLite, parsed jsonb in PostgreSQL (the engine wrote it whole). */
export function toMaintenanceRun(stored: string | MaintenanceRun): MaintenanceRun {
  return typeof stored === 'string' ? (JSON.parse(stored) as MaintenanceRun) : stored;
}
