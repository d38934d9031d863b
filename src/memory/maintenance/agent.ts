/**
 * What a maintenance agent is: given the memories a run examines, it plans actions (tag, link, revise,
 * deprecate, flag), each with a one-line reason; the run applies them under the agent's name
 * (`agent:<name>`), within the run's bounds, or holds them for a person. Agents read; only the run writes.
 */
import type { LongTermMemory } from '../../core/long-term-memory.js';
import type { AgentName, MaintenanceAction } from '../../core/maintenance-run.js';
import type { Fact } from '../../core/types.js';
import type { LongTermRepository } from '../../store/long-term-store.js';

/** An action an agent wants; `hold` keeps it as a proposal for a person to approve. */
export type PlannedAction = Omit<MaintenanceAction, 'agent' | 'status'> & { hold?: boolean };

export interface AgentContext {
  repository: LongTermRepository;
  /**
   * Current memories that share words with this one (not itself), the best matches first: one search per
   * memory and version in a run, shared by the agents; those deprecated since are left out.
   */
  similar(memory: LongTermMemory): Promise<LongTermMemory[]>;
  /** The current facts of a session of the tenant (none when it is gone). */
  sessionFacts(sessionId: string): Promise<readonly Fact[]>;
  /** The time of the run (ISO-8601). */
  now: string;
  /** A tag holding more current memories than this is split into subtags. */
  refineTagsAbove: number;
  /** Whether the tagger's subtags are put on (`auto`) or proposed (`approve`). */
  tagRefinement: 'auto' | 'approve';
}

export interface MaintenanceAgent {
  name: AgentName;
  /** What to do with these memories (current when the agent's turn comes, in the order they were due). */
  plan(memories: readonly LongTermMemory[], context: AgentContext): Promise<PlannedAction[]>;
}

/** A memory as a reason quotes it: its key and the start of its value. */
export function cite(memory: LongTermMemory): string {
  const value = memory.value.length > 60 ? `${memory.value.slice(0, 57).trimEnd()}…` : memory.value;
  return `${memory.key} ("${value}")`;
}
