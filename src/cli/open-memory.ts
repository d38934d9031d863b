import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveSettings, type Settings } from '../memory/config.js';
import { createMemory, type Memory, type MemoryOptions } from '../memory/create-memory.js';
import { isPostgresUrl } from '../memory/default-store.js';
import type { CliIo } from './io.js';
import { logDestinationFor } from './readable-logs.js';

export type TokenizerOption = Settings['tokenizer'];

/** Options every command accepts, before or after its name. */
export interface GlobalOptions {
  db?: string;
  tenant?: string;
  tokenizer?: TokenizerOption;
  json: boolean;
  debug: boolean;
}

/** The global options as parsed for `command` (its own options and its parents'). */
export function globalOptions(command: Command): GlobalOptions {
  const values = command.optsWithGlobals<Partial<GlobalOptions>>();
  return {
    ...(values.db === undefined ? {} : { db: values.db }),
    ...(values.tenant === undefined ? {} : { tenant: values.tenant }),
    ...(values.tokenizer === undefined ? {} : { tokenizer: values.tokenizer }),
    json: values.json === true,
    debug: values.debug === true,
  };
}

/** The config file to read: STRATA_CONFIG, else `strata.config.json` in the working directory when present. */
function configFile(io: CliIo): string | undefined {
  const explicit = io.env.STRATA_CONFIG;
  if (explicit !== undefined && explicit.trim() !== '') return resolve(io.cwd, explicit);
  const local = join(io.cwd, 'strata.config.json');
  return existsSync(local) ? local : undefined;
}

/** The database file (or PostgreSQL URL): `--db`, else STRATA_DB, else the config file's `path`, else `./strata.db`; relative to `io.cwd`. */
export function databasePath(globals: GlobalOptions, io: CliIo): string {
  const file = configFile(io);
  const settings = resolveSettings({ options: { path: globals.db }, env: io.env, ...(file === undefined ? {} : { configFile: file }) });
  return settings.path === ':memory:' || isPostgresUrl(settings.path) ? settings.path : resolve(io.cwd, settings.path);
}

/** Memory options for the CLI's globals; `path` overrides the database file (the demo uses a temporary one). */
export function memoryOptions(globals: GlobalOptions, io: CliIo, path?: string): MemoryOptions {
  const file = configFile(io);
  return {
    path: path ?? databasePath(globals, io),
    env: io.env,
    ...(globals.tenant === undefined ? {} : { tenant: globals.tenant }),
    ...(globals.tokenizer === undefined ? {} : { tokenizer: globals.tokenizer }),
    ...(file === undefined ? {} : { configFile: file }),
  };
}

/**
 * Open a memory for the globals, run `work` with it and always close it. The engine's logs go to the
 * CLI's stderr at the `logLevel` setting (STRATA_LOG_LEVEL or the config file): as readable lines on a
 * terminal, as JSON lines otherwise or with --debug or --json.
 */
export async function withMemory<T>(globals: GlobalOptions, io: CliIo, work: (memory: Memory) => Promise<T>, path?: string): Promise<T> {
  const memory = createMemory({ ...memoryOptions(globals, io, path), logDestination: logDestinationFor(io.stderr, globals) });
  try {
    return await work(memory);
  } finally {
    await memory.close();
  }
}
