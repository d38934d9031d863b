import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { applyCorrections, type CorrectionReport } from '../../eval/locomo/corrections.js';
import { parseLocomo } from '../../eval/locomo/dataset.js';
import { isStrataError } from '../../core/errors.js';
import { managersReport, managersTables } from '../../eval/locomo/managers-report.js';
import {
  correctionLines,
  locomoReport,
  numberingNote,
  percent,
  qaItemCount,
  recordedLines,
  runTables,
  runTiming,
  type ReportContext,
  type Table,
} from '../../eval/locomo/report.js';
import { writeReportFolder } from '../../eval/charts/write-report-folder.js';
import type { ReportContent } from '../../eval/charts/report-chart.js';
import { DEFAULT_BUDGETS, type LocomoProgress, type LocomoRunResult } from '../../eval/locomo/run-locomo.js';
import { checkManagers, runLocomoManagers, type LocomoComparison } from '../../eval/locomo/run-managers.js';
import type { LocomoManagerName } from '../../eval/locomo/evaluate.js';
import { resolveSettings } from '../../memory/config.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatTable } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { isPostgresUrl } from '../../memory/default-store.js';
import { databasePath, globalOptions, memoryOptions } from '../open-memory.js';
import { integerOption, parseWholeNumber } from '../parse.js';
import { readInputFile } from '../read-input.js';

interface EvalLocomoOptions {
  budgets: number[];
  manager: LocomoManagerName[];
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

/**
 * `local,recorded` → ['local', 'recorded']: managers named once each, kept in the given order. A bad list
 * becomes a usage error (exit 2) naming the bad value.
 */
function parseManagers(text: string): LocomoManagerName[] {
  const names = text.split(',').map((part) => part.trim());
  if (names.includes('')) throw new InvalidArgumentError(`Expected manager names separated by commas, such as local,recorded (got an empty name in "${text}")`);
  try {
    return checkManagers(names);
  } catch (error) {
    if (isStrataError(error)) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/**
 * The `--json` document of a one-manager run: exactly the fields other tools read, in this order, then
 * `tokens` (mean and largest package tokens and the mean fill per system and budget).
 */
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
    tokens: result.tokens.map((row) => ({ system: row.system, budget: row.budget, mean: row.mean, max: row.max, meanFill: row.meanFill })),
  };
}

/** The `--json` document of runs with several managers: `{"numbering", "tokenizer", "runs": [<locomoJson of each run>]}`. */
function managersJson(comparison: LocomoComparison): unknown {
  return { numbering: comparison.numbering, tokenizer: comparison.tokenizer, runs: comparison.runs.map(locomoJson) };
}

function printTable(io: CliIo, table: Table): void {
  writeLine(io.stdout, table.title);
  writeLine(io.stdout, formatTable(table.columns, table.rows));
  writeLine(io.stdout);
}

/** A progress bar on stderr (terminal only), created on the first report and again for each manager's run. */
function progressBar(io: CliIo, enabled: boolean): { update: (progress: LocomoProgress & { manager: LocomoManagerName }) => void; stop: () => void } {
  let bar: SingleBar | null = null;
  let barManager: LocomoManagerName | null = null;
  const stop = (): void => {
    bar?.stop();
    bar = null;
  };
  return {
    update: ({ done, total, sampleId, phase, manager }) => {
      if (!enabled) return;
      const payload = { sampleId, manager, phase: phase === 'replay' ? 'replaying' : 'assembling' };
      if (bar !== null && barManager !== manager) stop();
      if (bar === null) {
        // cli-progress only writes text and cursor escapes to the stream and reads isTTY/columns.
        bar = new SingleBar({
          stream: io.stderr as unknown as NodeJS.WritableStream,
          format: 'LoCoMo ({manager}) [{bar}] {percentage}% | {sampleId} {phase}',
          hideCursor: true,
          clearOnComplete: true,
        });
        barManager = manager;
        bar.start(total, 0, payload);
      }
      bar.update(done, payload);
    },
    stop,
  };
}

/** Write `report.md`, its charts and `results.json` (the whole run) into the report folder. */
async function writeLocomoReport(folder: string, shown: string, report: ReportContent, results: unknown): Promise<void> {
  try {
    await writeReportFolder(folder, report);
    writeFileSync(join(folder, 'results.json'), `${JSON.stringify(results, null, 2)}\n`, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot write the report into ${shown}: ${(error as Error).message}`, EXIT.failure, { cause: error });
  }
}

function complianceLine(result: LocomoRunResult): string {
  return `${percent(result.budgetCompliance)} % of ${result.compliance.reduce((sum, entry) => sum + entry.packages, 0)} packages`;
}

/** The human output of a one-manager run. */
function printRun(io: CliIo, result: LocomoRunResult, file: string, context: ReportContext): void {
  writeLine(io.stdout, `LoCoMo evidence recall at a budget — ${file}: ${result.conversations.length} conversations, ${qaItemCount(result)} QA items; manager ${result.manager}, tokenizer ${result.tokenizer}`);
  writeLine(io.stdout, numberingNote());
  for (const line of correctionLines(context.corrections, context.correctionsFile)) writeLine(io.stdout, line);
  writeLine(io.stdout);
  for (const { table } of runTables(result)) printTable(io, table);
  for (const line of recordedLines(result)) writeLine(io.stdout, line);
  if (context.warnings.length > 0) writeLine(io.stdout, `Data quirks repaired: ${context.warnings.length} (listed in the report).`);
  writeLine(io.stdout, `Budget compliance ${complianceLine(result)}; took ${runTiming(result)}.`);
}

/** The human output of runs with several managers: the side-by-side tables, then what differs per run. */
function printComparison(io: CliIo, comparison: LocomoComparison, file: string, context: ReportContext): void {
  const { runs } = comparison;
  const first = runs[0];
  writeLine(
    io.stdout,
    `LoCoMo evidence recall at a budget — ${file}: ${first?.conversations.length ?? 0} conversations, ${first === undefined ? 0 : qaItemCount(first)} QA items; managers ${runs.map((run) => run.manager).join(' and ')} side by side, tokenizer ${comparison.tokenizer}`,
  );
  writeLine(io.stdout, numberingNote());
  for (const line of correctionLines(context.corrections, context.correctionsFile)) writeLine(io.stdout, line);
  writeLine(io.stdout, 'The baselines do not depend on the manager: every run computed the same ones.');
  writeLine(io.stdout);
  for (const table of managersTables(comparison)) printTable(io, table);
  for (const line of runs.flatMap(recordedLines)) writeLine(io.stdout, line);
  if (context.warnings.length > 0) writeLine(io.stdout, `Data quirks repaired: ${context.warnings.length} (listed in the report).`);
  writeLine(io.stdout, `Budget compliance: ${runs.map((run) => `${run.manager} run ${complianceLine(run)}`).join('; ')}.`);
  writeLine(
    io.stdout,
    `Took ${(comparison.elapsedMs / 1000).toFixed(1)} s (${runs.map((run) => `${run.manager} ${runTiming(run)}`).join(', ')}). Per-manager tables by category, compliance and conversations: --report.`,
  );
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
    .addOption(
      new Option('--manager <names>', 'who writes memory during the replay: local, recorded, or both side by side (local,recorded)')
        .argParser(parseManagers)
        .default(['local'], 'local'),
    )
    .option('--corrections <file>', "audit file whose WRONG_CITATION entries replace the gold evidence")
    .option('--report <dir>', 'write report.md (tables and SVG charts) and results.json into this folder')
    .option('--threads <n>', 'conversations evaluated at once (default: one per core)', integerOption(1))
    .addHelpText(
      'after',
      [
        '',
        'Global options apply too: --tokenizer picks the encoding, and --json prints for one manager',
        '  {"numbering", "manager", "tokenizer", "budgetCompliance",',
        '   "results": [{"system", "budget", "category", "n", "evidenceRecall", "answerContainment"}],',
        '   "tokens": [{"system", "budget", "mean", "max", "meanFill"}]}',
        'and for several managers (--manager local,recorded)',
        '  {"numbering", "tokenizer", "runs": [<the one-manager document of each manager>]}.',
      ].join('\n'),
    )
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

      const managers = options.manager;
      if (managers.includes('recorded') && dataset.samples.every((sample) => sample.observations.length === 0 && sample.sessionSummaries.length === 0)) {
        writeLine(io.stderr, `strata: warning: ${file} has no observation or session_summary; the recorded manager plays back no memory, only the raw turns.`);
      }

      const context: ReportContext = { file, corrections, correctionsFile: options.corrections ?? null, warnings: dataset.warnings };
      const bar = progressBar(io, io.stderr.isTTY === true && !globals.json);
      const database = databasePath(globals, io);
      const settings = {
        dataset,
        budgets: options.budgets,
        tokenizer,
        env: { ...io.env },
        ...(configFile === undefined ? {} : { configFile }),
        // --db (or STRATA_DB) naming a PostgreSQL database replays there; a SQLite file is never written by an evaluation.
        ...(isPostgresUrl(database) ? { database } : {}),
        concurrency: options.threads ?? Math.min(availableParallelism(), dataset.samples.length),
      };
      // One manager's run is the comparison's only run, exactly as `runLocomo` returns it; the bar comes down however the runs end.
      const comparison = await runLocomoManagers({ ...settings, managers, onProgress: bar.update }).finally(bar.stop);
      const [first] = comparison.runs;
      const single = comparison.runs.length === 1 ? first : undefined;
      if (options.report !== undefined) {
        const report = single === undefined ? managersReport(comparison, context) : locomoReport(single, context);
        await writeLocomoReport(resolve(io.cwd, options.report), options.report, report, { ...(single ?? comparison), corrections, warnings: dataset.warnings });
      }
      if (globals.json) writeJson(io.stdout, single === undefined ? managersJson(comparison) : locomoJson(single));
      else if (single === undefined) printComparison(io, comparison, file, context);
      else printRun(io, single, file, context);
      if (options.report !== undefined && !globals.json) writeLine(io.stdout, `Report: ${join(options.report, 'report.md')}`);
    });
}

