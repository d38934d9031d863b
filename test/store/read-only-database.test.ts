/**
 * A database this process may read but not write (another user's file, read-only media): it can be listed,
 * read and exported, and a write fails saying so, leaving the file as it was.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { bundledChild } from '../support/bundle.js';

let dir: string;
let bundled: Awaited<ReturnType<typeof bundledChild>> | undefined;

beforeAll(async () => {
  bundled = await bundledChild('test/store/read-only-child.ts');
  dir = mkdtempSync(join(tmpdir(), 'strata-read-only-'));
}, 60_000);

afterAll(() => {
  bundled?.remove();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Make the file and its folder unwritable here, and hand back how to undo it; null when this machine
 * cannot. Root writes any file whatever its mode, so for root they are made immutable (`chattr +i`).
 */
function makeReadOnly(folder: string, file: string): (() => void) | null {
  if (process.getuid?.() !== 0) {
    chmodSync(file, 0o444);
    chmodSync(folder, 0o555);
    return () => chmodSync(folder, 0o755);
  }
  const chattr = (flag: string, targets: string[]): boolean => spawnSync('chattr', [flag, ...targets], { encoding: 'utf8' }).status === 0;
  if (!chattr('+i', [file, folder])) return null;
  return () => {
    chattr('-i', [folder, file]);
  };
}

describe('a database that can only be read', () => {
  it('is listed, read and exported from a copy, and a write fails naming the file, which stays as it was', async (context) => {
    const folder = join(dir, 'shared');
    mkdirSync(folder);
    const path = join(folder, 'strata.db');
    const memory = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent' } });
    const session = await memory.sessions.create({ title: 'Kitchen' });
    await session.record({ user: 'Our budget is $4,000 for the kitchen.', assistant: 'Noted: $4,000.' });
    await memory.close();
    const before = digest(path);
    const undo = makeReadOnly(folder, path);
    if (undo === null) {
      context.skip('this machine cannot make a file unwritable for root here (chattr +i failed)');
      return;
    }
    try {
      const run = spawnSync(process.execPath, [bundled?.path ?? '', path], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const result = JSON.parse(run.stdout) as { titles: string[]; facts: string[]; messages: number; write: { code: string; message: string } };
      expect(result.titles).toEqual(['Kitchen']);
      expect(result.facts.some((fact) => fact.includes('$4,000'))).toBe(true);
      expect(result.messages).toBe(2);
      expect(result.write.code).toBe('STORE_FAILURE');
      expect(result.write.message).toContain(`The database ${path} can only be read here`);
      expect(digest(path)).toBe(before);
      expect(readdirSync(folder)).toEqual(['strata.db']);
    } finally {
      undo();
    }
  }, 60_000);
});
