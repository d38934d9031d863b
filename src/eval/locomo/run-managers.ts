/**
 * LoCoMo runs side by side: one evaluation per memory manager over the same dataset, budgets and
 * tokenizer, so the engine's figures with memory it writes itself (`local`) and with the dataset's
 * LLM-written memory (`recorded`) can be read next to each other and next to the baselines.
 *
 * The baselines do not depend on the manager (they pack the same raw turns with the same tokenizer), so
 * every run computes the same ones; the runs are checked to agree on them before they are compared.
 */
import { StrataError } from '../../core/errors.js';
import { BASELINES, LOCOMO_MANAGERS, type LocomoManagerName } from './evaluate.js';
import { runLocomo, type LocomoProgress, type LocomoRunOptions, type LocomoRunResult } from './run-locomo.js';

export interface LocomoManagersOptions extends Omit<LocomoRunOptions, 'manager' | 'onProgress'> {
  /** Managers to replay with, in the order they are reported: at least one, none twice. */
  managers: readonly LocomoManagerName[];
  /** Progress of the run under way, named by its manager (each run counts from 0 again). */
  onProgress?: (progress: LocomoProgress & { manager: LocomoManagerName }) => void;
}

/** Runs of the same dataset with different managers, in the order asked for. */
export interface LocomoComparison {
  numbering: 'locomo-paper';
  tokenizer: LocomoRunResult['tokenizer'];
  budgets: number[];
  /** One complete run per manager (engine and baselines), as `runLocomo` returns it. */
  runs: LocomoRunResult[];
  /** Wall time of all runs. */
  elapsedMs: number;
}

function isManager(name: string): name is LocomoManagerName {
  return (LOCOMO_MANAGERS as readonly string[]).includes(name);
}

/** The managers of a list, in order; refuses an empty list, an unknown manager or one named twice, saying which. */
export function checkManagers(names: readonly string[]): LocomoManagerName[] {
  if (names.length === 0) throw new StrataError('INVALID_INPUT', `Give at least one manager: ${LOCOMO_MANAGERS.join(', ')}.`);
  const managers: LocomoManagerName[] = [];
  for (const name of names) {
    if (!isManager(name)) {
      throw new StrataError('INVALID_INPUT', `Unknown manager "${name}": use ${LOCOMO_MANAGERS.join(' or ')}, or both separated by a comma.`, { details: { manager: name } });
    }
    if (managers.includes(name)) throw new StrataError('INVALID_INPUT', `The manager "${name}" is named twice: name each manager once.`, { details: { manager: name } });
    managers.push(name);
  }
  return managers;
}

/** The part of a run that must not depend on the manager: every baseline figure. */
function baselineFigures(run: LocomoRunResult): string {
  const baseline = (entry: { system: string }): boolean => (BASELINES as readonly string[]).includes(entry.system);
  return JSON.stringify({
    results: run.results.filter(baseline),
    tokens: run.tokens.filter(baseline),
    compliance: run.compliance.filter(baseline),
  });
}

/** Replay the dataset once per manager; each run scores the engine and both baselines. */
export async function runLocomoManagers(options: LocomoManagersOptions): Promise<LocomoComparison> {
  const start = performance.now();
  const { onProgress, managers: names, ...settings } = options;
  const managers = checkManagers(names);
  const runs: LocomoRunResult[] = [];
  for (const manager of managers) {
    runs.push(
      await runLocomo({
        ...settings,
        manager,
        ...(onProgress === undefined ? {} : { onProgress: (progress: LocomoProgress) => onProgress({ ...progress, manager }) }),
      }),
    );
  }
  const [first, ...others] = runs;
  if (first === undefined) throw new Error('No LoCoMo run was made.');
  const expected = baselineFigures(first);
  for (const run of others) {
    if (baselineFigures(run) !== expected) {
      throw new Error(`The baselines differ between the ${first.manager} and the ${run.manager} run, though they do not depend on the manager; this is a bug in strata eval, please report it.`);
    }
  }
  return { numbering: first.numbering, tokenizer: first.tokenizer, budgets: [...first.budgets], runs, elapsedMs: performance.now() - start };
}
