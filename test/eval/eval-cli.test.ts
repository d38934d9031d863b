import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RetentionJson } from '../../src/eval/retention-output.js';
import { createWorkspace, type Workspace } from '../cli/helpers.js';

let ws: Workspace;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Three turns and a large budget, so the whole conversation sits in the raw window: the statuses depend
 * on the metric only. "zebra" and "quokka" appear nowhere, so those facts cannot be preserved.
 */
function tinyConversation(id = 'tiny-trip'): string {
  return JSON.stringify({
    id,
    description: 'three turns about a trip',
    budget: 2000,
    messages: [
      { role: 'user', content: 'I am planning a trip to Lisbon in May. Hard rule: only refundable fares.' },
      { role: 'assistant', content: 'Understood: refundable fares only, Lisbon in May.' },
      { role: 'user', content: 'The hotel budget is €140 per night.' },
      { role: 'assistant', content: 'Noted, hotels up to €140 a night.' },
      { role: 'user', content: 'Please prefer an aisle seat.' },
      { role: 'assistant', content: 'Aisle seats it is.' },
    ],
    keyFacts: [
      { id: 'refundable', tier: 1, text: 'Only refundable fares', mustInclude: [['refundable'], ['fare', 'fares']] },
      { id: 'hotel-cap', tier: 2, text: 'Hotel at most €140 a night', mustInclude: [['140'], ['zebra']] },
      { id: 'window-seat', tier: 3, text: 'Window seat', mustInclude: [['window'], ['quokka']] },
    ],
    staleFacts: [{ id: 'lisbon-in-june', supersededBy: null, text: 'Lisbon in June', mustInclude: [['june'], ['lisbon']] }],
  });
}

function evalFolders(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('strata-eval-'));
}

describe('strata eval retention', () => {
  it('prints the fixed --json shape for a tiny hand-made conversation', async () => {
    ws.write('trip.json', tinyConversation());
    const before = new Set(evalFolders());
    const result = await ws.run(['eval', 'retention', 'trip.json', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as RetentionJson;
    expect(Object.keys(data)).toEqual(['meanScore', 'budgetCompliance', 'memoryOnlyScore', 'staleRate', 'conversations']);
    expect(data.conversations).toHaveLength(1);
    const [conversation] = data.conversations;
    expect(Object.keys(conversation ?? {})).toEqual([
      'id',
      'budget',
      'score',
      'tokenReduction',
      'originalTokens',
      'contextTokens',
      'facts',
      'memoryOnlyScore',
      'staleRate',
      'stale',
    ]);
    expect(conversation?.stale).toEqual([{ id: 'lisbon-in-june', asserted: false }]);
    expect(conversation?.staleRate).toBe(0);
    expect(data.staleRate).toBe(0);
    // The memory-only score never exceeds the score: it reads a subset of the same items.
    expect(conversation?.memoryOnlyScore).toBeLessThanOrEqual(conversation?.score ?? 0);
    expect(data.memoryOnlyScore).toBe(conversation?.memoryOnlyScore);
    expect(conversation?.facts).toEqual([
      { id: 'refundable', tier: 1, status: 'preserved' },
      { id: 'hotel-cap', tier: 2, status: 'partial' },
      { id: 'window-seat', tier: 3, status: 'missing' },
    ]);
    // (3 × 1 + 2 × 0.5 + 1 × 0) / 6
    expect(conversation?.score).toBeCloseTo(4 / 6, 12);
    expect(data.meanScore).toBeCloseTo(4 / 6, 12);
    expect(conversation?.id).toBe('tiny-trip');
    expect(conversation?.budget).toBe(2000);
    expect(data.budgetCompliance).toBe(1);
    expect(conversation?.contextTokens).toBeLessThanOrEqual(2000);
    expect(conversation?.tokenReduction).toBeCloseTo(1 - (conversation?.contextTokens ?? 0) / (conversation?.originalTokens ?? 1), 12);
    expect(evalFolders().filter((name) => !before.has(name))).toEqual([]);
  });

  it('applies --budget to every conversation and averages over conversations', async () => {
    ws.write('a.json', tinyConversation('trip-a'));
    ws.write('b.json', tinyConversation('trip-b'));
    const result = await ws.run(['eval', 'retention', 'a.json', 'b.json', '--budget', '1500', '--json']);
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as RetentionJson;
    expect(data.conversations.map((conversation) => [conversation.id, conversation.budget])).toEqual([
      ['trip-a', 1500],
      ['trip-b', 1500],
    ]);
    expect(data.meanScore).toBeCloseTo(4 / 6, 12);
  });

  it('prints per-fact tables, totals and the mean, and writes report.md with --report', async () => {
    ws.write('trip.json', tinyConversation());
    const result = await ws.run(['eval', 'retention', 'trip.json', '--report', 'out/report-dir']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^tiny-trip \(trip\.json\): 3 turns, budget 2,000\nfact\s+tier\s+status\s+memory only\n/u);
    expect(result.stdout).toMatch(/^refundable\s+1\s+preserved\s+\w+$/mu);
    expect(result.stdout).toMatch(/^hotel-cap\s+2\s+partial\s+\w+$/mu);
    expect(result.stdout).toMatch(/^window-seat\s+3\s+missing\s+missing$/mu);
    expect(result.stdout).toMatch(/^stale fact\s+asserted\s+asserting line\n.*\nlisbon-in-june\s+no\s*$/mu);
    expect(result.stdout).toMatch(
      /^score 0\.667 · memory only \d\.\d{3} · stale asserted 0 \/ 1 · token reduction -?\d+\.\d % \([\d,]+ → [\d,]+ tokens\) · within budget \([\d,]+ \/ 2,000 tokens\)$/mu,
    );
    expect(result.stdout).toMatch(
      /^Mean score 0\.667 · memory only \d\.\d{3} · stale asserted 0\.0 % \(0 \/ 1\) · mean token reduction -?\d+\.\d % · budget compliance 100\.0 % \(1 \/ 1\) · mean fill \d+\.\d %$/mu,
    );
    expect(result.stdout).toContain(`Wrote ${join('out/report-dir', 'report.md')}`);
    const report = readFileSync(join(ws.dir, 'out', 'report-dir', 'report.md'), 'utf8');
    expect(report).toContain('# Key-fact retention');
    expect(report).not.toMatch(/not drawn yet/iu);
    // Each chart is written next to report.md, linked from it, and drawn from this run.
    for (const [chart, drawn] of [['tokens-against-budget', '>tiny-trip</text>'], ['retention-by-tier', '>tier 1 (weight 3, 1 fact)</text>']] as const) {
      expect(report).toContain(`](charts/${chart}.svg)`);
      const svg = readFileSync(join(ws.dir, 'out', 'report-dir', 'charts', `${chart}.svg`), 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/u);
      expect(svg).toContain(drawn);
    }
    expect(report).toMatch(/\| refundable \| 1 \| preserved \| \w+ \| 2 \/ 2 \| Only refundable fares \|/u);
    expect(report).toMatch(/\| hotel-cap \| 2 \| partial \| \w+ \| 1 \/ 2 \|/u);
    expect(report).toContain('| window-seat | 3 | missing | missing | 0 / 2 |');
    expect(report).toContain('| lisbon-in-june | – | no |  |');
    expect(report).toContain('- Stale facts asserted: **0.0 %** (0 / 1)');
  });

  it('exits 2 naming the file and the field for a bad input file, before replaying anything', async () => {
    ws.write('good.json', tinyConversation());
    ws.write('bad.json', JSON.stringify({ ...JSON.parse(tinyConversation('bad')), keyFacts: [{ id: 'x', tier: 'high', text: '', mustInclude: [['a']] }] }));
    const bad = await ws.run(['eval', 'retention', 'good.json', 'bad.json', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    // (With --json the failure is JSON too.)
    expect((JSON.parse(bad.stderr) as { error: { message: string } }).error.message).toMatch(/^bad\.json is not a valid key-fact conversation: keyFacts\[0\]\.tier \(fact "x"\): /u);

    ws.write('broken.json', '[1, 2');
    expect((await ws.run(['eval', 'retention', 'broken.json'])).code).toBe(2);
    expect((await ws.run(['eval', 'retention', 'missing.json'])).code).toBe(2);
    expect((await ws.run(['eval', 'retention', 'good.json', '--budget', '0'])).code).toBe(2);
    expect((await ws.run(['eval', 'retention'])).code).toBe(2);
  });

  it('runs the bundled example conversations: every one present, all within budget', async () => {
    const result = await ws.run(['eval', 'retention', join(ROOT, 'examples', 'conversations'), join(ROOT, 'examples', 'demo-conversation.json'), '--json'], {
      noDb: true,
    });
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as RetentionJson;
    const folder = readdirSync(join(ROOT, 'examples', 'conversations')).filter((name) => name.endsWith('.json')).sort();
    const expectedIds = [
      ...folder.map((name) => (JSON.parse(readFileSync(join(ROOT, 'examples', 'conversations', name), 'utf8')) as { id: string }).id),
      'support-app-migration',
    ];
    expect(data.conversations.map((conversation) => conversation.id)).toEqual(expectedIds);
    expect(data.budgetCompliance).toBe(1);
    expect(data.meanScore).toBeGreaterThanOrEqual(0);
    expect(data.meanScore).toBeLessThanOrEqual(1);
    for (const conversation of data.conversations) {
      expect(conversation.contextTokens).toBeLessThanOrEqual(conversation.budget);
      expect(conversation.originalTokens).toBeGreaterThan(conversation.contextTokens);
      expect(conversation.tokenReduction).toBeGreaterThan(0);
      expect(conversation.tokenReduction).toBeLessThan(1);
      expect(conversation.facts.length).toBeGreaterThan(0);
      for (const fact of conversation.facts) {
        expect(Object.keys(fact)).toEqual(['id', 'tier', 'status']);
        expect(['preserved', 'partial', 'missing']).toContain(fact.status);
      }
    }
    expect(existsSync(ws.db)).toBe(false);
  }, 120_000);

  it('is listed in help, and the eval command lists retention', async () => {
    const help = await ws.run(['--help'], { noDb: true });
    expect(help.stdout).toContain('eval');
    const sub = await ws.run(['eval', '--help'], { noDb: true });
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('retention');
  });

  it('documents the LoCoMo manager list and both --json shapes in the help', async () => {
    const help = await ws.run(['eval', 'locomo', '--help'], { noDb: true });
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/gu, ' ');
    expect(text).toContain('--manager <names> who writes memory during the replay: local, recorded, or both side by side (local,recorded) (default: local)');
    expect(text).toContain('{"numbering", "manager", "tokenizer", "budgetCompliance", "results": [{"system", "budget", "category", "n", "evidenceRecall", "answerContainment"}]');
    expect(text).toContain('"tokens": [{"system", "budget", "mean", "max", "meanFill"}]}');
    expect(text).toContain('{"numbering", "tokenizer", "runs": [<the one-manager document of each manager>]}');
  });

  it('exits 2 naming the bad value of a manager list, before reading the dataset', async () => {
    const result = await ws.run(['eval', 'locomo', 'missing.json', '--manager', 'local,bogus'], { noDb: true });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Unknown manager "bogus"');
    expect(result.stderr).not.toContain('missing.json');
  });
});
