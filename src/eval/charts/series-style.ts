/**
 * How the systems of a LoCoMo chart are told apart: a colour (colour-blind safe) and a point shape each.
 * The baselines always look the same; the strata series take the strata styles in order, so the only or
 * first strata line is blue circles and a second one (another manager) green diamonds.
 */
import type { SystemSeries } from '../locomo/series.js';

interface Style {
  colour: string;
  shape: string;
}

const STRATA_STYLES: readonly Style[] = [
  { colour: '#1f5fbf', shape: 'circle' },
  { colour: '#009e73', shape: 'diamond' },
  { colour: '#cc79a7', shape: 'cross' },
];

const BASELINE_STYLES: Readonly<Record<string, Style>> = {
  'bm25-greedy': { colour: '#e07b00', shape: 'square' },
  recency: { colour: '#7f7f7f', shape: 'triangle-up' },
};

const FALLBACK: Style = { colour: '#222222', shape: 'circle' };

/** The style of each series, in order. */
function seriesStyles(series: readonly SystemSeries[]): Style[] {
  let strata = 0;
  return series.map((entry) => {
    if (entry.system !== 'strata') return BASELINE_STYLES[entry.system] ?? FALLBACK;
    const style = STRATA_STYLES[strata % STRATA_STYLES.length] ?? FALLBACK;
    strata += 1;
    return style;
  });
}

/** Vega-Lite colour and shape scales mapping each series' label to its style, legend in series order. */
export function seriesScales(series: readonly SystemSeries[]): { colour: { domain: string[]; range: string[] }; shape: { domain: string[]; range: string[] } } {
  const styles = seriesStyles(series);
  const domain = series.map((entry) => entry.label);
  return {
    colour: { domain, range: styles.map((style) => style.colour) },
    shape: { domain: [...domain], range: styles.map((style) => style.shape) },
  };
}
