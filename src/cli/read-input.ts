import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

/** Read a UTF-8 text file named on the command line (relative to `cwd`); a missing or unreadable file is a usage error. */
export function readInputFile(file: string, cwd: string): string {
  const path = resolve(cwd, file);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new CliError(`Cannot read ${file}: ${reason}.`, EXIT.usage, { cause: error });
  }
}
