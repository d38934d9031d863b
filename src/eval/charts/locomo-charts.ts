/**
 * Charts of a LoCoMo report, built from the run's result rows: ER@B against budget for the engine and
 * both baselines, overall (categories 1–4 and all) and per category (1–5, one small panel each), and the
 * tokens the packages used against each budget. Runs with several managers get one overall chart with a
 * strata line per manager.
 */
import type { TopLevelSpec } from 'vega-lite';
import { categoryName, type CategoryLabel } from '../locomo/metrics.js';
import type { LocomoRunResult } from '../locomo/run-locomo.js';
import { managerSeries, runSeries, seriesRow, type SystemSeries } from '../locomo/series.js';
import { locomoTokensSpec } from './locomo-tokens-chart.js';
import { chartFile, type ReportChart } from './report-chart.js';
import { seriesScales } from './series-style.js';

const OVERALL: readonly CategoryLabel[] = ['1-4', 'all'];
const SINGLE_CATEGORIES: readonly CategoryLabel[] = ['1', '2', '3', '4', '5'];

/** One point of an ER@B line: a series' mean recall at a budget, in a panel (null: nothing to draw). */
interface RecallPoint {
  panel: string;
  system: string;
  budget: number;
  recall: number | null;
}

/** The panel heading of a category: its name and how many items with evidence it averages. */
function panelTitle(run: LocomoRunResult, category: CategoryLabel): string {
  const n = run.results.find((row) => row.system === 'strata' && row.category === category)?.n ?? 0;
  const name = category === '1-4' || category === 'all' ? categoryName(category) : `${category} ${categoryName(category)}`;
  return n === 0 ? `${name} (no items with evidence)` : `${name} (n = ${n.toLocaleString('en-US')})`;
}

/**
 * Every (series, budget) mean ER of these categories. Rows without items with evidence are left out; a
 * category left with none gets one null point, which draws nothing but keeps its (empty) panel.
 */
function recallPoints(series: readonly SystemSeries[], run: LocomoRunResult, categories: readonly CategoryLabel[]): RecallPoint[] {
  const points: RecallPoint[] = [];
  for (const category of categories) {
    const panel = panelTitle(run, category);
    const before = points.length;
    for (const entry of series) {
      for (const budget of run.budgets) {
        const row = seriesRow(entry, budget, category);
        if (row?.evidenceRecall == null) continue;
        points.push({ panel, system: entry.label, budget, recall: row.evidenceRecall });
      }
    }
    const first = run.budgets[0];
    if (points.length === before && first !== undefined) points.push({ panel, system: series[0]?.label ?? 'strata', budget: first, recall: null });
  }
  return points;
}

interface RecallLayout {
  title: string;
  /** Who wrote the memory, for the subtitle: "Manager local" or "Managers local and recorded". */
  managers: string;
  columns: number;
  width: number;
  height: number;
}

/** ER@B lines of the series, one panel per category, panels in the given order. */
function recallSpec(series: readonly SystemSeries[], categories: readonly CategoryLabel[], layout: RecallLayout): TopLevelSpec {
  const run = series[0]?.run;
  if (run === undefined) throw new Error('An ER@B chart needs at least one system to draw.');
  const budgets = [...run.budgets].sort((left, right) => left - right);
  const scales = seriesScales(series);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: layout.title,
      subtitle: ["ER@B: share of a QA item's evidence messages the package credits, averaged over items.", `${layout.managers}, tokenizer ${run.tokenizer}; n = items with evidence.`],
    },
    data: { values: recallPoints(series, run, categories) },
    facet: { field: 'panel', type: 'nominal', title: null, sort: categories.map((category) => panelTitle(run, category)) },
    columns: layout.columns,
    spec: {
      width: layout.width,
      height: layout.height,
      mark: { type: 'line', strokeWidth: 2.5, point: { filled: true, size: 70 }, invalid: 'filter' },
      encoding: {
        x: { field: 'budget', type: 'ordinal', sort: budgets, title: 'budget (tokens)', axis: { labelAngle: 0, format: ',d', formatType: 'number' } },
        y: { field: 'recall', type: 'quantitative', title: 'ER@B', scale: { domain: [0, 1] }, axis: { format: '.0%', tickCount: 5 } },
        color: { field: 'system', type: 'nominal', title: 'system', scale: scales.colour },
        shape: { field: 'system', type: 'nominal', title: 'system', scale: scales.shape },
      },
    },
  };
}

/** The charts of a LoCoMo report, by where the report shows them. */
export interface LocomoCharts {
  /** ER@B against budget for categories 1–4 and for all categories. */
  overall: ReportChart;
  /** ER@B against budget, one panel per category 1–5. */
  byCategory: ReportChart;
  /** Mean and largest package tokens of each system against each budget. */
  tokens: ReportChart;
}

/** `name`, or `name-<suffix>` to tell the charts of several runs in one report apart. */
function suffixed(name: string, suffix: string | undefined): string {
  return chartFile(suffix === undefined ? name : `${name}-${suffix}`);
}

/**
 * The charts of a LoCoMo report: ER@B against budget overall and per category, and tokens against
 * budget. `suffix` (default none) ends every file name, e.g. `er-at-budget-recorded.svg`.
 */
export function locomoCharts(result: LocomoRunResult, suffix?: string): LocomoCharts {
  const series = runSeries(result);
  const managers = `Manager ${result.manager}`;
  return {
    overall: {
      file: suffixed('er-at-budget', suffix),
      description: `ER@B against budget for strata (manager ${result.manager}), bm25-greedy and recency: categories 1–4 and all categories`,
      spec: recallSpec(series, OVERALL, { title: 'Evidence recall at budget: strata against the baselines', managers, columns: 2, width: 320, height: 240 }),
    },
    byCategory: {
      file: suffixed('er-at-budget-by-category', suffix),
      description: `ER@B against budget for strata (manager ${result.manager}), bm25-greedy and recency, one panel per LoCoMo category`,
      spec: recallSpec(series, SINGLE_CATEGORIES, { title: 'Evidence recall at budget per category', managers, columns: 3, width: 230, height: 170 }),
    },
    tokens: {
      file: suffixed('tokens-against-budget', suffix),
      description: `Mean and largest rendered tokens of the packages of strata (manager ${result.manager}), bm25-greedy and recency against each budget`,
      spec: locomoTokensSpec(series, managers),
    },
  };
}

/** The charts comparing runs with several managers. */
interface ManagerCharts {
  /** ER@B against budget with a strata line per manager and the baselines: categories 1–4 and all. */
  overall: ReportChart;
  /** Tokens against budget with strata per manager and the baselines. */
  tokens: ReportChart;
}

function managerList(runs: readonly LocomoRunResult[]): string {
  const names = runs.map((run) => run.manager);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** The charts putting runs with different managers side by side (`er-at-budget-managers.svg`, `tokens-against-budget-managers.svg`). */
export function managerCharts(runs: readonly LocomoRunResult[]): ManagerCharts {
  const series = managerSeries(runs);
  const managers = `Managers ${managerList(runs)}`;
  const strata = series.filter((entry) => entry.system === 'strata').map((entry) => entry.label);
  return {
    overall: {
      file: chartFile('er-at-budget-managers'),
      description: `ER@B against budget for ${strata.join(', ')}, bm25-greedy and recency: categories 1–4 and all categories`,
      spec: recallSpec(series, OVERALL, { title: 'Evidence recall at budget: each manager against the baselines', managers, columns: 2, width: 320, height: 240 }),
    },
    tokens: {
      file: chartFile('tokens-against-budget-managers'),
      description: `Mean and largest rendered tokens of the packages of ${strata.join(', ')}, bm25-greedy and recency against each budget`,
      spec: locomoTokensSpec(series, managers),
    },
  };
}
