/**
 * Charts of a retention report, built from the run: how the key facts of each tier fared (preserved,
 * partial, missing), and each conversation's context tokens against its budget and its transcript.
 */
import type { TopLevelSpec } from 'vega-lite';
import { TIER_WEIGHTS, type FactStatus } from '../retention.js';
import type { RetentionRun } from '../run-retention.js';
import { chartFile, type ReportChart } from './report-chart.js';

const STATUSES: readonly FactStatus[] = ['preserved', 'partial', 'missing'];
const STATUS_COLOURS: Readonly<Record<FactStatus, string>> = { preserved: '#2e8540', partial: '#e0a100', missing: '#c0392b' };

const COUNT = new Intl.NumberFormat('en-US');

/** One bar segment: the facts of a tier with one status, as a share of the tier placed from start to end. */
interface TierSegment {
  tier: string;
  status: FactStatus;
  facts: number;
  /** What a screen reader says for the segment. */
  summary: string;
  start: number;
  end: number;
  middle: number;
}

function tierLabel(tier: RetentionRun['byTier'][number]): string {
  return `tier ${tier.tier} (weight ${TIER_WEIGHTS[tier.tier]}, ${tier.facts} ${tier.facts === 1 ? 'fact' : 'facts'})`;
}

function tierSegments(run: RetentionRun): TierSegment[] {
  const segments: TierSegment[] = [];
  for (const tier of run.byTier) {
    if (tier.facts === 0) continue;
    let start = 0;
    for (const status of STATUSES) {
      const facts = tier[status];
      const share = facts / tier.facts;
      const summary = `tier ${tier.tier}: ${facts} of ${tier.facts} key facts ${status} (${(share * 100).toFixed(0)} %)`;
      segments.push({ tier: tierLabel(tier), status, facts, summary, start, end: start + share, middle: start + share / 2 });
      start += share;
    }
  }
  return segments;
}

function statusColour(): { field: string; type: 'nominal'; title: string; scale: { domain: string[]; range: string[] } } {
  return { field: 'status', type: 'nominal', title: 'key fact', scale: { domain: [...STATUSES], range: STATUSES.map((status) => STATUS_COLOURS[status]) } };
}

function tierSpec(run: RetentionRun): TopLevelSpec {
  const scores = run.byTier.filter((tier) => tier.facts > 0).map((tier) => `tier ${tier.tier}: ${tier.score.toFixed(3)}`);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Key-fact retention per tier',
      subtitle: [`Key facts of all ${run.conversations.length} conversations.`, `Mean fact score: ${scores.length === 0 ? 'no key facts' : scores.join(', ')}.`],
    },
    data: { values: tierSegments(run) },
    width: 460,
    height: { step: 38 },
    encoding: {
      y: { field: 'tier', type: 'nominal', title: null, sort: run.byTier.map(tierLabel), axis: { labelLimit: 260 } },
    },
    layer: [
      {
        mark: { type: 'bar', stroke: 'white', strokeWidth: 1 },
        encoding: {
          x: { field: 'start', type: 'quantitative', title: "share of the tier's key facts", scale: { domain: [0, 1] }, axis: { format: '.0%' } },
          x2: { field: 'end' },
          color: statusColour(),
          description: { field: 'summary' },
        },
      },
      {
        transform: [{ filter: 'datum.facts > 0 && datum.end - datum.start >= 0.05' }],
        mark: { type: 'text', color: 'white', fontWeight: 'bold', fontSize: 12 },
        encoding: { x: { field: 'middle', type: 'quantitative' }, text: { field: 'facts', type: 'quantitative' } },
      },
    ],
  };
}

/** One conversation's measures: what the bars and the budget mark are drawn from. */
interface TokenMeasure {
  conversation: string;
  measure: string;
  tokens: number;
  label: string;
}

const ORIGINAL = 'original transcript';
const CONTEXT = 'context package';
const OVER = 'context package over budget';
const BUDGET = 'budget';

function tokenMeasures(run: RetentionRun): TokenMeasure[] {
  return run.conversations.flatMap((conversation) => {
    const label = `${COUNT.format(conversation.contextTokens)} of ${COUNT.format(conversation.budget)} budget · ${COUNT.format(conversation.originalTokens)} in the transcript`;
    return [
      { conversation: conversation.id, measure: ORIGINAL, tokens: conversation.originalTokens, label },
      { conversation: conversation.id, measure: conversation.budgetCompliant ? CONTEXT : OVER, tokens: conversation.contextTokens, label },
      { conversation: conversation.id, measure: BUDGET, tokens: conversation.budget, label },
    ];
  });
}

function tokenSpec(run: RetentionRun): TopLevelSpec {
  const measures = tokenMeasures(run);
  const largest = Math.max(1, ...measures.map((measure) => measure.tokens));
  const shown = [ORIGINAL, CONTEXT, ...(run.conversations.some((conversation) => !conversation.budgetCompliant) ? [OVER] : []), BUDGET];
  const colours: Readonly<Record<string, string>> = { [ORIGINAL]: '#c9d3e0', [CONTEXT]: '#1f5fbf', [OVER]: '#c0392b', [BUDGET]: '#222222' };
  const colour = { field: 'measure', type: 'nominal' as const, title: null, scale: { domain: shown, range: shown.map((measure) => colours[measure] ?? '#000000') } };
  const x = { field: 'tokens', type: 'quantitative' as const, title: 'tokens', scale: { domain: [0, largest * 1.08] }, axis: { format: ',d' } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Tokens used against budget',
      subtitle: [
        "Each conversation's context package against its budget (black mark) and its whole transcript.",
        `Budget compliance ${(run.budgetCompliance * 100).toFixed(1)} %, mean fill ${(run.meanFill * 100).toFixed(1)} %.`,
      ],
    },
    data: { values: measures },
    width: 520,
    height: { step: 52 },
    encoding: {
      y: { field: 'conversation', type: 'nominal', title: null, sort: run.conversations.map((conversation) => conversation.id), axis: { labelLimit: 220 } },
    },
    layer: [
      { transform: [{ filter: { field: 'measure', equal: ORIGINAL } }], mark: { type: 'bar', size: 22 }, encoding: { x, color: colour } },
      { transform: [{ filter: { field: 'measure', oneOf: [CONTEXT, OVER] } }], mark: { type: 'bar', size: 12 }, encoding: { x, color: colour } },
      { transform: [{ filter: { field: 'measure', equal: BUDGET } }], mark: { type: 'tick', thickness: 3, size: 26 }, encoding: { x, color: colour } },
      {
        transform: [{ filter: { field: 'measure', equal: ORIGINAL } }],
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 4, dy: -21, fontSize: 10, color: '#333333' },
        encoding: { x: { datum: 0, type: 'quantitative' }, text: { field: 'label', type: 'nominal' } },
      },
    ],
  };
}

/** The charts of a retention report, by where the report shows them. */
export interface RetentionCharts {
  /** Preserved, partial and missing key facts per tier. */
  byTier: ReportChart;
  /** Context tokens of each conversation against its budget and transcript. */
  tokens: ReportChart;
}

/** The charts of a retention report: retention per tier and tokens against budget per conversation. */
export function retentionCharts(run: RetentionRun): RetentionCharts {
  return {
    byTier: {
      file: chartFile('retention-by-tier'),
      description: 'Share of key facts preserved, partial and missing in each tier',
      spec: tierSpec(run),
    },
    tokens: {
      file: chartFile('tokens-against-budget'),
      description: "Context tokens of each conversation's package against its budget and its original transcript",
      spec: tokenSpec(run),
    },
  };
}
