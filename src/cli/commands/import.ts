import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { ImportResult } from '../../memory/create-memory.js';
import { writeJson, writeLine, type CliIo } from '../io.js';
import { formatNumber, plural } from '../format.js';
import { globalOptions, withMemory } from '../open-memory.js';
import { readInputFile } from '../read-input.js';

/** Imports with at least this many turns show a progress bar (on a terminal, without --json). */
const PROGRESS_MIN_TURNS = 50;

interface ImportCommandOptions {
  title?: string;
  newIds?: boolean;
}

/** A progress bar on stderr, created on the first report of a large enough import. */
function progressReporter(io: CliIo, enabled: boolean): { onProgress: (progress: { done: number; total: number }) => void; stop: () => void } {
  let bar: SingleBar | null = null;
  return {
    onProgress: ({ done, total }) => {
      if (!enabled || total < PROGRESS_MIN_TURNS) return;
      if (bar === null) {
        // cli-progress only writes text and cursor escapes to the stream and reads isTTY/columns.
        bar = new SingleBar({
          stream: io.stderr as unknown as NodeJS.WritableStream,
          format: 'Importing [{bar}] {value}/{total} turns',
          hideCursor: true,
          clearOnComplete: true,
        });
        bar.start(total, 0);
      }
      bar.update(done);
    },
    stop: () => {
      bar?.stop();
      bar = null;
    },
  };
}

export function registerImportCommand(program: Command, io: CliIo): void {
  program
    .command('import')
    .description('import a conversation: a Strata export, an array of {role, content} messages, or {"messages": [...]}')
    .argument('<file>', 'JSON file to import')
    .option('--title <title>', 'title of the new session')
    .option('--new-ids', 'give an imported Strata export fresh ids (when the session already exists here)')
    .action(async (file: string, options: ImportCommandOptions, command: Command) => {
      const globals = globalOptions(command);
      const text = readInputFile(file, io.cwd);
      await withMemory(globals, io, async (memory) => {
        const progress = progressReporter(io, io.stderr.isTTY === true && !globals.json);
        let result: ImportResult;
        try {
          result = await memory.sessions.import({
            data: text,
            source: file,
            ...(options.title === undefined ? {} : { title: options.title }),
            newIds: options.newIds === true,
            onProgress: progress.onProgress,
          });
        } finally {
          progress.stop();
        }
        if (globals.json) {
          writeJson(io.stdout, { sessionId: result.sessionId, messages: result.messages });
          return;
        }
        const session = await (await memory.sessions.open(result.sessionId)).info();
        const skipped = result.skipped > 0 ? `; skipped ${plural(result.skipped, 'empty or legacy function message')}` : '';
        writeLine(
          io.stdout,
          `Imported ${formatNumber(result.messages)} messages (${plural(result.turns, 'turn')}) into session ${result.sessionId} "${session.title}"${skipped}`,
        );
      });
    });
}
