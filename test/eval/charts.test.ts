import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { locomoCharts, managerCharts } from '../../src/eval/charts/locomo-charts.js';
import { chartLibrariesError, renderSvg } from '../../src/eval/charts/render-svg.js';
import { markdownImage } from '../../src/eval/charts/report-chart.js';
import { retentionCharts } from '../../src/eval/charts/retention-charts.js';
import { textWidth } from '../../src/eval/charts/text-width.js';
import { writeReportFolder } from '../../src/eval/charts/write-report-folder.js';
import { managersReport } from '../../src/eval/locomo/managers-report.js';
import { locomoReport } from '../../src/eval/locomo/report.js';
import { CATEGORY_LABELS, type ResultRow } from '../../src/eval/locomo/metrics.js';
import type { LocomoRunResult } from '../../src/eval/locomo/run-locomo.js';
import { retentionReport } from '../../src/eval/retention-output.js';
import type { FactStatus } from '../../src/eval/retention.js';
import { tierRetention, type ConversationRetention, type RetentionRun } from '../../src/eval/run-retention.js';

/**
 * A structural XML check: one root element, every tag closed in order, attributes quoted, only the five
 * predefined entities and numeric references, no stray `<`. Returns the problems found (none: well-formed).
 */
function xmlProblems(text: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>/gu;
  let position = 0;
  const checkCharacters = (chunk: string): void => {
    if (chunk.includes('<')) problems.push(`stray "<" near "${chunk.slice(0, 40)}"`);
    for (const match of chunk.matchAll(/&([^;\s]*);?/gu)) {
      if (!/^&(?:amp|lt|gt|quot|apos|#\d+|#x[\da-fA-F]+);$/u.test(match[0])) problems.push(`bad entity ${match[0]}`);
    }
  };
  const checkText = (chunk: string): void => {
    checkCharacters(chunk);
    if (stack.length === 0 && chunk.trim() !== '') problems.push(`text outside the root: "${chunk.trim().slice(0, 40)}"`);
  };
  for (const match of text.matchAll(token)) {
    checkText(text.slice(position, match.index));
    position = match.index + match[0].length;
    const [, closing, name, attributes, selfClosing] = match;
    if (name === undefined) continue;
    for (const attribute of (attributes ?? '').matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/gu)) checkCharacters(attribute[1] ?? attribute[2] ?? '');
    if (closing === '/') {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
    } else {
      if (stack.length === 0) roots += 1;
      if (selfClosing !== '/') stack.push(name);
    }
  }
  checkText(text.slice(position));
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

/** Text drawn in an SVG (labels, titles, legend entries), entities decoded. */
function drawnText(svg: string): string[] {
  return [...svg.matchAll(/<(?:text|tspan)\b[^>]*>([^<]+)</gu)].map((match) =>
    (match[1] ?? '').replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&quot;/gu, '"').replace(/&#39;|&apos;/gu, "'").replace(/&amp;/gu, '&'),
  );
}

/** The paths of each group of data marks of one kind (symbol: line points; rect: bars and ticks), legend symbols left out. */
function markGroups(svg: string, kind: 'symbol' | 'rect' | 'line'): string[][] {
  return [...svg.matchAll(new RegExp(`<g class="mark-${kind} role-mark[^"]*"[^>]*(?<!/)>(.*?)</g>`, 'gsu'))].map((group) => (group[1] ?? '').match(/<path\b[^>]*>/gu) ?? []);
}

function markPaths(svg: string, kind: 'symbol' | 'rect' | 'line'): string[] {
  return markGroups(svg, kind).flat();
}

/** The width of a rect path (`d="Mx,yh<width>v…"`). */
function rectWidth(path: string): number {
  return Number(/\bd="M[\d.-]+,[\d.-]+h([\d.-]+)v/u.exec(path)?.[1]);
}

/** The paths of each layer's data marks of one kind, in drawing order (`child_layer_<layer>_marks` groups). */
function layerPaths(svg: string, kind: 'rect' | 'rule', layer: number): string[][] {
  return [...svg.matchAll(new RegExp(`<g class="mark-${kind} role-mark child_layer_${layer}_marks"[^>]*(?<!/)>(.*?)</g>`, 'gsu'))].map(
    (group) => (group[1] ?? '').match(/<(?:path|line)\b[^>]*>/gu) ?? [],
  );
}

/** The top and the height of a rect path (`d="Mx,yh…v<height>…"`). */
function rectSpan(path: string): { top: number; height: number } {
  const match = /\bd="M[\d.-]+,([\d.-]+)h[\d.-]+v([\d.-]+)/u.exec(path);
  return { top: Number(match?.[1]), height: Number(match?.[2]) };
}

/** The y of a rule line (`transform="translate(x,y)"`). */
function lineY(line: string): number {
  return Number(/translate\([\d.-]+,([\d.-]+)\)/u.exec(line)?.[1]);
}

/** The y of each point mark (translate(x,y)). */
function pointYs(svg: string): number[] {
  return markPaths(svg, 'symbol').map((path) => Number(/translate\([\d.-]+,([\d.-]+)\)/u.exec(path)?.[1]));
}

const SYSTEM_NAMES = ['strata', 'bm25-greedy', 'recency'];

/** Mean package tokens of a system at a budget in `locomoRun`: strata fills 90 %, bm25-greedy 80 %, recency 70 %. */
function meanTokens(system: string, budget: number): number {
  return budget * (0.9 - SYSTEM_NAMES.indexOf(system) / 10);
}

/**
 * A LoCoMo run with ER = f(system, budget, category); category 3 has no items with evidence. Packages
 * use `meanTokens` on average and at most 95 % of the budget.
 */
function locomoRun(
  budgets: number[],
  recall: (system: string, budget: number, category: string) => number = (system, budget) => budget / 10_000 + SYSTEM_NAMES.indexOf(system) / 10,
  manager: 'local' | 'recorded' = 'local',
): LocomoRunResult {
  const results: ResultRow[] = [];
  for (const system of SYSTEM_NAMES) {
    for (const budget of budgets) {
      for (const category of CATEGORY_LABELS) {
        const n = category === '3' ? 0 : 7;
        results.push({
          system,
          budget,
          category,
          n,
          evidenceRecall: n === 0 ? null : recall(system, budget, category),
          answerContainment: 0.5,
          answerItems: 4,
          sessionLevelRecall: n === 0 ? null : 0.1,
        });
      }
    }
  }
  return {
    numbering: 'locomo-paper',
    manager,
    tokenizer: 'o200k_base',
    budgets,
    budgetCompliance: 1,
    compliance: SYSTEM_NAMES.map((system) => ({ system, packages: 10, compliance: 1, meanFill: 0.9 })),
    results,
    tokens: SYSTEM_NAMES.flatMap((system) =>
      budgets.map((budget) => ({ system, budget, packages: 10, mean: meanTokens(system, budget), max: budget * 0.95, meanFill: meanTokens(system, budget) / budget })),
    ),
    conversations: [{ sampleId: 'conv-1', qaItems: 10, messages: 40, turns: 30, facts: 12, replayMs: 1000, assembleMs: 500 }],
    recorded: null,
    threads: 1,
    elapsedMs: 1500,
  };
}

function conversation(id: string, tokens: { original: number; context: number; budget: number }, statuses: Record<1 | 2 | 3, FactStatus[]>): ConversationRetention {
  const facts = ([1, 2, 3] as const).flatMap((tier) =>
    statuses[tier].map((status, index) => ({
      id: `${id}-${tier}-${index}`,
      tier,
      text: `fact ${index}`,
      status,
      score: status === 'preserved' ? 1 : status === 'partial' ? 0.5 : 0,
      weight: 4 - tier,
      groups: 2,
      bestItem: null,
    })),
  );
  return {
    id,
    file: `${id}.json`,
    description: '',
    turns: 10,
    messages: 20,
    score: 0.8,
    facts,
    memoryOnlyScore: 0.7,
    memoryOnlyFacts: facts,
    stale: [],
    staleRate: 0,
    budget: tokens.budget,
    contextTokens: tokens.context,
    originalTokens: tokens.original,
    tokenReduction: 1 - tokens.context / tokens.original,
    budgetCompliant: tokens.context <= tokens.budget,
    fill: tokens.context / tokens.budget,
  };
}

function retentionRun(conversations: ConversationRetention[]): RetentionRun {
  return {
    tokenizer: 'o200k_base',
    budgetOverride: null,
    meanScore: 0.8,
    memoryOnlyScore: 0.7,
    staleRate: 0,
    meanTokenReduction: 0.7,
    budgetCompliance: conversations.filter((entry) => entry.budgetCompliant).length / conversations.length,
    meanFill: 0.95,
    byTier: tierRetention(conversations.flatMap((entry) => entry.facts)),
    conversations,
  };
}

const TWO_CONVERSATIONS = [
  conversation('trip & plans', { original: 4000, context: 900, budget: 1000 }, { 1: ['preserved', 'preserved', 'missing'], 2: ['preserved', 'partial'], 3: ['missing'] }),
  conversation('coding', { original: 6000, context: 1250, budget: 1200 }, { 1: ['preserved'], 2: ['preserved', 'preserved'], 3: ['partial', 'preserved'] }),
];

describe('text widths', () => {
  it('measures narrow, wide and bold text differently and scales with the font size', () => {
    expect(textWidth('iiii', 10)).toBeLessThan(textWidth('mmmm', 10));
    expect(textWidth('budget', 22)).toBeCloseTo(2 * textWidth('budget', 11), 10);
    expect(textWidth('budget', 11, true)).toBeGreaterThan(textWidth('budget', 11));
    expect(textWidth('', 11)).toBe(0);
  });
});

describe('LoCoMo charts', () => {
  it('draws ER@B against budget for the three systems: well-formed SVG, titled axes, a legend and one point per budget', async () => {
    const budgets = [500, 1000, 2000];
    const svg = await renderSvg(locomoCharts(locomoRun(budgets)).overall.spec);
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const text = drawnText(svg);
    for (const expected of ['Evidence recall at budget: strata against the baselines', 'budget (tokens)', 'ER@B', 'system', ...SYSTEM_NAMES, 'categories 1–4 (n = 7)', 'all categories (n = 7)']) {
      expect(text).toContain(expected);
    }
    // Budgets on the x axis of both panels, and a point per system, budget and panel.
    for (const label of ['500', '1,000', '2,000']) expect(text.filter((entry) => entry === label)).toHaveLength(2);
    expect(markPaths(svg, 'symbol')).toHaveLength(SYSTEM_NAMES.length * budgets.length * 2);
    expect(markPaths(svg, 'line')).toHaveLength(SYSTEM_NAMES.length * 2);
  });

  it('places each point at its recall (y axis 0–100 % over 240 px)', async () => {
    const budgets = [1000, 4000];
    const flat = await renderSvg(locomoCharts(locomoRun(budgets, () => 0.5)).overall.spec);
    expect(new Set(pointYs(flat))).toEqual(new Set([120]));
    const changed = await renderSvg(locomoCharts(locomoRun(budgets, (system, budget) => (system === 'strata' && budget === 4000 ? 0.75 : 0.5))).overall.spec);
    expect(changed).not.toBe(flat);
    // strata at 4000 in both panels moves up to 75 %: y = 240 × (1 − 0.75).
    expect(pointYs(changed).filter((y) => y === 60)).toHaveLength(2);
    expect(pointYs(changed).filter((y) => y === 120)).toHaveLength(SYSTEM_NAMES.length * budgets.length * 2 - 2);
  });

  it('draws one panel per category 1–5, leaving out categories without items with evidence', async () => {
    const budgets = [1000, 2000, 4000, 8000];
    const svg = await renderSvg(locomoCharts(locomoRun(budgets)).byCategory.spec);
    expect(xmlProblems(svg)).toEqual([]);
    const text = drawnText(svg);
    for (const panel of ['1 multi-hop (n = 7)', '2 temporal (n = 7)', '3 open-domain (no items with evidence)', '4 single-hop (n = 7)', '5 adversarial (n = 7)']) {
      expect(text).toContain(panel);
    }
    expect(markPaths(svg, 'symbol')).toHaveLength(SYSTEM_NAMES.length * budgets.length * 4);
  });
});

describe('LoCoMo token charts', () => {
  it('draws tokens used against each budget: a bar at the mean, a tick at the largest package and a dashed line at the budget', async () => {
    const budgets = [1000, 2000, 4000];
    const svg = await renderSvg(locomoCharts(locomoRun(budgets)).tokens.spec);
    expect(xmlProblems(svg)).toEqual([]);
    const text = drawnText(svg);
    for (const expected of ['Tokens used against budget', 'tokens', 'system', ...SYSTEM_NAMES, 'budget 1,000', 'budget 2,000', 'budget 4,000']) expect(text).toContain(expected);
    // One panel per budget, each with a bar and a tick per system and one budget line.
    const bars = layerPaths(svg, 'rect', 0);
    const ticks = layerPaths(svg, 'rect', 1);
    const rules = layerPaths(svg, 'rule', 2);
    expect([bars.length, ticks.length, rules.length]).toEqual([3, 3, 3]);
    budgets.forEach((budget, panel) => {
      expect(bars[panel]).toHaveLength(3);
      expect(ticks[panel]).toHaveLength(3);
      expect(rules[panel]).toHaveLength(1);
      // Panels are 200 px high; measured from the bottom, bar : budget line = mean : budget.
      const budgetHeight = 200 - lineY(rules[panel]?.[0] ?? '');
      SYSTEM_NAMES.forEach((system, index) => {
        expect(rectSpan(bars[panel]?.[index] ?? '').height / budgetHeight).toBeCloseTo(meanTokens(system, budget) / budget, 6);
        const tick = rectSpan(ticks[panel]?.[index] ?? '');
        expect((200 - (tick.top + tick.height / 2)) / budgetHeight).toBeCloseTo(0.95, 6);
      });
      expect(rules[panel]?.[0]).toContain('stroke-dasharray');
    });
    expect(bars[0]?.[0]).toContain('aria-label="strata at budget 1,000: mean 900 tokens (90.0 % fill), largest 950, over 10 packages"');
  });
});

describe('LoCoMo manager charts', () => {
  it('draws a strata line per manager next to the baselines', async () => {
    const budgets = [1000, 2000];
    const local = locomoRun(budgets, () => 0.5);
    const recorded = locomoRun(budgets, (system) => (system === 'strata' ? 0.75 : 0.5), 'recorded');
    const charts = managerCharts([local, recorded]);
    expect([charts.overall.file, charts.tokens.file]).toEqual(['charts/er-at-budget-managers.svg', 'charts/tokens-against-budget-managers.svg']);
    const svg = await renderSvg(charts.overall.spec);
    expect(xmlProblems(svg)).toEqual([]);
    const text = drawnText(svg);
    for (const expected of ['Evidence recall at budget: each manager against the baselines', 'strata (local)', 'strata (recorded)', 'bm25-greedy', 'recency']) {
      expect(text).toContain(expected);
    }
    expect(text.some((entry) => entry.startsWith('Managers local and recorded, tokenizer o200k_base'))).toBe(true);
    // Four lines per panel; the recorded strata points sit at 75 % (y = 60), the rest at 50 % (y = 120).
    expect(markPaths(svg, 'line')).toHaveLength(4 * 2);
    expect(pointYs(svg).filter((y) => y === 60)).toHaveLength(budgets.length * 2);
    expect(pointYs(svg).filter((y) => y === 120)).toHaveLength(3 * budgets.length * 2);
    const tokens = await renderSvg(charts.tokens.spec);
    expect(layerPaths(tokens, 'rect', 0).map((panel) => panel.length)).toEqual([4, 4]);
    expect(drawnText(tokens)).toContain('strata (recorded)');
  });
});

describe('retention charts', () => {
  it('draws preserved, partial and missing shares per tier from the run', async () => {
    const run = retentionRun(TWO_CONVERSATIONS);
    const svg = await renderSvg(retentionCharts(run).byTier.spec);
    expect(xmlProblems(svg)).toEqual([]);
    const text = drawnText(svg);
    for (const expected of ['Key-fact retention per tier', "share of the tier's key facts", 'key fact', 'preserved', 'partial', 'missing', 'tier 1 (weight 3, 4 facts)', 'tier 2 (weight 2, 4 facts)', 'tier 3 (weight 1, 3 facts)']) {
      expect(text).toContain(expected);
    }
    // Tier 1: 3 of 4 preserved, 0 partial, 1 missing; segments are 460 px × share wide.
    const segments = markPaths(svg, 'rect');
    expect(segments).toHaveLength(9);
    expect(segments.slice(0, 3).map(rectWidth)).toEqual([345, 0, 115]);
    expect(segments[0]).toContain('aria-label="tier 1: 3 of 4 key facts preserved (75 %)"');
    expect(text.filter((entry) => /^\d+$/u.test(entry))).toEqual(['3', '1', '3', '1', '1', '1', '1']);
    expect(text).toContain('Mean fact score: tier 1: 0.750, tier 2: 0.875, tier 3: 0.500.');
  });

  it('draws each conversation’s context tokens against its budget and transcript, flagging packages over budget', async () => {
    const run = retentionRun(TWO_CONVERSATIONS);
    const svg = await renderSvg(retentionCharts(run).tokens.spec);
    expect(xmlProblems(svg)).toEqual([]);
    const text = drawnText(svg);
    for (const expected of ['Tokens used against budget', 'tokens', 'trip & plans', 'coding', 'original transcript', 'context package', 'context package over budget', 'budget']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('900 of 1,000 budget · 4,000 in the transcript');
    expect(text).toContain('1,250 of 1,200 budget · 6,000 in the transcript');
    expect(svg).toContain('trip &amp; plans');
    // Transcript bars, package bars and budget ticks, one per conversation, as long as their token counts.
    const [transcripts = [], packages = [], budgets = []] = markGroups(svg, 'rect');
    expect([transcripts.length, packages.length, budgets.length]).toEqual([2, 2, 2]);
    expect(rectWidth(transcripts[0] ?? '') / rectWidth(transcripts[1] ?? '')).toBeCloseTo(4000 / 6000, 6);
    expect(rectWidth(packages[0] ?? '') / rectWidth(packages[1] ?? '')).toBeCloseTo(900 / 1250, 6);
    expect(rectWidth(packages[0] ?? '') / rectWidth(transcripts[0] ?? '')).toBeCloseTo(900 / 4000, 6);
    expect(packages[1]).toContain('fill="#c0392b"');
    // The over-budget entry only appears when a package is over.

    const within = await renderSvg(retentionCharts(retentionRun(TWO_CONVERSATIONS.slice(0, 1))).tokens.spec);
    expect(drawnText(within)).not.toContain('context package over budget');
  });
});

describe('rendering', () => {
  it('reads no file and no URL: only inline data is drawn', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'strata-charts-'));
    try {
      const values = [{ x: 1 }, { x: 2 }];
      writeFileSync(join(folder, 'points.json'), JSON.stringify(values));
      const encoding = { x: { field: 'x', type: 'quantitative' as const } };
      expect(markPaths(await renderSvg({ data: { values }, mark: 'point', encoding }), 'symbol')).toHaveLength(2);
      for (const url of [join(folder, 'points.json'), pathToFileURL(join(folder, 'points.json')).href, 'https://example.com/points.json']) {
        expect(markPaths(await renderSvg({ data: { url }, mark: 'point', encoding }), 'symbol')).toHaveLength(0);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('raises a StrataError naming the chart for a spec Vega cannot compile or evaluate', async () => {
    const bad = await renderSvg({ data: { values: [] }, mark: 'no-such-mark' as 'point', title: 'broken' }).catch((error: unknown) => error);
    expect(isStrataError(bad, 'INVALID_INPUT')).toBe(true);
    expect((bad as Error).message).toMatch(/^Cannot draw the chart "broken": .*run the evaluation again/u);
    // Vega logs a failing expression and draws an empty chart; the report must not get that chart.
    const failing = renderSvg({ data: { values: [{ a: 1 }] }, transform: [{ calculate: 'datum.x.y', as: 'b' }], mark: 'point', title: 'failing' });
    await expect(failing).rejects.toThrow(/^Cannot draw the chart "failing": .*Cannot read properties of undefined/u);
  });
});

describe('report folders', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'strata-charts-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** The relative image links of a Markdown text. */
  function imageLinks(markdown: string): string[] {
    return [...markdown.matchAll(/!\[[^\]]+\]\(([^)]+)\)/gu)].map((match) => match[1] ?? '');
  }

  it('writes report.md and the LoCoMo charts it links to', async () => {
    const result = locomoRun([1000, 2000]);
    const report = locomoReport(result, { file: 'mini.json', corrections: null, correctionsFile: null, warnings: [] });
    const written = await writeReportFolder(join(folder, 'out'), report);
    const charts = ['er-at-budget.svg', 'er-at-budget-by-category.svg', 'tokens-against-budget.svg'];
    expect(written).toEqual([join(folder, 'out', 'report.md'), ...charts.map((chart) => join(folder, 'out', 'charts', chart))]);
    const markdown = readFileSync(join(folder, 'out', 'report.md'), 'utf8');
    expect(markdown).toBe(report.markdown);
    expect(imageLinks(markdown)).toEqual(charts.map((chart) => `charts/${chart}`));
    // The overall chart follows the all-categories table, the per-category chart the per-category table,
    // the tokens chart the tokens table.
    expect(markdown.indexOf('charts/er-at-budget.svg')).toBeGreaterThan(markdown.indexOf('## All categories'));
    expect(markdown.indexOf('charts/er-at-budget-by-category.svg')).toBeGreaterThan(markdown.indexOf('## Per category'));
    expect(markdown.indexOf('charts/tokens-against-budget.svg')).toBeGreaterThan(markdown.indexOf('## Tokens used against budget'));
    expect(markdown).toContain('| strata | 1000 | 10 | 900.0 | 950 | 90.0 |');
    expect(markdown).toContain('| recency | 2000 | 10 | 1400.0 | 1900 | 70.0 |');
    for (const link of imageLinks(markdown)) {
      const svg = readFileSync(join(folder, 'out', link), 'utf8');
      expect(xmlProblems(svg)).toEqual([]);
      expect(drawnText(svg)).toContain('strata');
    }
  });

  it.skipIf(!existsSync('/proc/self'))('fails with the system error, instead of spinning, where a folder cannot hold a new one', async () => {
    const report = locomoReport(locomoRun([1000]), { file: 'mini.json', corrections: null, correctionsFile: null, warnings: [] });
    // Under /proc, mkdir answers "not found" for a new folder: Node's recursive mkdir retries that forever.
    await expect(writeReportFolder('/proc/strata-report/out', report)).rejects.toThrow(/ENOENT/u);
  });

  it('writes one report.md for runs with two managers: the side-by-side tables and charts, then each run', async () => {
    const budgets = [1000, 2000];
    const runs = [locomoRun(budgets), locomoRun(budgets, () => 0.25, 'recorded')];
    const report = managersReport({ numbering: 'locomo-paper', tokenizer: 'o200k_base', budgets, runs, elapsedMs: 3000 }, { file: 'mini.json', corrections: null, correctionsFile: null, warnings: ['a quirk'] });
    await writeReportFolder(folder, report);
    const markdown = readFileSync(join(folder, 'report.md'), 'utf8');
    expect(imageLinks(markdown)).toEqual([
      'charts/er-at-budget-managers.svg',
      'charts/tokens-against-budget-managers.svg',
      ...['local', 'recorded'].flatMap((manager) => [`charts/er-at-budget-${manager}.svg`, `charts/er-at-budget-by-category-${manager}.svg`, `charts/tokens-against-budget-${manager}.svg`]),
    ]);
    for (const link of imageLinks(markdown)) expect(xmlProblems(readFileSync(join(folder, link), 'utf8'))).toEqual([]);
    const headings = markdown.split('\n').filter((line) => /^##? /u.test(line));
    expect(headings).toEqual(['# LoCoMo evidence recall at a budget — mini.json', '## Managers side by side', '## Manager `local`', '## Manager `recorded`', '## Data quirks repaired']);
    expect(markdown).toContain('Managers `local` and `recorded` side by side');
    expect(markdown).toContain(
      '### All categories, managers side by side: ER@B % over 7 items with evidence; answer containment % over 4 items whose answer is in the transcript\n\n' +
        '| budget | ER local | ER recorded | ER bm25-greedy | ER recency | AC local | AC recorded | AC bm25-greedy | AC recency |\n' +
        '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n' +
        '| 1000 | 10.0 | 25.0 | 20.0 | 30.0 | 50.0 | 50.0 | 50.0 | 50.0 |',
    );
    expect(markdown).toContain('| strata (recorded) | 2000 | 10 | 1800.0 | 1900 | 90.0 |');
    expect(markdown.match(/^### Per category /gmu)).toHaveLength(2);
  });

  it('writes report.md and the retention charts it links to, with no placeholder left', async () => {
    const report = retentionReport(retentionRun(TWO_CONVERSATIONS));
    await writeReportFolder(folder, report);
    const markdown = readFileSync(join(folder, 'report.md'), 'utf8');
    expect(markdown).not.toMatch(/not drawn yet/u);
    expect(imageLinks(markdown)).toEqual(['charts/tokens-against-budget.svg', 'charts/retention-by-tier.svg']);
    for (const link of imageLinks(markdown)) expect(xmlProblems(readFileSync(join(folder, link), 'utf8'))).toEqual([]);
    expect(markdown).toContain(markdownImage(retentionCharts(retentionRun(TWO_CONVERSATIONS)).byTier));
  });

  it('writes nothing when a chart cannot be drawn', async () => {
    const fine = locomoCharts(locomoRun([1000])).overall;
    const broken = { file: 'charts/broken.svg', description: 'broken', spec: { data: { values: [{ a: 1 }] }, transform: [{ calculate: 'datum.x.y', as: 'b' }], mark: 'point' as const } };
    await expect(writeReportFolder(join(folder, 'out'), { markdown: '# r\n', charts: [fine, broken] })).rejects.toThrow(/Cannot draw the chart/u);
    expect(existsSync(join(folder, 'out'))).toBe(false);
  });

  it('keeps brackets out of the image text', () => {
    expect(markdownImage({ file: 'charts/a.svg', description: 'ER [all]\n categories', spec: { data: { values: [] }, mark: 'point' } })).toBe('![ER all categories](charts/a.svg)');
  });
});

describe('the optional chart packages', () => {
  it('says how to install vega and vega-lite when they are missing, and wraps any other failure', async () => {
    // The error Node gives for a package that is not installed.
    const missing: unknown = await import('strata-no-such-chart-package' as string).catch((error: unknown) => error);
    const error = chartLibrariesError(missing);
    expect(isStrataError(error, 'INVALID_CONFIG')).toBe(true);
    expect(error.message).toContain('optional packages vega and vega-lite, which are not installed');
    expect(error.message).toContain('npm install vega@6.4.0 vega-lite@6.4.3');
    expect(chartLibrariesError(new Error('boom')).message).toContain('failed to load: boom');
  });
});
