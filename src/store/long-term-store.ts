/**
 * The storage port of long-term memory: a tenant's memories, their versions, tags and edges
 * (`core/long-term-memory.ts` has the model). Every adapter passes `test/contract/long-term-contract.ts`.
 * Inputs arrive checked and normalised by the engine (values, names, tags, authors); the repository keeps
 * what it is given, and answers for uniqueness (ids, names, keys) and for history (every version kept).
 */
import type { EdgeType, LongTermMemory, MemoryAuthor, MemoryEdge, MemorySource, MemoryTag, MemoryVersion } from '../core/long-term-memory.js';
import type { MaintenanceRun } from '../core/maintenance-run.js';

/** A memory to make: the repository gives it its key and its first version. */
export interface NewMemory {
  id: string;
  name: string | null;
  /** What it is about, when promoted from a session's facts (unique in the tenant), else null. */
  subject?: string | null;
  value: string;
  sources: readonly MemorySource[];
  at: string;
}

/** Who changes a memory, when and why. */
export interface MemoryChange {
  by: MemoryAuthor;
  reason: string;
  at: string;
}

export interface LongTermRepository {
  /**
   * Make a memory at version 1, whose version says `by` and `reason`, with the tenant's next key
   * (`memoryKey(n)` for the tenant's n-th memory made: a key is never given twice). Its modified time is
   * its creation time; reviewed, tended and accessed are null. Fails with MEMORY_EXISTS, changing nothing,
   * when the tenant already has a memory with this id, name or subject.
   */
  create(options: { memory: NewMemory } & Omit<MemoryChange, 'at'>): Promise<LongTermMemory>;
  get(options: { id: string }): Promise<LongTermMemory | null>;
  /** The memory with this key, name or subject: one indexed read. */
  find(options: { key: string } | { name: string } | { subject: string }): Promise<LongTermMemory | null>;
  /**
   * Current memories (not deprecated) holding any of `terms` in their value, name, subject or tags, matched
   * after stemming, the best match first (those holding every term before the others): at most `limit`.
   * Terms are words; anything but letters and digits in them separates words. Rankings are the adapter's
   * own (BM25, ts_rank; the newest first where a word is too common to rank); the engine reranks.
   */
  search(options: { terms: readonly string[]; limit: number }): Promise<LongTermMemory[]>;
  /** The most recently modified first (then by id); deprecated ones only when `deprecated` is true. */
  list(options: { limit: number; offset?: number; deprecated?: boolean }): Promise<LongTermMemory[]>;
  /** How many memories the tenant holds, deprecated ones included. */
  count(): Promise<number>;
  /**
   * Change a memory's value and/or whether it is deprecated: its next version, kept with the change's
   * author and reason (a version that changes nothing is still kept: an undo, a confirmation). `sources`
   * are added to its sources: a session already listed gets the message ids it lacks, after its own; a new
   * session goes last. The modified time becomes `at`. Null for an unknown id.
   */
  revise(options: { id: string; value?: string; deprecated?: boolean; sources?: readonly MemorySource[] } & MemoryChange): Promise<LongTermMemory | null>;
  /** Every version of the memory, oldest first (none for an unknown id). */
  versions(options: { id: string }): Promise<MemoryVersion[]>;
  /** Give the memory a name, or none (null); MEMORY_EXISTS, changing nothing, when another memory has it. Null for an unknown id. */
  rename(options: { id: string; name: string | null }): Promise<LongTermMemory | null>;
  /** Record when the memories were last reviewed, tended or accessed; unknown ids are ignored. */
  mark(options: { ids: readonly string[]; what: 'reviewed' | 'tended' | 'accessed'; at: string }): Promise<void>;
  /** Put tags on a memory (a tag it has keeps its first author and time); false for an unknown id. */
  tag(options: { id: string; tags: readonly string[]; by: MemoryAuthor; at: string }): Promise<boolean>;
  /** Take tags off a memory; tags it does not have are ignored. */
  untag(options: { id: string; tags: readonly string[] }): Promise<void>;
  /** The memory's tags in tag order. */
  tags(options: { id: string }): Promise<MemoryTag[]>;
  /** The memories carrying every one of `tags` (at least one tag), deprecated ones left out, most recently modified first (then by id). */
  tagged(options: { tags: readonly string[]; limit: number }): Promise<LongTermMemory[]>;
  /** Every tag on a memory that is not deprecated, with the number of such memories carrying it, in tag order. */
  tagCounts(): Promise<Array<{ tag: string; memories: number }>>;
  /**
   * Link two memories of the tenant (an edge of the same two memories and type is replaced); false, changing
   * nothing, when either is unknown or they are the same memory.
   */
  link(options: { edge: MemoryEdge }): Promise<boolean>;
  /** Remove an edge; false when there was none. */
  unlink(options: { fromId: string; toId: string; type: EdgeType }): Promise<boolean>;
  /** The edges from and to the memory, oldest first (then by from id, to id and type). */
  edges(options: { id: string }): Promise<MemoryEdge[]>;
  /** Current memories, those never tended first, then the least recently tended (then by id): at most `limit`. */
  due(options: { limit: number }): Promise<LongTermMemory[]>;
  /**
   * Keep a maintenance run's record (a run kept already, by id, is replaced: a proposal settled), and only
   * the tenant's newest `keep` runs (by start, then id): older ones are removed.
   */
  saveRun(options: { run: MaintenanceRun; keep: number }): Promise<void>;
  /** The run with this id, or null. */
  getRun(options: { id: string }): Promise<MaintenanceRun | null>;
  /** Maintenance runs, the newest first (by start, then id). */
  runs(options: { limit: number; offset?: number }): Promise<MaintenanceRun[]>;
}
