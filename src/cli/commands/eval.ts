import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadKeyFactConversations } from '../../eval/key-fact-conversation.js';
import { writeReportFolder } from '../../eval/charts/write-report-folder.js';
import { retentionJson, retentionReport } from '../../eval/retention-output.js';
import { runRetention, type ConversationRetention, type RetentionRun } from '../../eval/run-retention.js';
import { CliError, EXIT } from '../exit-codes.js';
import { formatNumber, formatPercent, formatTable, plural } from '../format.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { globalOptions } from '../open-memory.js';
import { integerOption } from '../parse.js';

/**
 * `strata eval …`: the measures of `../shared/design/evaluation.md`, run on the user's own files.
 *
 * Adding a subcommand (for instance `strata eval locomo`) without touching this file: write, in its own
 * file, a function of type `EvalSubcommand` that calls `evalCommand.command('locomo')…` and prints
 * through `io`, then wire it in `src/cli/main.ts` in either of two ways:
 *
 * ```ts
 * registerEvalCommand(program, io, [registerEvalLocomoCommand]);      // pass it in …
 * registerEvalLocomoCommand(registerEvalCommand(program, io), io);    // … or use the returned `eval` command
 * ```
 *
 * Global options (`--json`, `--tokenizer`, `--debug`) reach subcommands through `globalOptions(command)`.
 */
export type EvalSubcommand = (evalCommand: Command, io: CliIo) => void;

function scoreText(value: number): string {
  return value.toFixed(3);
}

function factTable(conversation: ConversationRetention): string {
  return formatTable(
    [{ header: 'fact' }, { header: 'tier', align: 'right' }, { header: 'status' }, { header: 'memory only' }],
    conversation.facts.map((fact, index) => [fact.id, String(fact.tier), fact.status, conversation.memoryOnlyFacts[index]?.status ?? '–']),
  );
}

/** The stale facts of a conversation; the asserted ones with the line that asserts them. */
function staleTable(conversation: ConversationRetention): string {
  return formatTable(
    [{ header: 'stale fact' }, { header: 'asserted' }, { header: 'asserting line' }],
    conversation.stale.map((entry) => [entry.id, entry.asserted ? 'YES' : 'no', entry.item === null ? '' : shorten(entry.item.text, 90)]),
  );
}

function shorten(text: string, limit: number): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  return line.length <= limit ? line : `${line.slice(0, limit - 1)}…`;
}

function staleShare(stale: ReadonlyArray<{ asserted: boolean }>): string {
  return `${stale.filter((entry) => entry.asserted).length} / ${stale.length}`;
}

function conversationTotals(conversation: ConversationRetention): string {
  const budget = `${formatNumber(conversation.contextTokens)} / ${formatNumber(conversation.budget)} tokens`;
  return [
    `score ${scoreText(conversation.score)}`,
    `memory only ${scoreText(conversation.memoryOnlyScore)}`,
    ...(conversation.stale.length === 0 ? [] : [`stale asserted ${staleShare(conversation.stale)}`]),
    `token reduction ${formatPercent(conversation.tokenReduction)} % (${formatNumber(conversation.originalTokens)} → ${formatNumber(conversation.contextTokens)} tokens)`,
    conversation.budgetCompliant ? `within budget (${budget})` : `OVER BUDGET (${budget})`,
  ].join(' · ');
}

function summaryTable(run: RetentionRun): string {
  return formatTable(
    [
      { header: 'conversation' },
      { header: 'score', align: 'right' },
      { header: 'memory', align: 'right' },
      { header: 'stale', align: 'right' },
      { header: 'reduction', align: 'right' },
      { header: 'original', align: 'right' },
      { header: 'context', align: 'right' },
      { header: 'budget', align: 'right' },
      { header: 'within' },
    ],
    run.conversations.map((conversation) => [
      conversation.id,
      scoreText(conversation.score),
      scoreText(conversation.memoryOnlyScore),
      staleShare(conversation.stale),
      `${formatPercent(conversation.tokenReduction)} %`,
      formatNumber(conversation.originalTokens),
      formatNumber(conversation.contextTokens),
      formatNumber(conversation.budget),
      conversation.budgetCompliant ? 'yes' : 'NO',
    ]),
  );
}

function printRun(run: RetentionRun, io: CliIo): void {
  const out = io.stdout;
  for (const conversation of run.conversations) {
    writeLine(out, `${conversation.id} (${conversation.file}): ${plural(conversation.turns, 'turn')}, budget ${formatNumber(conversation.budget)}`);
    writeLine(out, factTable(conversation));
    if (conversation.stale.length > 0) writeLine(out, staleTable(conversation));
    writeLine(out, conversationTotals(conversation));
    writeLine(out);
  }
  const compliant = run.conversations.filter((conversation) => conversation.budgetCompliant).length;
  writeLine(out, `Summary (${plural(run.conversations.length, 'conversation')}, ${run.tokenizer}):`);
  writeLine(out, summaryTable(run));
  writeLine(out);
  writeLine(
    out,
    [
      `Mean score ${scoreText(run.meanScore)}`,
      `memory only ${scoreText(run.memoryOnlyScore)}`,
      `stale asserted ${formatPercent(run.staleRate)} % (${staleShare(run.conversations.flatMap((conversation) => conversation.stale))})`,
      `mean token reduction ${formatPercent(run.meanTokenReduction)} %`,
      `budget compliance ${formatPercent(run.budgetCompliance)} % (${compliant} / ${run.conversations.length})`,
      `mean fill ${formatPercent(run.meanFill)} %`,
    ].join(' · '),
  );
}

async function writeReport(folder: string, run: RetentionRun, io: CliIo): Promise<string> {
  try {
    await writeReportFolder(resolve(io.cwd, folder), retentionReport(run));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const badPath = ['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'EEXIST'].includes(code);
    throw new CliError(`Cannot write ${join(folder, 'report.md')}: ${(error as Error).message}`, badPath ? EXIT.usage : EXIT.failure, { cause: error });
  }
  return join(folder, 'report.md');
}

function registerRetention(evalCommand: Command, io: CliIo): void {
  evalCommand
    .command('retention')
    .description('weighted key-fact retention: replay each conversation, assemble its package with no query, score the key facts')
    .argument('<paths...>', 'key-fact conversation files, or folders (every *.json in them)')
    .option('--budget <tokens>', "budget for every conversation (default: each file's \"budget\")", integerOption(1))
    .option('--report <dir>', 'also write <dir>/report.md with the tables and SVG charts')
    .addHelpText('after', '\nGlobal options apply too: --json prints {"meanScore", "budgetCompliance", "memoryOnlyScore", "staleRate", "conversations": [...]}; --tokenizer picks the encoding.')
    .action(async (paths: string[], options: { budget?: number; report?: string }, command: Command) => {
      const globals = globalOptions(command);
      // Every file is read and validated before anything is replayed: a bad file fails fast (exit 2).
      const conversations = loadKeyFactConversations(paths, io.cwd);
      const progress = io.stderr.isTTY === true;
      const run = await runRetention(conversations, {
        ...(options.budget === undefined ? {} : { budget: options.budget }),
        ...(globals.tokenizer === undefined ? {} : { tokenizer: globals.tokenizer }),
        ...(progress ? { onConversation: ({ index, total, id }) => io.stderr.write(`\rreplaying ${index + 1}/${total}: ${id}\u001b[K`) } : {}),
      });
      if (progress) io.stderr.write('\r\u001b[K');
      if (globals.json) writeJson(io.stdout, retentionJson(run));
      else printRun(run, io);
      if (options.report !== undefined) {
        const written = await writeReport(options.report, run, io);
        writeLine(globals.json ? io.stderr : io.stdout, `Wrote ${written}`);
      }
    });
}

/**
 * Register `strata eval` with its `retention` subcommand, then each of `subcommands`.
 * Returns the `eval` command, so more subcommands can be added to it later.
 */
export function registerEvalCommand(program: Command, io: CliIo, subcommands: readonly EvalSubcommand[] = []): Command {
  const evalCommand = program.command('eval').description('measure memory quality on your own conversations (no model needed)');
  registerRetention(evalCommand, io);
  for (const register of subcommands) register(evalCommand, io);
  return evalCommand;
}
