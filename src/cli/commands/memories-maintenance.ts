/**
 * `strata memories tend | runs | run | approve | reject`: the maintenance agents run once on demand, the
 * runs kept with what each agent did and why, and a person settling what a run only proposed.
 */
import { Option, type Command } from 'commander';
import { AGENT_NAMES, type AgentName } from '../../core/maintenance-run.js';
import type { LongTermMemories, MaintenanceRun } from '../../memory/long-term-api.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { collect, integerOption } from '../parse.js';
import { runDetails, runTable } from './maintenance-format.js';

/** The keys of the memories a run names (any it names that no longer exists keeps its id). */
async function keysOf(api: LongTermMemories, runs: readonly MaintenanceRun[]): Promise<Map<string, string>> {
  const ids = new Set(runs.flatMap((run) => run.actions.flatMap((action) => [...action.memoryIds, ...(action.toId === undefined ? [] : [action.toId])])));
  const keys = new Map<string, string>();
  for (const id of ids) keys.set(id, await api.get(id).then((memory) => memory.key, () => id));
  return keys;
}

function run(command: Command, io: CliIo, work: (api: LongTermMemories, json: boolean) => Promise<void>): Promise<void> {
  const globals = globalOptions(command);
  return withMemory(globals, io, (memory) => work(memory.memories, globals.json));
}

async function printRun(io: CliIo, api: LongTermMemories, json: boolean, kept: MaintenanceRun): Promise<void> {
  if (json) writeJson(io.stdout, kept);
  else writeLine(io.stdout, runDetails(kept, await keysOf(api, [kept])));
}

export function registerMaintenance(memories: Command, io: CliIo): void {
  memories
    .command('tend')
    .description('run the maintenance agents once: archive, correct, condense, link, tag, review (each change recorded with its reason)')
    .addOption(new Option('--agent <name>', 'run only this agent (repeat for several)').choices(AGENT_NAMES).argParser(collect).default([]))
    .option('--limit <n>', 'memories examined at most, those tended least recently first (default 1,000)', integerOption(1))
    .option('--max-changes <n>', 'changes made or proposed at most (default 200)', integerOption(0))
    .action(async (flags: { agent: AgentName[]; limit?: number; maxChanges?: number }, command: Command) => {
      await run(command, io, async (api, json) => {
        const made = await api.tend({
          ...(flags.agent.length === 0 ? {} : { agents: flags.agent }),
          ...(flags.limit === undefined ? {} : { limit: flags.limit }),
          ...(flags.maxChanges === undefined ? {} : { maxChanges: flags.maxChanges }),
        });
        await printRun(io, api, json, made);
      });
    });

  memories
    .command('runs')
    .description('maintenance runs, the newest first')
    .option('--limit <n>', 'how many runs to list', integerOption(1), 20)
    .option('--offset <n>', 'skip this many first', integerOption(0), 0)
    .action(async (flags: { limit: number; offset: number }, command: Command) => {
      await run(command, io, async (api, json) => {
        const runs = await api.runs({ limit: flags.limit, offset: flags.offset });
        if (json) writeJson(io.stdout, runs);
        else writeLine(io.stdout, runs.length > 0 ? runTable(runs) : 'No maintenance runs yet. Run one with `strata memories tend`.');
      });
    });

  memories
    .command('run')
    .description('one maintenance run: every action with its agent, status and reason')
    .argument('<run-id>', 'the run, as `strata memories runs` lists it')
    .action(async (runId: string, _flags: unknown, command: Command) => {
      await run(command, io, async (api, json) => printRun(io, api, json, await api.run(runId)));
    });

  for (const [name, description] of [
    ['approve', 'apply an action a run proposed (a subtag held for approval)'],
    ['reject', 'turn down an action a run proposed: nothing changes but the run’s record'],
  ] as const) {
    memories
      .command(name)
      .description(description)
      .argument('<run-id>', 'the run, as `strata memories runs` lists it')
      .argument('<index>', 'the action, as `strata memories run` numbers it', integerOption(0))
      .action(async (runId: string, index: number, _flags: unknown, command: Command) => {
        await run(command, io, async (api, json) => printRun(io, api, json, await (name === 'approve' ? api.approve(runId, index) : api.reject(runId, index))));
      });
  }
}
