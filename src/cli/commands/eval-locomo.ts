import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { applyCorrections, parseLocomo, type CorrectionReport } from '../../eval/locomo/dataset.js';
import {
  categoryTable,
  complianceTable,
  conversationTable,
  correctionLines,
  locomoReport,
  numberingNote,
  percent,
  recallTable,
  recordedLines,
  type Table,
} from '../../eval/locomo/report.js';
import { writeReportFolder } from '../../eval/charts/write-report-folder.js';
import { DEFAULT_BUDGETS, runLocomo, type LocomoRunResult } from '../../eval/locomo/run-locomo.js';
import type { LocomoManagerName } from '../../eval/locomo/evaluate.js';
import { resolveSettings } from '../../memory/config.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatTable } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions, memoryOptions } from '../open-memory.js';
import { integerOption, parseWholeNumber } from '../parse.js';
import { readInputFile } from '../read-input.js';

interface EvalLocomoOptions {
  budgets: number[];
  manager: LocomoManagerName;
  corrections?: string;
  report?: string;
  threads?: number;
}

/** `1000,2000,4000` → [1000, 2000, 4000] (whole numbers ≥ 1, no repeats, kept in the given order). */
export function parseBudgets(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  const budgets: number[] = [];
  for (const part of parts) {
    const value = parseWholeNumber(part);
    if (value === null || value < 1) throw new InvalidArgumentError(`Expected comma-separated whole numbers ≥ 1 (got "${part}")`);
    if (!budgets.includes(value)) budgets.push(value);
  }
  if (budgets.length === 0) throw new InvalidArgumentError('Expected at least one budget');
  return budgets;
}

/** The `--json` document: exactly the fields other tools read. */
export function locomoJson(result: LocomoRunResult): unknown {
  return {
    numbering: result.numbering,
    manager: result.manager,
    tokenizer: result.tokenizer,
    budgetCompliance: result.budgetCompliance,
    results: result.results.map((row) => ({
      system: row.system,
      budget: row.budget,
      category: row.category,
      n: row.n,
      evidenceRecall: row.evidenceRecall,
      answerContainment: row.answerContainment,
    })),
  };
}

function printTable(io: CliIo, table: Table): void {
  writeLine(io.stdout, table.title);
  writeLine(io.stdout, formatTable(table.columns, table.rows));
  writeLine(io.stdout);
}

/** A progress bar on stderr (terminal only), created on the first report. */
function progressBar(io: CliIo, enabled: boolean): { update: (progress: { done: number; total: number; sampleId: string; phase: string }) => void; stop: () => void } {
  let bar: SingleBar | null = null;
  return {
    update: ({ done, total, sampleId, phase }) => {
      if (!enabled) return;
      const payload = { sampleId, phase: phase === 'replay' ? 'replaying' : 'assembling' };
      if (bar === null) {
        // cli-progress only writes text and cursor escapes to the stream and reads isTTY/columns.
        bar = new SingleBar({
          stream: io.stderr as unknown as NodeJS.WritableStream,
          format: 'LoCoMo [{bar}] {percentage}% | {sampleId} {phase}',
          hideCursor: true,
          clearOnComplete: true,
        });
        bar.start(total, 0, payload);
      }
      bar.update(done, payload);
    },
    stop: () => {
      bar?.stop();
      bar = null;
    },
  };
}

/**
 * Register `locomo` under the `eval` command:
 * `strata eval locomo <file> [--budgets 1000,2000,4000,8000] [--manager local|recorded] [--corrections file] [--json] [--report dir]`.
 */
export function registerEvalLocomo(evalCommand: Command, io: CliIo): void {
  evalCommand
    .command('locomo')
    .description('LoCoMo evidence recall at a budget (ER@B), with answer containment and the recency and BM25-greedy baselines')
    .argument('<file>', 'LoCoMo JSON file (an array of samples with conversation and qa)')
    .option('--budgets <list>', 'comma-separated token budgets', parseBudgets, [...DEFAULT_BUDGETS])
    .addOption(new Option('--manager <name>', 'who writes memory during the replay').choices(['local', 'recorded']).default('local'))
    .option('--corrections <file>', "audit file whose WRONG_CITATION entries replace the gold evidence")
    .option('--report <dir>', 'write report.md (tables and SVG charts) and results.json into this folder')
    .option('--threads <n>', 'conversations evaluated at once (default: one per core)', integerOption(1))
    .action(async (file: string, options: EvalLocomoOptions, command: Command) => {
      const globals = globalOptions(command);
      const memory = memoryOptions(globals, io, ':memory:');
      const configFile = typeof memory.configFile === 'string' ? memory.configFile : undefined;
      const tokenizer = resolveSettings({
        options: { tokenizer: globals.tokenizer },
        env: io.env,
        ...(configFile === undefined ? {} : { configFile }),
      }).tokenizer;

      const loaded = parseLocomo(readInputFile(file, io.cwd), file);
      let dataset = loaded;
      let corrections: CorrectionReport | null = null;
      if (options.corrections !== undefined) {
        const applied = applyCorrections(loaded, readInputFile(options.corrections, io.cwd), options.corrections);
        dataset = applied.dataset;
        corrections = applied.report;
        if (corrections.wrongCitations > 0 && corrections.applied === 0) {
          throw new CliError(`${options.corrections}: none of its ${corrections.wrongCitations} WRONG_CITATION entries matches a question of ${file}.`, EXIT.usage);
        }
      }

      if (options.manager === 'recorded' && dataset.samples.every((sample) => sample.observations.length === 0 && sample.sessionSummaries.length === 0)) {
        writeLine(io.stderr, `strata: warning: ${file} has no observation or session_summary; the recorded manager plays back no memory, only the raw turns.`);
      }

      const bar = progressBar(io, io.stderr.isTTY === true && !globals.json);
      let result: LocomoRunResult;
      try {
        result = await runLocomo({
          dataset,
          budgets: options.budgets,
          manager: options.manager,
          tokenizer,
          env: { ...io.env },
          ...(configFile === undefined ? {} : { configFile }),
          concurrency: options.threads ?? Math.min(availableParallelism(), dataset.samples.length),
          onProgress: bar.update,
        });
      } finally {
        bar.stop();
      }

      if (options.report !== undefined) {
        const folder = resolve(io.cwd, options.report);
        try {
          await writeReportFolder(folder, locomoReport(result, { file, corrections, correctionsFile: options.corrections ?? null, warnings: dataset.warnings }));
          writeFileSync(join(folder, 'results.json'), `${JSON.stringify({ ...result, corrections, warnings: dataset.warnings }, null, 2)}\n`, 'utf8');
        } catch (error) {
          throw new CliError(`Cannot write the report into ${options.report}: ${(error as Error).message}`, EXIT.failure, { cause: error });
        }
      }

      if (globals.json) {
        writeJson(io.stdout, locomoJson(result));
        return;
      }
      const items = result.conversations.reduce((sum, entry) => sum + entry.qaItems, 0);
      writeLine(
        io.stdout,
        `LoCoMo evidence recall at a budget — ${file}: ${result.conversations.length} conversations, ${items} QA items; manager ${result.manager}, tokenizer ${result.tokenizer}`,
      );
      writeLine(io.stdout, numberingNote());
      for (const line of correctionLines(corrections, options.corrections ?? null)) writeLine(io.stdout, line);
      writeLine(io.stdout);
      for (const table of [recallTable(result, '1-4'), recallTable(result, 'all'), recallTable(result, '5'), categoryTable(result), complianceTable(result), conversationTable(result)]) {
        printTable(io, table);
      }
      for (const line of recordedLines(result)) writeLine(io.stdout, line);
      if (dataset.warnings.length > 0) writeLine(io.stdout, `Data quirks repaired: ${dataset.warnings.length} (listed in the report).`);
      writeLine(
        io.stdout,
        `Budget compliance ${percent(result.budgetCompliance)} % of ${result.compliance.reduce((sum, entry) => sum + entry.packages, 0)} packages; took ${(result.elapsedMs / 1000).toFixed(1)} s on ${result.threads} thread(s).`,
      );
      if (options.report !== undefined) writeLine(io.stdout, `Report: ${join(options.report, 'report.md')}`);
    });
}

