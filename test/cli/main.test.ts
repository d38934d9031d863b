import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { captureIo, createWorkspace, plainConversation, type Workspace } from './helpers.js';

let ws: Workspace;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

describe('strata main', () => {
  it('prints help on stdout and exits 0', async () => {
    const io = captureIo({ cwd: ws.dir });
    expect(await main(['node', 'strata', '--help'], io)).toBe(0);
    expect(io.out()).toContain('Usage: strata');
    for (const command of ['demo', 'import', 'sessions', 'context', 'facts', 'export']) expect(io.out()).toContain(command);
    expect(io.err()).toBe('');

    const sub = captureIo({ cwd: ws.dir });
    expect(await main(['node', 'strata', 'context', '--help'], sub)).toBe(0);
    expect(sub.out()).toContain('--budget');
  });

  it('prints the version and exits 0', async () => {
    const io = captureIo({ cwd: ws.dir });
    expect(await main(['node', 'strata', '--version'], io)).toBe(0);
    expect(io.out()).toMatch(/^\d+\.\d+\.\d+/u);
  });

  it('exits 2 on usage errors with one `strata:` line', async () => {
    const unknown = await ws.run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^strata: unknown command 'frobnicate'/u);

    const option = await ws.run(['sessions', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^strata: unknown option '--bogus'/u);

    const missing = await ws.run(['import']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'file'");

    const tokenizer = await ws.run(['sessions', '--tokenizer', 'p50k']);
    expect(tokenizer.code).toBe(2);

    const none = captureIo({ cwd: ws.dir });
    expect(await main(['node', 'strata'], none)).toBe(2);
    expect(none.err()).toContain('Usage: strata');
  });

  it('accepts global options before or after the command', async () => {
    const file = ws.write('chat.json', JSON.stringify(plainConversation(2)));
    const before = captureIo({ cwd: ws.dir });
    expect(await main(['node', 'strata', '--db', ws.db, '--json', 'import', file], before)).toBe(0);
    const after = captureIo({ cwd: ws.dir });
    expect(await main(['node', 'strata', 'sessions', 'list', '--db', ws.db, '--json'], after)).toBe(0);
    expect((JSON.parse(after.out()) as unknown[]).length).toBe(1);
  });

  it('takes the database from STRATA_DB in io.env, relative to io.cwd, and tenants isolate', async () => {
    const file = ws.write('chat.json', JSON.stringify(plainConversation(2)));
    const env = { STRATA_DB: 'env.db' };
    const io = captureIo({ cwd: ws.dir, env });
    expect(await main(['node', 'strata', 'import', file, '--json'], io)).toBe(0);
    const list = captureIo({ cwd: ws.dir, env });
    expect(await main(['node', 'strata', 'sessions', '--json', '--db', join(ws.dir, 'env.db')], list)).toBe(0);
    expect(JSON.parse(list.out())).toHaveLength(1);

    const other = captureIo({ cwd: ws.dir, env });
    expect(await main(['node', 'strata', 'sessions', '--json', '--tenant', 'someone-else'], other)).toBe(0);
    expect(JSON.parse(other.out())).toEqual([]);
  });

  it('exits 2 on an invalid STRATA_* setting', async () => {
    const io = captureIo({ cwd: ws.dir, env: { STRATA_TOKENIZER: 'nope' } });
    expect(await main(['node', 'strata', 'sessions'], io)).toBe(2);
    expect(io.err()).toMatch(/^strata: .*STRATA_TOKENIZER/u);
  });

  it('exits 1 on a store failure and prints the stack with --debug', async () => {
    const folder = join(ws.dir, 'a-folder');
    mkdirSync(folder);
    const plain = await ws.run(['sessions', '--db', folder], { noDb: true });
    expect(plain.code).toBe(1);
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    expect(plain.stderr).toMatch(/^strata: /u);

    const debug = await ws.run(['sessions', '--db', folder, '--debug'], { noDb: true });
    expect(debug.code).toBe(1);
    expect(debug.stderr.trim().split('\n').length).toBeGreaterThan(1);
    expect(debug.stderr).toMatch(/\n\s+at /u);
  });

  it('reports a failure as one JSON object with --json, with the exit code unchanged and nothing on stdout', async () => {
    const cases: Array<{ args: string[]; code: number; error: string }> = [
      { args: ['facts', 'no-such-session', '--json'], code: 3, error: 'SESSION_NOT_FOUND' },
      { args: ['context', 'no-such-session', '--budget', 'lots', '--json'], code: 2, error: 'USAGE' },
      { args: ['import', join(ws.dir, 'missing.json'), '--json'], code: 2, error: 'USAGE' },
    ];
    for (const { args, code, error } of cases) {
      const result = await ws.run(args);
      expect(result.code).toBe(code);
      expect(result.stdout).toBe('');
      const reported = JSON.parse(result.stderr) as { error: { code: string; message: string } };
      expect(reported.error.code).toBe(error);
      expect(reported.error.message.length).toBeGreaterThan(10);
    }
    // Without --json, the same failure is a line of text.
    const plain = await ws.run(['facts', 'no-such-session']);
    expect(plain.stderr).toMatch(/^strata: /u);
  });
});
