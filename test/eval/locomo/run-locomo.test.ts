import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEvalLocomo } from '../../../src/cli/commands/eval-locomo.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';
import { parseLocomo } from '../../../src/eval/locomo/dataset.js';
import { runLocomo } from '../../../src/eval/locomo/run-locomo.js';
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
    const json = JSON.parse(stdout) as Record<string, unknown> & { results: Array<Record<string, unknown>> };
    expect(Object.keys(json)).toEqual(['numbering', 'manager', 'tokenizer', 'budgetCompliance', 'results']);
    expect(json).toMatchObject({ numbering: 'locomo-paper', manager: 'recorded', tokenizer: 'o200k_base', budgetCompliance: 1 });
    expect(json.results).toHaveLength(3 * 2 * 7);
    expect(Object.keys(json.results[0] ?? {})).toEqual(['system', 'budget', 'category', 'n', 'evidenceRecall', 'answerContainment']);
    expect(new Set(json.results.map((row) => row.system))).toEqual(new Set(['strata', 'bm25-greedy', 'recency']));
    expect(new Set(json.results.map((row) => row.category))).toEqual(new Set(['1', '2', '3', '4', '5', '1-4', 'all']));
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
    expect(JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'))).toMatchObject({ numbering: 'locomo-paper', corrections: { applied: 2 } });
  });

  it('exits 2 on bad input', async () => {
    expect((await run(['eval', 'locomo', 'mini.json', '--budgets', '10,x'])).code).toBe(2);
    expect((await run(['eval', 'locomo', 'mini.json', '--manager', 'model'])).code).toBe(2);
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
