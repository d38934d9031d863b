/**
 * Tokens used against budget in a LoCoMo report: one small panel per budget, in which each system's
 * bar is the mean rendered tokens of its packages, a black tick the largest package, and a dashed line
 * the budget. Each panel has its own token axis, so every budget reads as a fill, however small.
 */
import type { TopLevelSpec } from 'vega-lite';
import { seriesTokens, type SystemSeries } from '../locomo/series.js';
import { seriesScales } from './series-style.js';

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** One system at one budget. */
interface TokenPoint {
  panel: string;
  system: string;
  mean: number;
  max: number;
  budget: number;
  /** What a screen reader says for the bar. */
  summary: string;
}

function panelTitle(budget: number): string {
  return `budget ${COUNT.format(budget)}`;
}

function tokenPoints(series: readonly SystemSeries[], budgets: readonly number[]): TokenPoint[] {
  const points: TokenPoint[] = [];
  for (const budget of budgets) {
    for (const entry of series) {
      const usage = seriesTokens(entry, budget);
      if (usage === undefined) continue;
      const summary = `${entry.label} at budget ${COUNT.format(budget)}: mean ${COUNT.format(usage.mean)} tokens (${(usage.meanFill * 100).toFixed(1)} % fill), largest ${COUNT.format(usage.max)}, over ${COUNT.format(usage.packages)} packages`;
      points.push({ panel: panelTitle(budget), system: entry.label, mean: usage.mean, max: usage.max, budget, summary });
    }
  }
  return points;
}

/** The Vega-Lite spec of the chart; `managers` says who wrote the memory ("Manager local"). */
export function locomoTokensSpec(series: readonly SystemSeries[], managers: string): TopLevelSpec {
  const run = series[0]?.run;
  const budgets = [...(run?.budgets ?? [])].sort((left, right) => left - right);
  const labels = series.map((entry) => entry.label);
  const scales = seriesScales(series);
  const y = (field: string): { field: string; type: 'quantitative'; title: string; axis: { format: string } } => ({ field, type: 'quantitative', title: 'tokens', axis: { format: ',d' } });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Tokens used against budget',
      subtitle: [
        'Bar: mean rendered tokens of a package, chat overhead included.',
        'Black tick: the largest package. Dashed line: the budget.',
        `${managers}, tokenizer ${run?.tokenizer ?? 'unknown'}; one package per QA item and budget.`,
      ],
    },
    data: { values: tokenPoints(series, budgets) },
    facet: { field: 'panel', type: 'nominal', title: null, sort: budgets.map(panelTitle) },
    columns: Math.min(4, Math.max(1, budgets.length)),
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: { step: 34 },
      height: 200,
      layer: [
        {
          mark: { type: 'bar', size: 24 },
          encoding: {
            x: { field: 'system', type: 'nominal', title: null, sort: labels, axis: null },
            y: y('mean'),
            color: { field: 'system', type: 'nominal', title: 'system', scale: scales.colour, sort: labels },
            description: { field: 'summary' },
          },
        },
        {
          mark: { type: 'tick', color: '#222222', thickness: 2, size: 24 },
          encoding: { x: { field: 'system', type: 'nominal', title: null, sort: labels, axis: null }, y: y('max') },
        },
        {
          mark: { type: 'rule', color: '#222222', strokeWidth: 1.5, strokeDash: [5, 3] },
          encoding: { y: { ...y('budget'), aggregate: 'max' } },
        },
      ],
    },
  };
}
