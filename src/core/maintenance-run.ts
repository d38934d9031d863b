/**
 * Maintenance of long-term memory: the agents that tend a tenant's memories, what each of their actions
 * is, and the record a run leaves (what it looked at, what it did or proposed, what failed). Pure data and
 * checks; the engine runs the agents (`memory/maintenance/`).
 */
import { StrataError } from './errors.js';
import type { EdgeType } from './long-term-memory.js';

/**
 * The agents, in the order a run calls them: the archiver first (what is superseded needs no tending),
 * the reviewer last (it flags what the others left for a person).
 */
export const AGENT_NAMES = ['archiver', 'corrector', 'condenser', 'linker', 'tagger', 'reviewer'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** What an action does: flag a memory for a person, put tags on it, link it, give it a new value, deprecate it. */
export type ActionKind = 'flag' | 'tag' | 'link' | 'revise' | 'deprecate';

/** Applied when the run made it; proposed when it waits for a person (`approve`, `reject`); failed when the store refused it. */
export type ActionStatus = 'applied' | 'proposed' | 'approved' | 'rejected' | 'failed';

export interface MaintenanceAction {
  agent: AgentName;
  kind: ActionKind;
  /** The memories it concerns: one, or (`tag`) every memory a subtag gathers. */
  memoryIds: string[];
  /** `tag`: the tags put on. */
  tags?: string[];
  /** `link`: the other end and the edge's type (from the memory to `toId`). */
  toId?: string;
  edgeType?: EdgeType;
  /** `revise`: the new value. */
  value?: string;
  /** `revise`, `deprecate`: the version of the memory the agent read; a memory changed since is left as it is. */
  version?: number;
  /** One line: why. */
  reason: string;
  status: ActionStatus;
}

/** Runs a tenant keeps: saving one more removes the oldest. */
export const KEPT_RUNS = 1_000;

/** Why a run started: a person or program asked (`tend`), or the tenant's schedule came round. */
export type RunTrigger = 'demand' | 'schedule';

export interface MaintenanceRun {
  id: string;
  trigger: RunTrigger;
  agents: AgentName[];
  startedAt: string;
  finishedAt: string;
  /** How many memories the run looked at (those tended least recently first). */
  examined: number;
  /** What it was allowed: memories looked at, and changes made or proposed. */
  limits: { memories: number; changes: number };
  /** Calls to a model (0 for the local agents): what the run cost. */
  modelCalls: number;
  actions: MaintenanceAction[];
  /** Actions the agents wanted beyond the run's change limit, left for the next run. */
  leftOut: number;
  /** Agents that failed part way, and why (the others still ran). */
  failures: Array<{ agent: AgentName; message: string }>;
}

export function isAgentName(name: unknown): name is AgentName {
  return typeof name === 'string' && (AGENT_NAMES as readonly string[]).includes(name);
}

/** The agents named, in run order, without repeats; every agent when `names` is left out. INVALID_INPUT for an unknown name or an empty list. */
export function checkAgents(names: readonly unknown[] | undefined): AgentName[] {
  if (names === undefined) return [...AGENT_NAMES];
  if (names.length === 0) throw new StrataError('INVALID_INPUT', `Name at least one maintenance agent (${AGENT_NAMES.join(', ')}), or leave agents out to run them all.`);
  for (const name of names) {
    if (!isAgentName(name)) throw new StrataError('INVALID_INPUT', `There is no maintenance agent ${JSON.stringify(name)}; the agents are ${AGENT_NAMES.join(', ')}.`);
  }
  return AGENT_NAMES.filter((name) => names.includes(name));
}
