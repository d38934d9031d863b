import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEvalLocomo } from '../../../src/cli/commands/eval-locomo.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';
import { baselineTurns, bm25GreedyPackage, createBm25Index, recencyPackage } from '../../../src/eval/locomo/baselines.js';
import { parseLocomo, type LocomoSample } from '../../../src/eval/locomo/dataset.js';
import { recordedScript } from '../../../src/eval/locomo/recorded.js';
import { replayConversation } from '../../../src/eval/locomo/replay.js';
import { runLocomo } from '../../../src/eval/locomo/run-locomo.js';
import { runLocomoManagers } from '../../../src/eval/locomo/run-managers.js';
import { createRecordedMemoryManager } from '../../../src/managers/recorded/index.js';
import { createGptTokenizer } from '../../../src/providers/tokenizer/gpt-tokenizer.js';
import { captureIo } from '../../cli/helpers.js';
import { miniCorrections, miniLocomo } from './fixtures.js';

describe('runLocomo', () => {
  it('scores the engine and both baselines per budget and category (recorded manager)', async () => {
    const progress: number[] = [];
    const result = await runLocomo({
      dataset: parseLocomo(miniLocomo()),
      budgets: [60, 4000],
      manager: 'recorded',
      tokenizer: 'o200k_base',
      onProgress: ({ done }) => progress.push(done),
    });
    expect(result).toMatchObject({ numbering: 'locomo-paper', manager: 'recorded', tokenizer: 'o200k_base', budgetCompliance: 1, threads: 1 });
    expect(result.results).toHaveLength(3 * 2 * 7);
    // 4 turns replayed + 5 questions × 2 budgets.
    expect(progress.at(-1)).toBe(4 + 10);
    const at = (system: string, budget: number, category: string) =>
      result.results.find((row) => row.system === system && row.budget === budget && row.category === category);
    // Everything fits 4000 tokens: every system recalls all evidence.
    for (const system of ['strata', 'bm25-greedy', 'recency']) {
      expect(at(system, 4000, 'all')).toMatchObject({ n: 4, evidenceRecall: 1 });
      expect(at(system, 4000, '1-4')).toMatchObject({ n: 3, evidenceRecall: 1, answerContainment: 1, answerItems: 2 });
    }
    // Answers found verbatim in the transcript: "Miso" and "2024" (the others are paraphrases or missing).
    expect(at('strata', 4000, '3')).toMatchObject({ n: 0, evidenceRecall: null, answerContainment: null });
    // 60 tokens hold about two raw turns: recency has the end of session 2 only.
    expect(at('recency', 60, '4')).toMatchObject({ n: 1, evidenceRecall: 0 });
    expect(at('recency', 60, '5')).toMatchObject({ n: 1, evidenceRecall: 1 });
    expect(at('bm25-greedy', 60, '4')).toMatchObject({ evidenceRecall: 1 });
    for (const entry of result.compliance) expect(entry).toMatchObject({ packages: 10, compliance: 1 });
    expect(result.recorded).toMatchObject({
      proposed: { observations: 5, sessionSummaries: 2 },
      added: { sessionSummaries: 0 },
      rejected: { sessionSummaries: { 'outside-exchange': 2 } },
    });
    expect(result.recorded?.rejected.observations['outside-exchange']).toBe(1);
    // Summary 2 is supported by its session; summary 1 says "Sundays" where the session says "Sunday".
    expect(result.recorded?.sessionSummariesGroundedInSession).toBe(1);
    expect(result.conversations[0]).toMatchObject({ sampleId: 'mini-1', messages: 6, turns: 4, qaItems: 5 });
  });

  it('runs with the local manager', async () => {
    const result = await runLocomo({ dataset: parseLocomo(miniLocomo()), budgets: [4000], manager: 'local', tokenizer: 'cl100k_base' });
    expect(result).toMatchObject({ manager: 'local', tokenizer: 'cl100k_base', budgetCompliance: 1, recorded: null });
    expect(result.results.find((row) => row.system === 'strata' && row.category === 'all')).toMatchObject({ n: 4, evidenceRecall: 1 });
  });

  it('keeps the mean and largest rendered tokens of the packages per system and budget', async () => {
    const budgets = [60, 4000];
    const result = await runLocomo({ dataset: parseLocomo(miniLocomo()), budgets, manager: 'recorded', tokenizer: 'o200k_base' });
    expect(result.tokens.map((row) => [row.system, row.budget])).toEqual([
      ['strata', 60],
      ['strata', 4000],
      ['bm25-greedy', 60],
      ['bm25-greedy', 4000],
      ['recency', 60],
      ['recency', 4000],
    ]);
    // The same packages assembled again from a fresh replay, each counted by rendering it.
    const sample = parseLocomo(miniLocomo()).samples[0] as LocomoSample;
    const tokenizer = createGptTokenizer({ encoding: 'o200k_base' });
    const replayed = await replayConversation(sample, { manager: createRecordedMemoryManager({ turns: recordedScript(sample).turns }), tokenizer });
    try {
      const turns = baselineTurns(
        replayed.messages.map((message) => ({ id: message.messageId, role: message.role, speaker: message.speaker, content: message.content })),
        tokenizer,
      );
      const index = createBm25Index(turns.map((turn) => turn.content));
      for (const budget of budgets) {
        const rendered: Record<string, number[]> = { strata: [], 'bm25-greedy': [], recency: [] };
        for (const item of sample.qa) {
          const pkg = await replayed.session.context({ budget, query: item.question });
          rendered.strata?.push(tokenizer.countMessages(pkg.render()));
          rendered['bm25-greedy']?.push(tokenizer.countMessages(bm25GreedyPackage(turns, index, item.question, budget).render()));
          rendered.recency?.push(tokenizer.countMessages(recencyPackage(turns, budget).render()));
        }
        for (const [system, tokens] of Object.entries(rendered)) {
          const mean = tokens.reduce((sum, value) => sum + value, 0) / tokens.length;
          const max = Math.max(...tokens);
          expect(max).toBeLessThanOrEqual(budget);
          expect(result.tokens.find((row) => row.system === system && row.budget === budget)).toEqual({
            system,
            budget,
            packages: 5,
            mean: expect.closeTo(mean, 9) as number,
            max,
            meanFill: expect.closeTo(mean / budget, 9) as number,
          });
        }
      }
      // 60 tokens is tight: some package uses more than half of it; 4000 is far more than the conversation.
      expect(result.tokens.find((row) => row.system === 'recency' && row.budget === 60)?.max).toBeGreaterThan(30);
      expect(result.tokens.find((row) => row.system === 'strata' && row.budget === 4000)?.meanFill).toBeLessThan(0.1);
    } finally {
      await replayed.close();
    }
  });

  it('runs each manager over the same data, with the same baselines, in the order asked for', async () => {
    const progress = new Set<string>();
    const comparison = await runLocomoManagers({
      dataset: parseLocomo(miniLocomo()),
      budgets: [60, 4000],
      managers: ['recorded', 'local'],
      tokenizer: 'o200k_base',
      onProgress: ({ manager }) => progress.add(manager),
    });
    expect(comparison).toMatchObject({ numbering: 'locomo-paper', tokenizer: 'o200k_base', budgets: [60, 4000] });
    expect(comparison.runs.map((run) => run.manager)).toEqual(['recorded', 'local']);
    expect([...progress]).toEqual(['recorded', 'local']);
    const [recorded, local] = comparison.runs;
    expect(recorded?.recorded).not.toBeNull();
    expect(local?.recorded).toBeNull();
    const baselines = (rows: ReadonlyArray<{ system: string }> | undefined) => rows?.filter((row) => row.system !== 'strata');
    expect(baselines(local?.results)).toHaveLength(2 * 2 * 7);
    expect(baselines(local?.results)).toEqual(baselines(recorded?.results));
    expect(baselines(local?.tokens)).toEqual(baselines(recorded?.tokens));
    // Each run is a whole one-manager run: the same as runLocomo gives for that manager.
    const alone = await runLocomo({ dataset: parseLocomo(miniLocomo()), budgets: [60, 4000], manager: 'local', tokenizer: 'o200k_base' });
    expect(local?.results).toEqual(alone.results);
    expect(local?.tokens).toEqual(alone.tokens);
  });

  it('refuses an empty, unknown or repeated manager list', async () => {
    const dataset = parseLocomo(miniLocomo());
    await expect(runLocomoManagers({ dataset, budgets: [100], managers: [], tokenizer: 'o200k_base' })).rejects.toThrow(/at least one manager/u);
    await expect(runLocomoManagers({ dataset, budgets: [100], managers: ['local', 'local'], tokenizer: 'o200k_base' })).rejects.toThrow(/"local" is named twice/u);
  });

  it('refuses bad budgets', async () => {
    await expect(runLocomo({ dataset: parseLocomo(miniLocomo()), budgets: [], manager: 'local', tokenizer: 'o200k_base' })).rejects.toThrow(/at least one budget/u);
    await expect(runLocomo({ dataset: parseLocomo(miniLocomo()), budgets: [0], manager: 'local', tokenizer: 'o200k_base' })).rejects.toThrow(/whole number of tokens ≥ 1/u);
  });
});

describe('strata eval locomo', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-locomo-'));
    writeFileSync(join(dir, 'mini.json'), JSON.stringify(miniLocomo()));
    writeFileSync(join(dir, 'audit.json'), JSON.stringify(miniCorrections()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A small program with the `eval` parent, as the real CLI registers it. */
  async function run(args: string[], options: { tty?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const io = captureIo({ cwd: dir, stderrIsTty: options.tty === true });
    const program = new Command('strata').option('--json').option('--tokenizer <name>').exitOverride().configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: () => undefined,
    });
    const evalCommand = program.command('eval').exitOverride();
    registerEvalLocomo(evalCommand, io);
    let code = 0;
    try {
      await program.parseAsync(['node', 'strata', ...args]);
    } catch (error) {
      code = exitCodeFor(error);
      io.stderr.write(`strata: ${error instanceof CommanderError || error instanceof Error ? error.message : String(error)}\n`);
    }
    return { code, stdout: io.out(), stderr: io.err() };
  }

  it('prints exactly the JSON document other tools read', async () => {
    const { code, stdout, stderr } = await run(['eval', 'locomo', 'mini.json', '--budgets', '100,4000', '--manager', 'recorded', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as Record<string, unknown> & { results: Array<Record<string, unknown>>; tokens: Array<{ system: string; budget: number; mean: number; max: number }> };
    // The fixed fields in their order, then the optional token figures.
    expect(Object.keys(json)).toEqual(['numbering', 'manager', 'tokenizer', 'budgetCompliance', 'results', 'tokens']);
    expect(json).toMatchObject({ numbering: 'locomo-paper', manager: 'recorded', tokenizer: 'o200k_base', budgetCompliance: 1 });
    expect(json.results).toHaveLength(3 * 2 * 7);
    expect(Object.keys(json.results[0] ?? {})).toEqual(['system', 'budget', 'category', 'n', 'evidenceRecall', 'answerContainment']);
    expect(new Set(json.results.map((row) => row.system))).toEqual(new Set(['strata', 'bm25-greedy', 'recency']));
    expect(new Set(json.results.map((row) => row.category))).toEqual(new Set(['1', '2', '3', '4', '5', '1-4', 'all']));
    expect(json.tokens.map((row) => Object.keys(row))).toEqual(Array.from({ length: 6 }, () => ['system', 'budget', 'mean', 'max', 'meanFill']));
    expect(json.tokens.map((row) => [row.system, row.budget])).toEqual([
      ['strata', 100],
      ['strata', 4000],
      ['bm25-greedy', 100],
      ['bm25-greedy', 4000],
      ['recency', 100],
      ['recency', 4000],
    ]);
    for (const row of json.tokens) {
      expect(row.max).toBeLessThanOrEqual(row.budget);
      expect(row.mean).toBeGreaterThan(0);
      expect(row.mean).toBeLessThanOrEqual(row.max);
    }
  });

  it('prints each manager\'s one-manager document under "runs" with two managers', async () => {
    const both = await run(['eval', 'locomo', 'mini.json', '--budgets', '100,4000', '--manager', 'local,recorded', '--json']);
    expect(both.stderr).toBe('');
    expect(both.code).toBe(0);
    const json = JSON.parse(both.stdout) as { numbering: string; tokenizer: string; runs: Array<Record<string, unknown>> };
    expect(Object.keys(json)).toEqual(['numbering', 'tokenizer', 'runs']);
    expect(json).toMatchObject({ numbering: 'locomo-paper', tokenizer: 'o200k_base' });
    expect(json.runs.map((entry) => entry.manager)).toEqual(['local', 'recorded']);
    for (const manager of ['local', 'recorded']) {
      const alone = await run(['eval', 'locomo', 'mini.json', '--budgets', '100,4000', '--manager', manager, '--json']);
      expect(json.runs.find((entry) => entry.manager === manager)).toEqual(JSON.parse(alone.stdout));
    }
  });

  it('prints the managers side by side and writes one report with both', async () => {
    const { code, stdout, stderr } = await run(['eval', 'locomo', 'mini.json', '--budgets', '60,4000', '--manager', 'local,recorded', '--report', 'both']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('managers local and recorded side by side, tokenizer o200k_base');
    const header = /^budget\s+ER local\s+ER recorded\s+ER bm25-greedy\s+ER recency\s+AC local\s+AC recorded\s+AC bm25-greedy\s+AC recency$/gmu;
    expect(stdout.match(header)).toHaveLength(2);
    expect(stdout).toMatch(/^Categories 1–4, managers side by side: ER@B % over 3 items with evidence/mu);
    expect(stdout).toMatch(/^All categories, managers side by side: ER@B % over 4 items with evidence/mu);
    // Everything fits 4000 tokens: all four recall every piece of evidence and contain every answer.
    expect(stdout.match(/^ *4000(?: +100\.0){8}$/gmu)).toHaveLength(2);
    expect(stdout).toMatch(/^strata \(local\)\s+60\s+5\s+\d+\.\d\s+\d+\s+\d+\.\d$/mu);
    expect(stdout).toMatch(/^strata \(recorded\)\s+4000\s+5\s/mu);
    expect(stdout).toContain('Recorded memory: 5 observation facts proposed');
    expect(stdout).toMatch(/^Budget compliance: local run 100\.0 % of 30 packages; recorded run 100\.0 % of 30 packages\.$/mu);

    const report = readFileSync(join(dir, 'both', 'report.md'), 'utf8');
    expect(report).toContain('## Managers side by side');
    expect(report).toContain('| budget | ER local | ER recorded | ER bm25-greedy | ER recency | AC local | AC recorded | AC bm25-greedy | AC recency |');
    expect(report).toContain('### Tokens used against budget');
    expect(report).toMatch(/^\| strata \(recorded\) \| 60 \| 5 \| \d+\.\d \| \d+ \| \d+\.\d \|$/mu);
    // Then each run's own sections, as a one-manager report has them.
    expect(report.indexOf('## Manager `local`')).toBeGreaterThan(report.indexOf('## Managers side by side'));
    expect(report.indexOf('## Manager `recorded`')).toBeGreaterThan(report.indexOf('## Manager `local`'));
    expect(report.match(/^### Per category \(ER@B % and answer containment %\)$/gmu)).toHaveLength(2);
    expect(report).toContain('### Recorded memory');
    const compared = readFileSync(join(dir, 'both', 'charts', 'er-at-budget-managers.svg'), 'utf8');
    for (const name of ['strata (local)', 'strata (recorded)', 'bm25-greedy', 'recency']) expect(compared).toContain(`>${name}</text>`);
    const tokens = readFileSync(join(dir, 'both', 'charts', 'tokens-against-budget-managers.svg'), 'utf8');
    for (const name of ['Tokens used against budget', 'strata (local)', 'strata (recorded)', 'budget 60', 'budget 4,000']) expect(tokens).toContain(`>${name}</text>`);
    for (const chart of ['er-at-budget-managers', 'tokens-against-budget-managers', 'er-at-budget-local', 'er-at-budget-by-category-recorded', 'tokens-against-budget-recorded']) {
      expect(report).toContain(`](charts/${chart}.svg)`);
    }
    const results = JSON.parse(readFileSync(join(dir, 'both', 'results.json'), 'utf8')) as { runs: Array<{ manager: string; tokens: unknown[] }> };
    expect(results.runs.map((entry) => [entry.manager, entry.tokens.length])).toEqual([
      ['local', 6],
      ['recorded', 6],
    ]);
  });

  it('prints the tables, applies corrections and writes a report', async () => {
    const { code, stdout } = await run(['eval', 'locomo', 'mini.json', '--budgets', '4000', '--corrections', 'audit.json', '--report', 'out', '--tokenizer', 'cl100k_base'], { tty: true });
    expect(code).toBe(0);
    expect(stdout).toContain('Categories in LoCoMo-paper numbering: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial.');
    expect(stdout).toContain('2 of 3 WRONG_CITATION entries applied (1 matched by question id, 1 by question text)');
    expect(stdout).toContain('manager local, tokenizer cl100k_base');
    expect(stdout).toMatch(/^Categories 1–4: ER@B % over 3 items with evidence/mu);
    expect(stdout).toMatch(/^Category 5 \(adversarial\): ER@B %/mu);
    const report = readFileSync(join(dir, 'out', 'report.md'), 'utf8');
    expect(report).toContain('# LoCoMo evidence recall at a budget — mini.json');
    expect(report).toContain('| budget | ER strata | ER bm25-greedy | ER recency |');
    for (const chart of ['er-at-budget', 'er-at-budget-by-category']) {
      expect(report).toContain(`](charts/${chart}.svg)`);
      const svg = readFileSync(join(dir, 'out', 'charts', `${chart}.svg`), 'utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/u);
      for (const name of ['strata', 'bm25-greedy', 'recency', 'budget (tokens)', '4,000']) expect(svg).toContain(`>${name}</text>`);
    }
    expect(report).toContain('## Tokens used against budget (rendered tokens of the packages, chat overhead included)\n\n| system | budget | packages | mean tokens | max tokens | mean fill % |');
    expect(report).toContain('](charts/tokens-against-budget.svg)');
    const tokens = readFileSync(join(dir, 'out', 'charts', 'tokens-against-budget.svg'), 'utf8');
    for (const name of ['Tokens used against budget', 'strata', 'budget 4,000']) expect(tokens).toContain(`>${name}</text>`);
    expect(stdout).toMatch(/^recency\s+4000\s+5\s+\d+\.\d\s+\d+\s+\d+\.\d$/mu);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'))).toMatchObject({ numbering: 'locomo-paper', corrections: { applied: 2 } });
  });

  it('exits 2 on bad input', async () => {
    expect((await run(['eval', 'locomo', 'mini.json', '--budgets', '10,x'])).code).toBe(2);
    const model = await run(['eval', 'locomo', 'mini.json', '--manager', 'model']);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('Unknown manager "model"');
    const bogus = await run(['eval', 'locomo', 'mini.json', '--manager', 'local,bogus', '--json']);
    expect(bogus).toMatchObject({ code: 2, stdout: '' });
    expect(bogus.stderr).toContain("option '--manager <names>' argument 'local,bogus' is invalid. Unknown manager \"bogus\": use local or recorded, or both separated by a comma.");
    const twice = await run(['eval', 'locomo', 'mini.json', '--manager', 'recorded, recorded']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('The manager "recorded" is named twice');
    const empty = await run(['eval', 'locomo', 'mini.json', '--manager', 'local,']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('got an empty name in "local,"');
    expect((await run(['eval', 'locomo', 'missing.json'])).code).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{"conversation": {}}');
    const bad = await run(['eval', 'locomo', 'bad.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.json is not a LoCoMo file');
  });

  it('warns when the recorded manager has nothing to play back', async () => {
    const bare = miniLocomo() as Array<Record<string, unknown>>;
    for (const sample of bare) {
      delete sample.observation;
      delete sample.session_summary;
    }
    writeFileSync(join(dir, 'bare.json'), JSON.stringify(bare));
    const { code, stderr } = await run(['eval', 'locomo', 'bare.json', '--manager', 'recorded', '--budgets', '500', '--json']);
    expect(code).toBe(0);
    expect(stderr).toContain('bare.json has no observation or session_summary');
  });
});
