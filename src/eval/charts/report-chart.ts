/**
 * A chart of a report: the SVG file it is drawn into, next to `report.md`, and what it shows.
 */
import type { TopLevelSpec } from 'vega-lite';

/** Sub-folder of the report folder that holds the SVG files. */
export const CHARTS_FOLDER = 'charts';

/** One chart of a report. */
export interface ReportChart {
  /** Path of the SVG file relative to `report.md`, with forward slashes (`charts/er-at-budget.svg`). */
  file: string;
  /** What the chart shows, in one sentence: the image's alternative text. */
  description: string;
  /** The Vega-Lite specification, data inlined. */
  spec: TopLevelSpec;
}

/** `charts/<name>.svg` for a kebab-case chart name. */
export function chartFile(name: string): string {
  return `${CHARTS_FOLDER}/${name}.svg`;
}

/** The Markdown image that shows the chart from `report.md`: `![description](charts/….svg)`. */
export function markdownImage(chart: ReportChart): string {
  const alt = chart.description.replace(/[[\]\\]/gu, '').replace(/\s+/gu, ' ').trim();
  return `![${alt}](${chart.file})`;
}

/** A report's Markdown text and the charts it shows. */
export interface ReportContent {
  markdown: string;
  charts: readonly ReportChart[];
}
