import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainConversation } from './helpers.js';

const root = resolve(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'strata.js');
let dir: string;

beforeAll(() => {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'strata-bin-test-'));
}, 240_000);
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function strata(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, STRATA_DB: '' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('bin/strata.js (a real process)', () => {
  it('prints help and exits 0', () => {
    const result = strata(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: strata');
  });

  it('imports a file with --json and exits with the right codes', () => {
    const file = join(dir, 'chat.json');
    writeFileSync(file, JSON.stringify(plainConversation(2)));
    const db = join(dir, 'bin.db');
    const result = strata(['import', file, '--json', '--db', db]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ sessionId: expect.any(String), messages: 4 });

    const missing = strata(['context', 'nope', '--budget', '100', '--db', db]);
    expect(missing.status).toBe(3);
    expect(missing.stderr).toMatch(/^strata: .*nope/u);

    const bad = strata(['import', join(dir, 'missing.json'), '--db', db]);
    expect(bad.status).toBe(2);
  });
});
