/**
 * The look every report chart shares: one sans-serif font stack (no font is loaded, the browser picks
 * it), a white background, titles anchored left and readable label sizes.
 */
import type { Config } from 'vega-lite';

/** Vega-Lite configuration applied to every chart of a report. */
export const CHART_CONFIG: Config = {
  font: 'Helvetica, Arial, sans-serif',
  background: 'white',
  padding: 12,
  title: { fontSize: 15, fontWeight: 'bold', anchor: 'start', offset: 12, subtitleFontSize: 12, subtitleColor: '#555555' },
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', gridColor: '#e8e8e8', domainColor: '#888888', tickColor: '#888888' },
  legend: { labelFontSize: 12, titleFontSize: 12, titleFontWeight: 'bold', symbolSize: 120 },
  header: { labelFontSize: 12, labelFontWeight: 'bold', titleFontSize: 12 },
  view: { stroke: '#d5d5d5' },
};
