/**
 * Tables of a LoCoMo run, as plain data (header + rows of strings) so the CLI can print them as text
 * and the report can write them as Markdown.
 */
import { CATEGORY_NAMES } from './dataset.js';
import { CATEGORY_LABELS, categoryName, type CategoryLabel, type ResultRow } from './metrics.js';
import type { LocomoRunResult } from './run-locomo.js';
import type { CorrectionReport } from './corrections.js';
import { locomoCharts, type LocomoCharts } from '../charts/locomo-charts.js';
import { markdownImage, type ReportChart, type ReportContent } from '../charts/report-chart.js';
import { runSeries, seriesRow, seriesTokens, type SystemSeries } from './series.js';

export interface Table {
  title: string;
  columns: Array<{ header: string; align?: 'left' | 'right' }>;
  rows: string[][];
}

/** 0.8712 → "87.1"; null → "–". */
export function percent(value: number | null): string {
  return value === null ? '–' : (value * 100).toFixed(1);
}

/** The run's result row of each system (strata, then the baselines) at a budget over a category. */
function systemRows(result: LocomoRunResult, budget: number, category: CategoryLabel): Array<ResultRow | undefined> {
  return runSeries(result).map((series) => seriesRow(series, budget, category));
}

/** QA items of the run, over every conversation. */
export function qaItemCount(run: LocomoRunResult): number {
  return run.conversations.reduce((sum, entry) => sum + entry.qaItems, 0);
}

/** How long the run took and on how many threads: "12.3 s on 4 thread(s)". */
export function runTiming(run: LocomoRunResult): string {
  return `${(run.elapsedMs / 1000).toFixed(1)} s on ${run.threads} thread(s)`;
}

/** The categories line every output starts with, naming the numbering. */
export function numberingNote(): string {
  return `Categories in LoCoMo-paper numbering: ${Object.entries(CATEGORY_NAMES)
    .map(([number, name]) => `${number} ${name}`)
    .join(', ')}. Headline: 1–4; 5 reported separately.`;
}

/** "Categories 1–4", "All categories" or "Category 5 (adversarial)": a category label as a heading. */
export function categoryHeading(category: CategoryLabel): string {
  const name = categoryName(category);
  return category === '1-4' || category === 'all' ? `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}` : `Category ${category} (${name})`;
}

/** ER@B and answer containment of the three systems per budget, for one category label. */
export function recallTable(result: LocomoRunResult, category: CategoryLabel): Table {
  const rows = result.budgets.map((budget) => {
    const cells = systemRows(result, budget, category);
    const [strata, bm25] = cells;
    const lead = strata?.evidenceRecall == null || bm25?.evidenceRecall == null ? null : strata.evidenceRecall - bm25.evidenceRecall;
    return [
      String(budget),
      ...cells.map((cell) => percent(cell?.evidenceRecall ?? null)),
      lead === null ? '–' : `${lead >= 0 ? '+' : ''}${(lead * 100).toFixed(1)}`,
      percent(strata?.sessionLevelRecall ?? null),
      ...cells.map((cell) => percent(cell?.answerContainment ?? null)),
    ];
  });
  const [first] = systemRows(result, result.budgets[0] ?? 0, category);
  return {
    title: `${categoryHeading(category)}: ER@B % over ${first?.n ?? 0} items with evidence; answer containment % over ${first?.answerItems ?? 0} items whose answer is in the transcript`,
    columns: [
      { header: 'budget', align: 'right' },
      { header: 'ER strata', align: 'right' },
      { header: 'ER bm25-greedy', align: 'right' },
      { header: 'ER recency', align: 'right' },
      { header: 'strata − bm25', align: 'right' },
      { header: 'session-level', align: 'right' },
      { header: 'AC strata', align: 'right' },
      { header: 'AC bm25-greedy', align: 'right' },
      { header: 'AC recency', align: 'right' },
    ],
    rows,
  };
}

/** ER@B of the three systems per single category and budget. */
export function categoryTable(result: LocomoRunResult): Table {
  const rows: string[][] = [];
  for (const category of CATEGORY_LABELS.filter((label) => label !== '1-4' && label !== 'all')) {
    for (const budget of result.budgets) {
      const cells = systemRows(result, budget, category);
      rows.push([
        `${category} ${categoryName(category)}`,
        String(cells[0]?.n ?? 0),
        String(budget),
        ...cells.map((cell) => percent(cell?.evidenceRecall ?? null)),
        ...cells.map((cell) => percent(cell?.answerContainment ?? null)),
      ]);
    }
  }
  return {
    title: 'Per category (ER@B % and answer containment %)',
    columns: [
      { header: 'category' },
      { header: 'n', align: 'right' },
      { header: 'budget', align: 'right' },
      { header: 'ER strata', align: 'right' },
      { header: 'ER bm25', align: 'right' },
      { header: 'ER recency', align: 'right' },
      { header: 'AC strata', align: 'right' },
      { header: 'AC bm25', align: 'right' },
      { header: 'AC recency', align: 'right' },
    ],
    rows,
  };
}

export function complianceTable(result: LocomoRunResult): Table {
  return {
    title: 'Budget compliance (rendered tokens ≤ budget, chat overhead included)',
    columns: [{ header: 'system' }, { header: 'packages', align: 'right' }, { header: 'within budget %', align: 'right' }, { header: 'mean fill %', align: 'right' }],
    rows: result.compliance.map((entry) => [entry.system, String(entry.packages), percent(entry.compliance), percent(entry.meanFill)]),
  };
}

/** Mean and largest rendered tokens of each series' packages per budget, and the mean fill. */
export function tokenTable(series: readonly SystemSeries[], budgets: readonly number[]): Table {
  const rows: string[][] = [];
  for (const entry of series) {
    for (const budget of budgets) {
      const usage = seriesTokens(entry, budget);
      if (usage === undefined) continue;
      rows.push([entry.label, String(budget), String(usage.packages), usage.mean.toFixed(1), String(usage.max), percent(usage.meanFill)]);
    }
  }
  return {
    title: 'Tokens used against budget (rendered tokens of the packages, chat overhead included)',
    columns: [
      { header: 'system' },
      { header: 'budget', align: 'right' },
      { header: 'packages', align: 'right' },
      { header: 'mean tokens', align: 'right' },
      { header: 'max tokens', align: 'right' },
      { header: 'mean fill %', align: 'right' },
    ],
    rows,
  };
}

export function conversationTable(result: LocomoRunResult): Table {
  return {
    title: 'Conversations',
    columns: [
      { header: 'sample' },
      { header: 'messages', align: 'right' },
      { header: 'turns', align: 'right' },
      { header: 'QA', align: 'right' },
      { header: 'facts', align: 'right' },
      { header: 'replay s', align: 'right' },
      { header: 'assemble s', align: 'right' },
    ],
    rows: result.conversations.map((entry) => [
      entry.sampleId,
      String(entry.messages),
      String(entry.turns),
      String(entry.qaItems),
      String(entry.facts),
      (entry.replayMs / 1000).toFixed(1),
      (entry.assembleMs / 1000).toFixed(1),
    ]),
  };
}

function counts(record: Readonly<Record<string, number>>): string {
  const entries = Object.entries(record).filter(([, value]) => value > 0);
  return entries.length === 0 ? 'none' : entries.map(([reason, value]) => `${value} ${reason}`).join(', ');
}

/** What the engine did with the recorded manager's proposals, in sentences. */
export function recordedLines(result: LocomoRunResult): string[] {
  const stats = result.recorded;
  if (stats === null) return [];
  return [
    `Recorded memory: ${stats.proposed.observations} observation facts proposed, ${stats.added.observations} added; rejected: ${counts(stats.rejected.observations)}.`,
    `  Of the ungrounded ones, ${stats.ungroundedOnlyForSpeakerNames} lack only the speaker's name, which the engine does not count as part of the exchange.`,
    `  Session summaries: ${stats.proposed.sessionSummaries} facts proposed, ${stats.added.sessionSummaries} added; rejected: ${counts(stats.rejected.sessionSummaries)}. ${stats.sessionSummariesGroundedInSession} of them are grounded in the session they cite (with the speakers' names and the session time).`,
    `  Merged into an existing fact: ${stats.merged}; observations without usable evidence (not played back): ${stats.skippedObservations}.`,
  ];
}

export function correctionLines(report: CorrectionReport | null, file: string | null): string[] {
  if (report === null) return ['Evidence: as published (no corrections).'];
  const lines = [
    `Evidence corrections from ${file ?? 'the audit file'}: ${report.applied} of ${report.wrongCitations} WRONG_CITATION entries applied (${report.matchedById} matched by question id, ${report.matchedByText} by question text); ${report.entries - report.wrongCitations} entries of other error types not applied (${report.otherTypesWithChangedEvidence} of them change the evidence).`,
  ];
  for (const line of report.unmatched) lines.push(`  unmatched: ${line}`);
  return lines;
}

/** A table as Markdown. */
export function markdownTable(table: Table): string {
  const escape = (cell: string): string => cell.replace(/\|/gu, '\\|');
  return [
    `| ${table.columns.map((column) => escape(column.header)).join(' | ')} |`,
    `| ${table.columns.map((column) => (column.align === 'right' ? '---:' : '---')).join(' | ')} |`,
    ...table.rows.map((cells) => `| ${cells.map(escape).join(' | ')} |`),
  ].join('\n');
}

/** What the report says about where the run came from. */
export interface ReportContext {
  file: string;
  corrections: CorrectionReport | null;
  correctionsFile: string | null;
  warnings: readonly string[];
}

/** The first lines of a report: what was run, the numbering, the credit rule and the evidence used. */
export function reportPreamble(title: string, runLine: string, context: ReportContext): string[] {
  return [
    `# ${title}`,
    runLine,
    numberingNote(),
    'ER@B = |E ∩ P| / |E| per QA item, averaged. Credit rule: message items (any tier), turn summaries and single-source facts credit their messages; multi-source facts and session summaries credit nothing and are shown as session-level recall. AC = answer containment.',
    correctionLines(context.corrections, context.correctionsFile).join('\n'),
  ];
}

/** A Markdown section: a heading at `level` (2: `##`), the table, and the chart drawing it, if any. */
export function tableSection(table: Table, level: number, chart: ReportChart | null = null): string {
  const section = `${'#'.repeat(level)} ${table.title}\n\n${markdownTable(table)}`;
  return chart === null ? section : `${section}\n\n${markdownImage(chart)}`;
}

/** A table of a run and the chart of the run's report that draws it, if one does. */
export interface RunTable {
  table: Table;
  chart: keyof LocomoCharts | null;
}

/** The tables of one run in the order every output shows them: recall by category label, per category, compliance, tokens, conversations. */
export function runTables(result: LocomoRunResult): RunTable[] {
  return [
    { table: recallTable(result, '1-4'), chart: null },
    { table: recallTable(result, 'all'), chart: 'overall' },
    { table: recallTable(result, '5'), chart: null },
    { table: categoryTable(result), chart: 'byCategory' },
    { table: complianceTable(result), chart: null },
    { table: tokenTable(runSeries(result), result.budgets), chart: 'tokens' },
    { table: conversationTable(result), chart: null },
  ];
}

/** The tables of one run, each followed by the chart drawing it, and its recorded-memory notes; headings at `level`. */
export function runSections(result: LocomoRunResult, charts: LocomoCharts, level: number): string[] {
  const sections = runTables(result).map(({ table, chart }) => tableSection(table, level, chart === null ? null : charts[chart]));
  const recorded = recordedLines(result);
  if (recorded.length > 0) sections.push(`${'#'.repeat(level)} Recorded memory\n\n${recorded.map((line) => line.trim()).join('\n\n')}`);
  return sections;
}

/** The data-quirks section, when there are any. */
export function warningSections(warnings: readonly string[]): string[] {
  return warnings.length === 0 ? [] : [`## Data quirks repaired\n\n${warnings.map((line) => `- ${line}`).join('\n')}`];
}

/** The whole run as a Markdown report, showing each chart after the table it draws. */
export function markdownReport(result: LocomoRunResult, context: ReportContext, charts: LocomoCharts = locomoCharts(result)): string {
  const sections = [
    ...reportPreamble(
      `LoCoMo evidence recall at a budget — ${context.file}`,
      `Manager \`${result.manager}\`, tokenizer \`${result.tokenizer}\`, budgets ${result.budgets.join(', ')}; ${result.conversations.length} conversations, ${qaItemCount(result)} QA items; ${runTiming(result)}.`,
      context,
    ),
    ...runSections(result, charts, 2),
    ...warningSections(context.warnings),
  ];
  return `${sections.join('\n\n')}\n`;
}

/** `report.md` of a run and the SVG charts it shows (write both with `writeReportFolder`). */
export function locomoReport(result: LocomoRunResult, context: ReportContext): ReportContent {
  const charts = locomoCharts(result);
  return { markdown: markdownReport(result, context, charts), charts: [charts.overall, charts.byCategory, charts.tokens] };
}
