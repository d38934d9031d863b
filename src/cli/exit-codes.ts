import { CommanderError } from 'commander';
import { isStrataError, type StrataErrorCode } from '../core/errors.js';

/** Process exit codes of `strata`. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A CLI-level failure with the exit code it should end with (a missing file, a refused delete …). */
export class CliError extends Error {
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = EXIT.usage, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

const USAGE_CODES: ReadonlySet<StrataErrorCode> = new Set<StrataErrorCode>([
  'INVALID_INPUT',
  'IMPORT_INVALID',
  'INVALID_CONFIG',
  'SESSION_EXISTS',
  'MEMORY_EXISTS',
  'MODEL_NOT_CONFIGURED',
]);

/** Commander errors that are not failures: help or version was asked for and shown. */
export function isInformational(error: CommanderError): boolean {
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help';
}

/** The exit code an error ends the CLI with. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof CommanderError) {
    if (isInformational(error) && error.exitCode === 0) return EXIT.ok;
    return EXIT.usage;
  }
  if (isStrataError(error)) {
    if (error.code === 'SESSION_NOT_FOUND' || error.code === 'MEMORY_NOT_FOUND') return EXIT.notFound;
    return USAGE_CODES.has(error.code) ? EXIT.usage : EXIT.failure;
  }
  return EXIT.failure;
}
