/**
 * The systems a LoCoMo table or chart compares, each read from one run under the name it is shown with.
 * One run gives strata and both baselines; runs with several managers give strata once per manager
 * ("strata (local)", "strata (recorded)") and the baselines once, from the first run (every run has the
 * same baselines, see `run-managers.ts`).
 */
import { BASELINES, SYSTEMS, type SystemName } from './evaluate.js';
import type { CategoryLabel, ResultRow, TokenUsage } from './metrics.js';
import type { LocomoRunResult } from './run-locomo.js';

export interface SystemSeries {
  /** Name in charts and their legends: "strata", "strata (recorded)", "bm25-greedy". */
  label: string;
  /** Name in table headers: "strata", "recorded", "bm25-greedy". */
  column: string;
  system: SystemName;
  /** The run its figures are read from. */
  run: LocomoRunResult;
}

/** strata, bm25-greedy and recency of one run. */
export function runSeries(run: LocomoRunResult): SystemSeries[] {
  return SYSTEMS.map((system) => ({ label: system, column: system, system, run }));
}

/** strata once per run, named by its manager, then the baselines of the first run. */
export function managerSeries(runs: readonly LocomoRunResult[]): SystemSeries[] {
  const [first] = runs;
  if (first === undefined) return [];
  return [
    ...runs.map((run): SystemSeries => ({ label: `strata (${run.manager})`, column: run.manager, system: 'strata', run })),
    ...BASELINES.map((system): SystemSeries => ({ label: system, column: system, system, run: first })),
  ];
}

/** The series' result row at a budget over a category, if the run has one. */
export function seriesRow(series: SystemSeries, budget: number, category: CategoryLabel): ResultRow | undefined {
  return series.run.results.find((row) => row.system === series.system && row.budget === budget && row.category === category);
}

/** The series' package tokens at a budget, if the run has them. */
export function seriesTokens(series: SystemSeries, budget: number): TokenUsage | undefined {
  return series.run.tokens.find((row) => row.system === series.system && row.budget === budget);
}
