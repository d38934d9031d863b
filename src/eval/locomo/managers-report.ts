/**
 * Runs with several managers, side by side: ER@B and answer containment of strata with each manager
 * next to the baselines, the tokens each used, and `report.md` holding those tables, their charts and
 * then every run's own sections (as a one-manager report has them).
 */
import { locomoCharts, managerCharts } from '../charts/locomo-charts.js';
import type { ReportContent } from '../charts/report-chart.js';
import type { CategoryLabel } from './metrics.js';
import {
  categoryHeading,
  percent,
  qaItemCount,
  reportPreamble,
  runSections,
  runTiming,
  tableSection,
  tokenTable,
  warningSections,
  type ReportContext,
  type Table,
} from './report.js';
import type { LocomoComparison } from './run-managers.js';
import { managerSeries, seriesRow } from './series.js';

/** ER@B and answer containment per budget for one category label: strata per manager, then the baselines. */
function managersRecallTable(comparison: LocomoComparison, category: CategoryLabel): Table {
  const series = managerSeries(comparison.runs);
  const rows = comparison.budgets.map((budget) => {
    const cells = series.map((entry) => seriesRow(entry, budget, category));
    return [String(budget), ...cells.map((cell) => percent(cell?.evidenceRecall ?? null)), ...cells.map((cell) => percent(cell?.answerContainment ?? null))];
  });
  const first = series[0] === undefined ? undefined : seriesRow(series[0], comparison.budgets[0] ?? 0, category);
  return {
    title: `${categoryHeading(category)}, managers side by side: ER@B % over ${first?.n ?? 0} items with evidence; answer containment % over ${first?.answerItems ?? 0} items whose answer is in the transcript`,
    columns: [
      { header: 'budget', align: 'right' },
      ...series.map((entry) => ({ header: `ER ${entry.column}`, align: 'right' as const })),
      ...series.map((entry) => ({ header: `AC ${entry.column}`, align: 'right' as const })),
    ],
    rows,
  };
}

/**
 * The tables every output of a comparison starts with: ER@B for categories 1–4 and for all, then the mean
 * and largest package tokens per budget (strata per manager, then the baselines).
 */
export function managersTables(comparison: LocomoComparison): [recallFirst: Table, recallAll: Table, tokens: Table] {
  return [managersRecallTable(comparison, '1-4'), managersRecallTable(comparison, 'all'), tokenTable(managerSeries(comparison.runs), comparison.budgets)];
}

/** `report.md` of runs with several managers and the SVG charts it shows (write both with `writeReportFolder`). */
export function managersReport(comparison: LocomoComparison, context: ReportContext): ReportContent {
  const { runs } = comparison;
  const shared = managerCharts(runs);
  const perRun = runs.map((run) => ({ run, charts: locomoCharts(run, run.manager) }));
  const items = runs[0] === undefined ? 0 : qaItemCount(runs[0]);
  const [recallFirst, recallAll, tokens] = managersTables(comparison);
  const sections = [
    ...reportPreamble(
      `LoCoMo evidence recall at a budget — ${context.file}`,
      `Managers ${runs.map((run) => `\`${run.manager}\``).join(' and ')} side by side, tokenizer \`${comparison.tokenizer}\`, budgets ${comparison.budgets.join(', ')}; ${runs[0]?.conversations.length ?? 0} conversations, ${items} QA items; ${(comparison.elapsedMs / 1000).toFixed(1)} s in all (${runs.map((run) => `${run.manager} ${runTiming(run)}`).join(', ')}). The baselines do not depend on the manager and are the same in every run.`,
      context,
    ),
    '## Managers side by side',
    tableSection(recallFirst, 3),
    tableSection(recallAll, 3, shared.overall),
    tableSection(tokens, 3, shared.tokens),
    ...perRun.flatMap(({ run, charts }) => [`## Manager \`${run.manager}\``, ...runSections(run, charts, 3)]),
    ...warningSections(context.warnings),
  ];
  return {
    markdown: `${sections.join('\n\n')}\n`,
    charts: [shared.overall, shared.tokens, ...perRun.flatMap(({ charts }) => [charts.overall, charts.byCategory, charts.tokens])],
  };
}
