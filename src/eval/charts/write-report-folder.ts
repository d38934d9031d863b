/**
 * Writing a report folder: `report.md` and, next to it, one SVG file per chart it shows.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderSvg } from './render-svg.js';
import type { ReportContent } from './report-chart.js';

/**
 * Create `folder` and its missing parents, one level at a time. Node's `recursive` mkdir spins forever
 * where the system answers "not found" for a new child of a folder that exists (under /proc, for one);
 * made level by level, such a folder fails with the system's error instead.
 */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  for (let current = resolve(folder); !existsSync(current); current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      // Made meanwhile by someone else: fine, as long as it is a folder.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path).isDirectory()) throw error;
    }
  }
}

/**
 * Draw every chart, then write `<folder>/report.md` and each chart's SVG at its path relative to it
 * (folders created as needed). Nothing is written when a chart cannot be drawn. Returns the paths written,
 * `report.md` first.
 */
export async function writeReportFolder(folder: string, report: ReportContent): Promise<string[]> {
  const drawn = await Promise.all(report.charts.map(async (chart) => ({ path: join(folder, ...chart.file.split('/')), svg: await renderSvg(chart.spec) })));
  const markdownPath = join(folder, 'report.md');
  makeFolders(folder);
  for (const chart of drawn) {
    makeFolders(dirname(chart.path));
    writeFileSync(chart.path, chart.svg, 'utf8');
  }
  writeFileSync(markdownPath, report.markdown, 'utf8');
  return [markdownPath, ...drawn.map((chart) => chart.path)];
}
