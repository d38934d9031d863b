/**
 * Vega-Lite → SVG in Node: the spec is compiled to Vega and drawn by a headless view (`renderer: 'none'`),
 * which needs no DOM and no canvas. Text widths are estimated (no font is loaded; see `text-width.ts`),
 * and the view's loader refuses every URL, so drawing never reads a file or the network.
 */
import type * as Vega from 'vega';
import type * as VegaLite from 'vega-lite';
import { StrataError } from '../../core/errors.js';
import { CHART_CONFIG } from './chart-config.js';
import { itemTextWidth, type TextItem } from './text-width.js';

interface Libraries {
  vega: typeof Vega;
  vegaLite: typeof VegaLite;
}

let libraries: Promise<Libraries> | null = null;

/**
 * Vega and Vega-Lite, imported on the first chart (they take a few hundred milliseconds to load, which
 * every other CLI command would otherwise pay). Vega's text metrics are exported at run time but not in
 * its typings; replacing `width` is the hook Vega leaves for headless renderers (vl-convert uses it).
 */
function loadLibraries(): Promise<Libraries> {
  libraries ??= Promise.all([import('vega'), import('vega-lite')]).then(
    ([vega, vegaLite]) => {
      const metrics = (vega as unknown as { textMetrics?: { width: (item: TextItem, text: unknown) => number } }).textMetrics;
      if (metrics !== undefined) metrics.width = itemTextWidth;
      return { vega, vegaLite };
    },
    (error: unknown) => {
      libraries = null;
      throw chartLibrariesError(error);
    },
  );
  return libraries;
}

/** The chart packages, optional: only `--report` draws charts, so a plain install does not pull them. */
export const CHART_PACKAGES = 'vega@6.4.0 vega-lite@6.4.3';

/**
 * The error for a failed import of the chart packages: when they are not installed, one that says how
 * to install them; any other failure wrapped as it is.
 */
export function chartLibrariesError(error: unknown): StrataError {
  const missing = (error as { code?: unknown } | null)?.code === 'ERR_MODULE_NOT_FOUND';
  return missing
    ? new StrataError('INVALID_CONFIG', `Report charts need the optional packages vega and vega-lite, which are not installed. Install them next to strata-memory: npm install ${CHART_PACKAGES}`, { cause: error })
    : new StrataError('INVALID_CONFIG', `The chart packages vega and vega-lite failed to load: ${(error as Error).message}. Reinstall them: npm install ${CHART_PACKAGES}`, { cause: error });
}

function refuse(uri: string): Promise<never> {
  return Promise.reject(new Error(`report charts draw inline data only; "${uri}" was not loaded`));
}

/** A loader that loads nothing: charts carry their data inline. */
function offlineLoader(): Vega.Loader {
  return { load: refuse, sanitize: refuse, http: refuse, file: refuse };
}

function chartTitle(spec: VegaLite.TopLevelSpec): string {
  const title = spec.title;
  const text = title === undefined || typeof title === 'string' || Array.isArray(title) ? title : title.text;
  if (typeof text === 'string') return text;
  return Array.isArray(text) ? text.join(' ') : 'untitled';
}

/** Draw a Vega-Lite chart (data inlined) as a standalone SVG document, with the reports' shared look. */
export async function renderSvg(spec: VegaLite.TopLevelSpec): Promise<string> {
  const { vega, vegaLite } = await loadLibraries();
  let view: Vega.View | null = null;
  // Vega logs failures it recovers from (a transform that throws, for instance) and draws on; a report
  // chart with such a failure would be wrong, so they are collected and raised. Warnings are not printed.
  const failures: string[] = [];
  const logger = vega.logger(vega.Error, 'error', (_method, _level, args) => {
    failures.push(args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' '));
  });
  try {
    const compiled = vegaLite.compile(spec, { config: CHART_CONFIG, logger });
    view = new vega.View(vega.parse(compiled.spec), { renderer: 'none', loader: offlineLoader(), logger });
    vega.resetSVGDefIds();
    const svg = await view.toSVG();
    if (failures.length > 0) throw new Error(failures.join('; '));
    return svg;
  } catch (error) {
    throw new StrataError(
      'INVALID_INPUT',
      `Cannot draw the chart "${chartTitle(spec)}": ${(error as Error).message}. Its data comes from the run's results; run the evaluation again, and report the error if it persists.`,
      { cause: error },
    );
  } finally {
    view?.finalize();
  }
}
