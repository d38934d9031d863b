import { Command, CommanderError, Option } from 'commander';
import { isStrataError } from '../core/errors.js';
import { registerChatCommand } from './commands/chat.js';
import { registerContextCommand } from './commands/context.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEvalCommand } from './commands/eval.js';
import { registerEvalLocomo } from './commands/eval-locomo.js';
import { registerExportCommand } from './commands/export.js';
import { registerFactsCommand } from './commands/facts.js';
import { registerImportCommand } from './commands/import.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerMemoriesCommand } from './commands/memories.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSessionsCommand } from './commands/sessions.js';
import { CliError, EXIT, exitCodeFor, isInformational } from './exit-codes.js';
import { processIo, writeLine, type CliIo } from './io.js';
import { packageInfo } from './package-root.js';

export type { CliIo, CliOutput } from './io.js';

/** The `strata` program, writing through `io`, throwing instead of exiting. */
export function createProgram(io: CliIo): Command {
  const program = new Command('strata');
  program
    .description('Strata: conversational memory with durable transcripts, a traceable base-truth document and exact-budget context packages')
    .version(packageInfo().version, '-V, --version', 'print the version')
    .option('--db <path>', 'SQLite database file or postgres:// URL (default: STRATA_DB, else ./strata.db)')
    .option('--tenant <id>', 'tenant owning the data (default: STRATA_TENANT, else "default")')
    .addOption(new Option('--tokenizer <name>', 'token encoding (default: STRATA_TOKENIZER, else o200k_base)').choices(['o200k_base', 'cl100k_base']))
    .option('--json', 'machine-readable JSON output')
    .option('--debug', 'print stack traces of errors')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      // Errors are reported once, by main(), as `strata: <message>`.
      outputError: () => undefined,
    })
    .showSuggestionAfterError();
  registerDemoCommand(program, io);
  registerImportCommand(program, io);
  registerSessionsCommand(program, io);
  registerContextCommand(program, io);
  registerFactsCommand(program, io);
  registerMemoriesCommand(program, io);
  registerExportCommand(program, io);
  registerEvalCommand(program, io, [registerEvalLocomo]);
  registerChatCommand(program, io);
  registerServeCommand(program, io);
  registerKeysCommand(program, io);
  registerMcpCommand(program, io);
  return program;
}

/** The code an error is reported under with --json: a StrataError's own, else what kind of failure it is. */
function codeOf(error: unknown): string {
  if (isStrataError(error)) return error.code;
  if (error instanceof CommanderError) return 'USAGE';
  if (error instanceof CliError) return error.exitCode === EXIT.usage ? 'USAGE' : error.exitCode === EXIT.notFound ? 'NOT_FOUND' : 'FAILURE';
  return 'FAILURE';
}

function report(error: unknown, io: CliIo, options: { debug: boolean; json: boolean }): void {
  if (error instanceof CommanderError && isInformational(error)) return;
  const message =
    error instanceof CommanderError
      ? `${error.message.replace(/^error: /u, '').replace(/\.$/u, '')} (see \`strata --help\`)`
      : error instanceof Error
        ? error.message
        : String(error);
  // With --json, a failure is a JSON object too (on stderr, so stdout holds only results).
  if (options.json) writeLine(io.stderr, JSON.stringify({ error: { code: codeOf(error), message } }));
  else writeLine(io.stderr, `strata: ${message}`);
  if (options.debug && error instanceof Error && error.stack !== undefined) writeLine(io.stderr, error.stack);
}

/**
 * Run the CLI. `argv` is shaped like `process.argv` (the first two entries, node and the script, are skipped).
 * Never exits the process: returns the exit code (0 ok, 1 failure, 2 bad input or usage, 3 session or memory not found).
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  let program: Command | undefined;
  try {
    program = createProgram(io);
    await program.parseAsync(argv, { from: 'node' });
    return EXIT.ok;
  } catch (error) {
    const given = argv.slice(2);
    const debug = program?.opts<{ debug?: boolean }>().debug === true || given.includes('--debug');
    const json = program?.opts<{ json?: boolean }>().json === true || given.includes('--json');
    report(error, io, { debug, json });
    return exitCodeFor(error);
  }
}
