/**
 * Charts of a LoCoMo report, built from the run's result rows: ER@B against budget for the engine and
 * both baselines, overall (categories 1–4 and all) and per category (1–5, one small panel each).
 */
import type { TopLevelSpec } from 'vega-lite';
import { SYSTEMS, type SystemName } from '../locomo/evaluate.js';
import { categoryName, type CategoryLabel } from '../locomo/metrics.js';
import type { LocomoRunResult } from '../locomo/run-locomo.js';
import { chartFile, type ReportChart } from './report-chart.js';

/** Line colours and point shapes of the systems (colour-blind safe, and told apart by shape too). */
const SYSTEM_STYLE: Readonly<Record<SystemName, { colour: string; shape: string }>> = {
  strata: { colour: '#1f5fbf', shape: 'circle' },
  'bm25-greedy': { colour: '#e07b00', shape: 'square' },
  recency: { colour: '#7f7f7f', shape: 'triangle-up' },
};

const OVERALL: readonly CategoryLabel[] = ['1-4', 'all'];
const SINGLE_CATEGORIES: readonly CategoryLabel[] = ['1', '2', '3', '4', '5'];

/** One point of an ER@B line: a system's mean recall at a budget, in a panel (null: nothing to draw). */
interface RecallPoint {
  panel: string;
  system: string;
  budget: number;
  recall: number | null;
}

/** The panel heading of a category: its name and how many items with evidence it averages. */
function panelTitle(result: LocomoRunResult, category: CategoryLabel): string {
  const n = result.results.find((row) => row.system === 'strata' && row.category === category)?.n ?? 0;
  const name = category === '1-4' || category === 'all' ? categoryName(category) : `${category} ${categoryName(category)}`;
  return n === 0 ? `${name} (no items with evidence)` : `${name} (n = ${n.toLocaleString('en-US')})`;
}

/**
 * Every (system, budget) mean ER of these categories. Rows without items with evidence are left out; a
 * category left with none gets one null point, which draws nothing but keeps its (empty) panel.
 */
function recallPoints(result: LocomoRunResult, categories: readonly CategoryLabel[]): RecallPoint[] {
  const points: RecallPoint[] = [];
  for (const category of categories) {
    const panel = panelTitle(result, category);
    const before = points.length;
    for (const system of SYSTEMS) {
      for (const budget of result.budgets) {
        const row = result.results.find((entry) => entry.system === system && entry.budget === budget && entry.category === category);
        if (row?.evidenceRecall == null) continue;
        points.push({ panel, system, budget, recall: row.evidenceRecall });
      }
    }
    const first = result.budgets[0];
    if (points.length === before && first !== undefined) points.push({ panel, system: SYSTEMS[0], budget: first, recall: null });
  }
  return points;
}

/** ER@B lines of the three systems, one panel per category, panels in the given order. */
function recallSpec(result: LocomoRunResult, categories: readonly CategoryLabel[], layout: { title: string; columns: number; width: number; height: number }): TopLevelSpec {
  const budgets = [...result.budgets].sort((left, right) => left - right);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: layout.title,
      subtitle: [
        "ER@B: share of a QA item's evidence messages the package credits, averaged over items.",
        `Manager ${result.manager}, tokenizer ${result.tokenizer}; n = items with evidence.`,
      ],
    },
    data: { values: recallPoints(result, categories) },
    facet: { field: 'panel', type: 'nominal', title: null, sort: categories.map((category) => panelTitle(result, category)) },
    columns: layout.columns,
    spec: {
      width: layout.width,
      height: layout.height,
      mark: { type: 'line', strokeWidth: 2.5, point: { filled: true, size: 70 }, invalid: 'filter' },
      encoding: {
        x: { field: 'budget', type: 'ordinal', sort: budgets, title: 'budget (tokens)', axis: { labelAngle: 0, format: ',d', formatType: 'number' } },
        y: { field: 'recall', type: 'quantitative', title: 'ER@B', scale: { domain: [0, 1] }, axis: { format: '.0%', tickCount: 5 } },
        color: {
          field: 'system',
          type: 'nominal',
          title: 'system',
          scale: { domain: [...SYSTEMS], range: SYSTEMS.map((system) => SYSTEM_STYLE[system].colour) },
        },
        shape: {
          field: 'system',
          type: 'nominal',
          title: 'system',
          scale: { domain: [...SYSTEMS], range: SYSTEMS.map((system) => SYSTEM_STYLE[system].shape) },
        },
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
}

/** The charts of a LoCoMo report: ER@B against budget overall and per category. */
export function locomoCharts(result: LocomoRunResult): LocomoCharts {
  return {
    overall: {
      file: chartFile('er-at-budget'),
      description: 'ER@B against budget for strata, bm25-greedy and recency: categories 1–4 and all categories',
      spec: recallSpec(result, OVERALL, { title: 'Evidence recall at budget: strata against the baselines', columns: 2, width: 320, height: 240 }),
    },
    byCategory: {
      file: chartFile('er-at-budget-by-category'),
      description: 'ER@B against budget for strata, bm25-greedy and recency, one panel per LoCoMo category',
      spec: recallSpec(result, SINGLE_CATEGORIES, { title: 'Evidence recall at budget per category', columns: 3, width: 230, height: 170 }),
    },
  };
}
