/**
 * A database this process may read but not write (another user's file, read-only media): it can be listed,
 * read and exported, and a write fails saying so, leaving the file as it was. Run as another user (root
 * writes any file whatever its mode), with the file and its folder read-only.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { bundleForNode } from '../support/bundle.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDER = join(ROOT, 'node_modules', '.cache', `strata-read-only-${process.pid}`);
const CHILD = join(FOLDER, 'read-only-child.mjs');
let dir: string;

beforeAll(async () => {
  mkdirSync(FOLDER, { recursive: true });
  await bundleForNode(join(ROOT, 'test', 'store', 'read-only-child.ts'), CHILD);
  dir = mkdtempSync(join(tmpdir(), 'strata-read-only-'));
  // (The other user must reach the folder inside it.)
  chmodSync(dir, 0o755);
}, 60_000);

afterAll(() => {
  rmSync(FOLDER, { recursive: true, force: true });
  if (dir !== undefined) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('a database that can only be read', () => {
  it('is listed, read and exported from a copy, and a write fails naming the file, which stays as it was', async () => {
    const folder = join(dir, 'shared');
    mkdirSync(folder);
    const path = join(folder, 'strata.db');
    const memory = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent' } });
    const session = await memory.sessions.create({ title: 'Kitchen' });
    await session.record({ user: 'Our budget is $4,000 for the kitchen.', assistant: 'Noted: $4,000.' });
    await memory.close();
    chmodSync(path, 0o444);
    chmodSync(folder, 0o555);
    const before = digest(path);
    // As root the modes would not stop a write: the child runs as nobody then.
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? 'setpriv' : process.execPath;
    const args = asRoot ? ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CHILD, path] : [CHILD, path];
    const run = spawnSync(command, args, { encoding: 'utf8' });
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
  }, 60_000);
});
