/**
 * The public API of a tenant's long-term memory: what the assistant should know across sessions,
 * versioned, tagged and linked (`memory.memories`). A memory is referred to by its id, its key (`M1F`) or
 * its name (`mom-birthday`).
 */
import type { EdgeType, LongTermMemory, MemoryAuthor, MemoryEdge, MemorySource, MemoryVersion } from '../core/long-term-memory.js';
import type { MaintenanceRun } from '../core/maintenance-run.js';
import type { TendOptions } from './maintenance/maintenance-run.js';

export type { EdgeType, LongTermMemory, MemoryAuthor, MemoryEdge, MemorySource, MemoryTag, MemoryVersion } from '../core/long-term-memory.js';
export type { ActionKind, ActionStatus, AgentName, MaintenanceAction, MaintenanceRun, RunTrigger } from '../core/maintenance-run.js';
export type { TendOptions } from './maintenance/maintenance-run.js';

/** Who makes a change and why (default: `user`, and a reason saying what the call did). */
export interface ChangeOptions {
  by?: MemoryAuthor;
  reason?: string;
}

export interface NewMemoryInput extends ChangeOptions {
  /** 1 to 500 characters. */
  value: string;
  /** A name unique in the tenant (lower-case letters, digits, `.`, `_`, `-`), or none. */
  name?: string;
  tags?: readonly string[];
  /** The messages it came from. */
  sources?: readonly MemorySource[];
}

/** What to recall, and how (`LongTermMemories.recall`). */
export interface RecallOptions {
  /** The current context: a question, the user's last message ('' with filters alone). At most 10,000 characters. */
  query: string;
  /** Memories returned at most (1–100, default 8). */
  limit?: number;
  /** Only memories carrying every one of these tags. */
  tags?: readonly string[];
  /** Edges followed from what the query found: 0, 1 (default) or 2 steps. */
  depth?: number;
  /** The edge types followed (default all five). */
  edgeTypes?: readonly EdgeType[];
  /** Only memories changed at or after this time (ISO-8601). */
  changedSince?: string;
  /** Only memories not reviewed since this time (never reviewed, or last before it): "not revisited in 90 days". */
  notReviewedSince?: string;
  /** Each memory as it stood at this time (its version then); memories made later are left out. */
  asOf?: string;
}

/** A memory recall found, with why. */
export interface RecalledMemory {
  memory: LongTermMemory;
  /** 0–1: the share of the query it answers (an edge: half its neighbour's; a filter alone: 0.5). */
  score: number;
  /** How it was found: by its `words`, a `tag` the query names, a `link` from another find, or `time` filters alone. */
  path: 'words' | 'tag' | 'link' | 'time';
  /** One line saying why it is relevant. */
  reason: string;
}

export interface Recall {
  /** Best first. */
  memories: RecalledMemory[];
  /** True when nothing in long-term memory is relevant (within the filters). */
  nothingRelevant: boolean;
}

export interface LongTermMemories {
  /**
   * The memories relevant to a query, best first, each with a one-line reason; offline and deterministic:
   * words, tags the query names, edges from those finds, then the filters. Marks what it returns as accessed.
   *
   * @example
   * const { memories, nothingRelevant } = await tenant.memories.recall({ query: 'Can we meet on Saturday?' });
   */
  recall(options: RecallOptions): Promise<Recall>;
  /**
   * Remember something: a memory at version 1 with the tenant's next key.
   *
   * @example
   * const memory = await tenant.memories.add({ value: 'Mom’s birthday is May 4', name: 'mom-birthday', tags: ['family'] });
   */
  add(input: NewMemoryInput): Promise<LongTermMemory>;
  /** The memory with this id, key or name; MEMORY_NOT_FOUND when none has it. */
  get(reference: string): Promise<LongTermMemory>;
  /**
   * The most recently modified first; `tags` keeps those carrying all of them. Deprecated memories only
   * with `deprecated: true` (INVALID_INPUT with `tags`: tagged lists hold current memories). Default limit 50.
   */
  list(options?: { limit?: number; offset?: number; tags?: readonly string[]; deprecated?: boolean }): Promise<LongTermMemory[]>;
  /** Give it a new value: its next version, the old one kept. */
  change(reference: string, input: { value: string } & ChangeOptions): Promise<LongTermMemory>;
  /** Every version, oldest first. */
  history(reference: string): Promise<MemoryVersion[]>;
  /** Undo its last change (value and deprecation back as they were), as a new version; INVALID_INPUT at version 1. */
  undo(reference: string, options?: ChangeOptions): Promise<LongTermMemory>;
  /** Mark it deprecated, or current again: kept, listed only when asked for, and recorded as a version. */
  deprecate(reference: string, options?: ChangeOptions & { deprecated?: boolean }): Promise<LongTermMemory>;
  /** Name it, or take its name away (null). */
  rename(reference: string, name: string | null): Promise<LongTermMemory>;
  /** Put tags on it (normalised: "Family / Birthdays" → "family/birthdays"); gives all its tags. */
  tag(reference: string, tags: readonly string[], options?: { by?: MemoryAuthor }): Promise<string[]>;
  untag(reference: string, tags: readonly string[]): Promise<string[]>;
  /** Its tags, in order. */
  tagsOf(reference: string): Promise<string[]>;
  /** Every tag in use, with how many current memories carry it. */
  tags(): Promise<Array<{ tag: string; memories: number }>>;
  /** Link two memories (`relates-to`, `contradicts`, `supersedes`, `part-of`, `caused-by`). */
  link(from: string, to: string, type: EdgeType, options?: ChangeOptions): Promise<MemoryEdge>;
  unlink(from: string, to: string, type: EdgeType): Promise<boolean>;
  /** Its edges, from it and to it. */
  edges(reference: string): Promise<MemoryEdge[]>;
  /**
   * Tend the memories once: the maintenance agents (archiver, corrector, condenser, linker, tagger,
   * reviewer, offline) go over those tended least recently (default 1,000), each change made as
   * `agent:<name>` with its reason (at most `maxChanges`, default 200), and the run is kept. Runs also
   * come every `tendEveryHours` (default 24) while the tenant is in use.
   *
   * @example
   * const run = await tenant.memories.tend({ agents: ['archiver', 'linker'] });
   * for (const action of run.actions) console.log(action.agent, action.kind, action.reason);
   */
  tend(options?: TendOptions): Promise<MaintenanceRun>;
  /** Maintenance runs, the newest first (default limit 20, at most 1,000). */
  runs(options?: { limit?: number; offset?: number }): Promise<MaintenanceRun[]>;
  /** The run with this id; NOT_FOUND when there is none. */
  run(runId: string): Promise<MaintenanceRun>;
  /** Apply action `index` (0-based) of a run, which the run only proposed (a subtag held for approval). */
  approve(runId: string, index: number): Promise<MaintenanceRun>;
  /** Turn down a proposed action: nothing changes but the run's record. */
  reject(runId: string, index: number): Promise<MaintenanceRun>;
}
