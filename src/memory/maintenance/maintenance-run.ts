/**
 * A maintenance run over a tenant's long-term memory: the memories tended least recently (up to the
 * run's limit) go through the agents in order; each agent plans, and the run applies what it planned as
 * `agent:<name>` (a version, a tag, an edge), holds what needs a person's approval, and stops changing
 * things at the change limit. The run is kept with every action and its reason, and what failed.
 */
import { describeValue } from '../../core/describe-value.js';
import { StrataError } from '../../core/errors.js';
import type { LongTermMemory } from '../../core/long-term-memory.js';
import { applyAction } from './apply-action.js';
import { checkAgents, KEPT_RUNS, type AgentName, type MaintenanceAction, type MaintenanceRun, type RunTrigger } from '../../core/maintenance-run.js';
import type { Fact } from '../../core/types.js';
import { recallTerms } from '../../core/long-term-ranking.js';
import type { LongTermRepository } from '../../store/long-term-store.js';
import type { AgentContext, MaintenanceAgent, PlannedAction } from './agent.js';

/** What a run may do, by default: memories examined, and changes made or proposed. */
export const RUN_MEMORIES = 1_000;
export const RUN_CHANGES = 200;

export interface TendOptions {
  /** The agents to run (default all, in run order: archiver, corrector, condenser, linker, tagger, reviewer). */
  agents?: readonly AgentName[];
  /** Memories examined at most, those tended least recently first (1–100,000, default 1,000). */
  limit?: number;
  /** Changes made or proposed at most (0–100,000, default 200); what is left waits for the next run. */
  maxChanges?: number;
}

export interface MaintenanceParts {
  repository: LongTermRepository;
  /** Runs `work` as one transaction of the tenant's store (an action's every write lands together). */
  atomically: <T>(work: (repository: LongTermRepository) => Promise<T>) => Promise<T>;
  sessionFacts(sessionId: string): Promise<readonly Fact[]>;
  agents: Readonly<Record<AgentName, MaintenanceAgent>>;
  now: () => string;
  newId: () => string;
  settings: Pick<AgentContext, 'refineTagsAbove' | 'tagRefinement'>;
}

function checkCount(value: unknown, name: string, fallback: number, least: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least || value > 100_000) {
    throw new StrataError('INVALID_INPUT', `tend() takes ${name} as a whole number from ${String(least)} to 100,000 (got ${describeValue(value)}).`);
  }
  return value;
}

/** Memories of the same words a run looks at for each memory. */
const SIMILAR = 12;

/** `similar` for a run: searched once per memory and version, what the run deprecates left out. */
function similarMemories(repository: LongTermRepository, gone: ReadonlySet<string>): AgentContext['similar'] {
  const found = new Map<string, Promise<LongTermMemory[]>>();
  return async (memory) => {
    const key = `${memory.id} ${String(memory.version)}`;
    let search = found.get(key);
    if (search === undefined) {
      const terms = recallTerms(memory.value);
      search = terms.length === 0 ? Promise.resolve([]) : repository.search({ terms, limit: SIMILAR });
      found.set(key, search);
    }
    return (await search).filter((other) => other.id !== memory.id && !other.deprecated && !gone.has(other.id));
  };
}

/** The memories examined as they stand after an action: a deprecated one leaves the run (and `gone` holds it), a revised one is read again. */
async function refresh(working: Map<string, LongTermMemory>, gone: Set<string>, repository: LongTermRepository, action: MaintenanceAction): Promise<void> {
  if (action.kind !== 'revise' && action.kind !== 'deprecate') return;
  for (const id of action.memoryIds) {
    const now = await repository.get({ id });
    if (now === null || now.deprecated) {
      working.delete(id);
      gone.add(id);
    } else if (working.has(id)) working.set(id, now);
  }
}

/** Run the maintenance agents once (see the module comment); the run's record is kept and returned. */
export async function runMaintenance(parts: MaintenanceParts, options: TendOptions, trigger: RunTrigger): Promise<MaintenanceRun> {
  const agents = checkAgents(options.agents);
  const limits = { memories: checkCount(options.limit, 'limit', RUN_MEMORIES, 1), changes: checkCount(options.maxChanges, 'maxChanges', RUN_CHANGES, 0) };
  const { repository } = parts;
  const startedAt = parts.now();
  const examined = await repository.due({ limit: limits.memories });
  const working = new Map(examined.map((memory) => [memory.id, memory]));
  const gone = new Set<string>();
  const context: AgentContext = { repository, similar: similarMemories(repository, gone), sessionFacts: parts.sessionFacts, now: startedAt, ...parts.settings };
  const run: MaintenanceRun = { id: parts.newId(), trigger, agents, startedAt, finishedAt: startedAt, examined: examined.length, limits, modelCalls: 0, actions: [], leftOut: 0, failures: [] };
  let changes = 0;
  // Memories an action was left out for are not marked tended: the next run comes back to them first.
  const waiting = new Set<string>();
  let reviewed = false;
  for (const name of agents) {
    try {
      const planned: PlannedAction[] = await parts.agents[name].plan([...working.values()], context);
      for (const { hold, ...wanted } of planned) {
        const cost = wanted.kind === 'flag' ? 0 : wanted.memoryIds.length;
        if (changes + cost > limits.changes) {
          run.leftOut += 1;
          for (const id of wanted.memoryIds) waiting.add(id);
          continue;
        }
        changes += cost;
        const action: MaintenanceAction = { agent: name, ...wanted, status: hold === true ? 'proposed' : 'applied' };
        const refused = hold === true ? null : await parts.atomically((inside) => applyAction(inside, action, startedAt));
        if (refused !== null) {
          action.status = 'failed';
          run.failures.push({ agent: name, message: refused });
        }
        run.actions.push(action);
        await refresh(working, gone, repository, action);
      }
      reviewed ||= name === 'reviewer';
    } catch (error) {
      run.failures.push({ agent: name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  await repository.mark({ ids: examined.map((memory) => memory.id).filter((id) => !waiting.has(id)), what: 'tended', at: startedAt });
  if (reviewed) await repository.mark({ ids: [...working.keys()], what: 'reviewed', at: startedAt });
  run.finishedAt = parts.now();
  await repository.saveRun({ run, keep: KEPT_RUNS });
  return run;
}
