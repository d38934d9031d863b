/**
 * A database this process may read but not write (no write access to the file or to its folder, as for
 * another user's file or one on read-only media). SQLite cannot read a WAL-mode file then: it needs to
 * make the `-shm` file beside it. Such a database is read from a private copy made when it is opened
 * (the file and its `-wal`), opened read-only: every read sees the database as it was then, every write
 * fails naming the file. A copy taken while another process checkpoints the file may be inconsistent;
 * SQLite then reports it, and opening again takes a new copy.
 */
import { accessSync, constants, copyFileSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

/** Whether `path` is a database file this process can read but not write (or whose folder it cannot write). */
export function readableOnly(path: string): boolean {
  if (path === ':memory:' || !existsSync(path)) return false;
  const allowed = (target: string, mode: number): boolean => {
    try {
      accessSync(target, mode);
      return true;
    } catch {
      return false;
    }
  };
  // (A file that cannot be read at all gets the driver's own error.)
  if (!allowed(path, constants.R_OK)) return false;
  // SQLite writes beside the file itself, not beside a link to it.
  const file = realpathSync(resolve(path));
  return !(allowed(file, constants.W_OK) && allowed(dirname(file), constants.W_OK));
}

/** A private copy of the database at `path` (and its write-ahead log, when there is one), removed by `remove`. */
export function copyForReading(path: string): { path: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'strata-read-only-'));
  const copy = join(folder, basename(path));
  try {
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return { path: copy, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
