import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { CliError, EXIT } from '../exit-codes.js';
import { openNamedSession } from '../named-session.js';
import { writeLine, type CliIo } from '../io.js';
import { globalOptions, withMemory } from '../open-memory.js';

export function registerExportCommand(program: Command, io: CliIo): void {
  program
    .command('export')
    .description('export a session: lossless JSON (re-importable) or readable Markdown')
    .argument('<session>', 'session id')
    .addOption(new Option('--format <format>', 'json or md').choices(['json', 'md']).makeOptionMandatory())
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (sessionId: string, options: { format: 'json' | 'md'; out?: string }, command: Command) => {
      const globals = globalOptions(command);
      await withMemory(globals, io, async (memory) => {
        const handle = await openNamedSession(memory, sessionId);
        const text = await handle.export({ format: options.format === 'md' ? 'markdown' : 'json' });
        if (options.out === undefined) {
          io.stdout.write(text);
          return;
        }
        try {
          writeFileSync(resolve(io.cwd, options.out), text, 'utf8');
        } catch (error) {
          // A path that cannot be written (no such folder, a folder, no permission) is bad input; anything else a failure.
          const code = (error as NodeJS.ErrnoException).code ?? '';
          const badPath = ['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS'].includes(code);
          throw new CliError(`Cannot write ${options.out}: ${(error as Error).message}`, badPath ? EXIT.usage : EXIT.failure, { cause: error });
        }
        if (globals.json) writeLine(io.stdout, JSON.stringify({ sessionId: handle.id, format: options.format, path: resolve(io.cwd, options.out), bytes: Buffer.byteLength(text, 'utf8') }));
        else writeLine(io.stderr, `Wrote ${options.out}`);
      });
    });
}
