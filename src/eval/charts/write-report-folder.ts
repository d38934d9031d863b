/**
 * Writing a report folder: `report.md` and, next to it, one SVG file per chart it shows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderSvg } from './render-svg.js';
import type { ReportContent } from './report-chart.js';

/**
 * Draw every chart, then write `<folder>/report.md` and each chart's SVG at its path relative to it
 * (folders created as needed). Nothing is written when a chart cannot be drawn. Returns the paths written,
 * `report.md` first.
 */
export async function writeReportFolder(folder: string, report: ReportContent): Promise<string[]> {
  const drawn = await Promise.all(report.charts.map(async (chart) => ({ path: join(folder, ...chart.file.split('/')), svg: await renderSvg(chart.spec) })));
  const markdownPath = join(folder, 'report.md');
  mkdirSync(folder, { recursive: true });
  for (const chart of drawn) {
    mkdirSync(dirname(chart.path), { recursive: true });
    writeFileSync(chart.path, chart.svg, 'utf8');
  }
  writeFileSync(markdownPath, report.markdown, 'utf8');
  return [markdownPath, ...drawn.map((chart) => chart.path)];
}
