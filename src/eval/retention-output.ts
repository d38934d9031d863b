import { markdownImage, type ReportContent } from './charts/report-chart.js';
import { retentionCharts, type RetentionCharts } from './charts/retention-charts.js';
import { TIER_WEIGHTS, type FactStatus } from './retention.js';
import type { RetentionRun } from './run-retention.js';

/** The fixed `strata eval retention --json` shape; numbers are fractions 0–1, token counts are whole numbers. */
export interface RetentionJson {
  meanScore: number;
  budgetCompliance: number;
  /** Mean memory-only score (the packages without their verbatim window). */
  memoryOnlyScore: number;
  /** Stale facts asserted / stale facts, over every conversation. */
  staleRate: number;
  conversations: Array<{
    id: string;
    budget: number;
    score: number;
    tokenReduction: number;
    originalTokens: number;
    contextTokens: number;
    facts: Array<{ id: string; tier: 1 | 2 | 3; status: FactStatus }>;
    memoryOnlyScore: number;
    staleRate: number;
    stale: Array<{ id: string; asserted: boolean }>;
  }>;
}

/** The run in the fixed JSON shape, keys in the documented order and nothing else. */
export function retentionJson(run: RetentionRun): RetentionJson {
  return {
    meanScore: run.meanScore,
    budgetCompliance: run.budgetCompliance,
    memoryOnlyScore: run.memoryOnlyScore,
    staleRate: run.staleRate,
    conversations: run.conversations.map((conversation) => ({
      id: conversation.id,
      budget: conversation.budget,
      score: conversation.score,
      tokenReduction: conversation.tokenReduction,
      originalTokens: conversation.originalTokens,
      contextTokens: conversation.contextTokens,
      facts: conversation.facts.map((fact) => ({ id: fact.id, tier: fact.tier, status: fact.status })),
      memoryOnlyScore: conversation.memoryOnlyScore,
      staleRate: conversation.staleRate,
      stale: conversation.stale.map((entry) => ({ id: entry.id, asserted: entry.asserted })),
    })),
  };
}

const COUNT = new Intl.NumberFormat('en-US');

/** "1 / 6" asserted of all. */
function staleCount(stale: ReadonlyArray<{ asserted: boolean }>): string {
  return `${stale.filter((entry) => entry.asserted).length} / ${stale.length}`;
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)} %`;
}

function score(value: number): string {
  return value.toFixed(3);
}

/** A Markdown table cell: no pipes or line breaks. */
function cell(text: string): string {
  return text.replace(/\|/gu, '\\|').replace(/\s+/gu, ' ').trim();
}

function table(header: readonly string[], align: readonly ('l' | 'r')[], rows: ReadonlyArray<readonly string[]>): string {
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${align.map((side) => (side === 'r' ? '---:' : ':---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

/**
 * `report.md` of a retention run: the summary with the tokens-against-budget chart, retention per tier
 * with its chart, and each conversation's per-fact table.
 */
export function retentionMarkdown(run: RetentionRun, charts: RetentionCharts = retentionCharts(run)): string {
  const compliant = run.conversations.filter((conversation) => conversation.budgetCompliant).length;
  const lines: string[] = [
    '# Key-fact retention',
    '',
    'Weighted key-fact retention as defined in the evaluation design (§2): each conversation is replayed into a fresh',
    'store, its context package is assembled with no query at the budget, and each key fact is preserved (1.0, one item',
    'satisfies every `mustInclude` group), partial (0.5, one item satisfies at least half of them) or missing (0).',
    'Weights: tier 1 → 3, tier 2 → 2, tier 3 → 1. Token reduction = 1 − context tokens / original tokens.',
    'The memory-only score is the same score on the package without its verbatim window, so a recap in the chat tail',
    'earns nothing. A stale fact (a claim later corrected, cancelled or declined) is asserted when one line of the',
    'pinned exceptions or the facts satisfies all its groups and not all groups of the key fact that supersedes it (§2b).',
    '',
    `Tokenizer: ${run.tokenizer}. Budget: ${run.budgetOverride === null ? "each file's own" : `${COUNT.format(run.budgetOverride)} tokens for every conversation`}.`,
    '',
    '## Summary',
    '',
    `- Mean score: **${score(run.meanScore)}** over ${COUNT.format(run.conversations.length)} conversations`,
    `- Mean memory-only score: **${score(run.memoryOnlyScore)}**`,
    `- Stale facts asserted: **${percent(run.staleRate)}** (${staleCount(run.conversations.flatMap((conversation) => conversation.stale))})`,
    `- Mean token reduction: ${percent(run.meanTokenReduction)}`,
    `- Budget compliance: ${percent(run.budgetCompliance)} (${compliant} / ${run.conversations.length} packages), mean fill ${percent(run.meanFill)}`,
    '',
    table(
      ['conversation', 'score', 'memory only', 'stale asserted', 'token reduction', 'original tokens', 'context tokens', 'budget', 'within budget'],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      run.conversations.map((conversation) => [
        conversation.id,
        score(conversation.score),
        score(conversation.memoryOnlyScore),
        staleCount(conversation.stale),
        percent(conversation.tokenReduction),
        COUNT.format(conversation.originalTokens),
        COUNT.format(conversation.contextTokens),
        COUNT.format(conversation.budget),
        conversation.budgetCompliant ? 'yes' : '**no**',
      ]),
    ),
    '',
    markdownImage(charts.tokens),
    '',
    '## Retention per tier',
    '',
    table(
      ['tier', 'weight', 'facts', 'preserved', 'partial', 'missing', 'mean fact score'],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
      run.byTier.map((tier) => [
        `${tier.tier}`,
        `${TIER_WEIGHTS[tier.tier]}`,
        `${tier.facts}`,
        `${tier.preserved}`,
        `${tier.partial}`,
        `${tier.missing}`,
        tier.facts === 0 ? '–' : score(tier.score),
      ]),
    ),
    '',
    markdownImage(charts.byTier),
  ];
  for (const conversation of run.conversations) {
    lines.push(
      '',
      `## ${conversation.id}`,
      '',
      ...(conversation.description === '' ? [] : [conversation.description, '']),
      `\`${conversation.file}\`: ${COUNT.format(conversation.turns)} turns. Score **${score(conversation.score)}** ` +
        `(memory only ${score(conversation.memoryOnlyScore)}), token reduction ${percent(conversation.tokenReduction)} ` +
        `(${COUNT.format(conversation.originalTokens)} → ${COUNT.format(conversation.contextTokens)} tokens), ` +
        `${conversation.budgetCompliant ? 'within' : '**over**'} the ${COUNT.format(conversation.budget)}-token budget.`,
      '',
      table(
        ['fact', 'tier', 'status', 'memory only', 'groups matched', 'key fact'],
        ['l', 'r', 'l', 'l', 'r', 'l'],
        conversation.facts.map((fact, index) => [
          fact.id,
          `${fact.tier}`,
          fact.status,
          conversation.memoryOnlyFacts[index]?.status ?? '–',
          `${fact.bestItem?.groupsSatisfied ?? 0} / ${fact.groups}`,
          fact.text,
        ]),
      ),
    );
    if (conversation.stale.length > 0) {
      lines.push(
        '',
        table(
          ['stale fact', 'superseded by', 'asserted', 'asserting line'],
          ['l', 'l', 'l', 'l'],
          conversation.stale.map((entry) => [entry.id, entry.supersededBy ?? '–', entry.asserted ? '**yes**' : 'no', entry.item?.text ?? '']),
        ),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `report.md` of a retention run and the SVG charts it shows (write both with `writeReportFolder`). */
export function retentionReport(run: RetentionRun): ReportContent {
  const charts = retentionCharts(run);
  return { markdown: retentionMarkdown(run, charts), charts: [charts.tokens, charts.byTier] };
}
