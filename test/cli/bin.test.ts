import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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

function strata(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, STRATA_DB: '', ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('bin/strata.js (a real process)', () => {
  it('several processes opening one new database at once all migrate it safely and can write', async () => {
    const db = join(dir, 'first-open.db');
    const store = join(root, 'dist', 'src', 'store', 'sqlite', 'sqlite-store.js');
    const script = `
      const { createSqliteStore } = await import(${JSON.stringify(store)});
      // Every process opens at the same moment.
      while (Date.now() < Number(process.argv[2])) {}
      const store = createSqliteStore({ path: process.argv[1] });
      const id = 's' + process.pid;
      const now = new Date().toISOString();
      await store.tenant('default').sessions.create({ session: { id, title: id, instructions: '', createdAt: now, updatedAt: now, messageCount: 0, turnCount: 0, tokenCount: 0 } });
      await store.close();`;
    const start = String(Date.now() + 1500);
    const runs = Array.from({ length: 6 }, () =>
      new Promise<{ code: number | null; stderr: string }>((resolvePromise) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, db, start], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolvePromise({ code, stderr }));
      }),
    );
    const results = await Promise.all(runs);
    expect(results).toEqual(Array.from({ length: 6 }, () => ({ code: 0, stderr: '' })));
    const listed = strata(['sessions', '--json', '--db', db]);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(6);
  });

  it('another process keeps recording while a long import runs, each write waiting one batch at most', async () => {
    const db = join(dir, 'busy.db');
    const file = join(dir, 'long.json');
    writeFileSync(file, JSON.stringify(plainConversation(3000)));
    const done = join(dir, 'import-done');
    const memoryModule = join(root, 'dist', 'src', 'memory', 'create-memory.js');
    // Records turns, each allowed to wait 1 s for the lock, until the import has ended; prints how many it stored.
    const recorder = `
      const { existsSync } = await import('node:fs');
      const { createMemory } = await import(${JSON.stringify(memoryModule)});
      const memory = createMemory({ path: process.argv[1], busyTimeoutMs: 1000, env: { STRATA_LOG_LEVEL: 'silent' } });
      const session = await memory.sessions.create({ title: 'Live' });
      await session.record({ user: 'Is the tiler booked?', assistant: 'Yes.' });
      console.log('ready');
      let stored = 0;
      while (!existsSync(process.argv[2])) {
        await session.record({ user: 'Is the plumber still coming on Friday at 9?', assistant: 'Yes, Friday at 9.' });
        stored += 1;
      }
      await memory.close();
      console.log(stored);`;
    let ready: () => void = () => undefined;
    const warmedUp = new Promise<void>((resolvePromise) => (ready = resolvePromise));
    const run = (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolvePromise) => {
        const child = spawn(process.execPath, args, { env: { ...process.env, STRATA_DB: '' } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.startsWith('ready')) ready();
        });
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
      });
    // The database exists before either starts.
    expect(strata(['sessions', '--db', db]).status).toBe(0);
    // The recorder is warmed up and writing before the import starts.
    const recording = run(['--input-type=module', '-e', recorder, db, done]);
    await Promise.race([warmedUp, recording]);
    const imported = await run([bin, 'import', file, '--json', '--db', db]);
    writeFileSync(done, '');
    const recorded = await recording;
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(recorded).toMatchObject({ code: 0, stderr: '' });
    expect(Number(recorded.stdout.trim().split('\n').at(-1))).toBeGreaterThan(0);
  }, 120_000);

  it('prints help and exits 0', () => {
    const result = strata(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: strata');
  });

  it('serve stops on SIGTERM after finishing the turn it was recording, and the turn is stored', async () => {
    const db = join(dir, 'serve.db');
    const created = strata(['keys', 'create', '--tenant', 'acme', '--json', '--db', db]);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db], { cwd: dir, env: { ...process.env, STRATA_DB: '', STRATA_LOG_LEVEL: 'silent' } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolvePromise) => child.on('exit', (code) => resolvePromise(code)));
    for (let waited = 0; !stdout.includes('listening on'); waited += 20) {
      if (waited > 20_000) throw new Error('serve did not start');
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
    }
    const url = /listening on (\S+)/u.exec(stdout)?.[1] ?? '';
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const session = (await (await fetch(`${url}/api/sessions`, { method: 'POST', headers, body: JSON.stringify({ title: 'Signal' }) })).json()) as { id: string };
    const turn = fetch(`${url}/api/sessions/${session.id}/turns`, { method: 'POST', headers, body: JSON.stringify({ user: 'The survey is booked for 9 May at 10am, and the fee is £450.' }) });
    // The signal arrives while the turn is in flight.
    setTimeout(() => child.kill('SIGTERM'), 5);
    expect((await turn).status).toBe(200);
    expect(await exited).toBe(0);
    const shown = strata(['sessions', 'show', session.id, '--tenant', 'acme', '--json', '--db', db]);
    expect(shown.stdout).toContain('£450');
  }, 60_000);

  it('strata mcp serves the tools over stdio to the SDK\'s own client, for the tenant given', async () => {
    const db = join(dir, 'mcp.db');
    const client = new Client({ name: 'strata-test', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--tenant', 'acme', '--db', db], env: { PATH: process.env.PATH ?? '', STRATA_LOG_LEVEL: 'silent' }, stderr: 'pipe' });
    await client.connect(transport);
    try {
      const text = async (name: string, args: Record<string, unknown>): Promise<string> =>
        ((await client.callTool({ name, arguments: args })) as { content: Array<{ text?: string }> }).content.map((part) => part.text ?? '').join('');
      const session = JSON.parse(await text('create_session', { title: 'Over stdio' })) as { id: string };
      await text('record_turn', { sessionId: session.id, user: 'The passport renewal costs £88.50 and takes three weeks.' });
      expect(await text('get_context', { sessionId: session.id, budget: 600 })).toContain('£88.50');
    } finally {
      await client.close();
    }
    const listed = strata(['sessions', '--tenant', 'acme', '--json', '--db', db]);
    expect((JSON.parse(listed.stdout) as Array<{ title: string }>).map((item) => item.title)).toEqual(['Over stdio']);
  }, 60_000);

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

  it('derives the same memory for a large import whether the manager runs in a worker thread or not', () => {
    const [withWorker, withoutWorker] = importBothWays('large.json', largeConversation());
    expect(withWorker?.facts.length).toBeGreaterThan(0);
    expect(withWorker?.turns).toHaveLength(450);
    expect(withWorker).toEqual(withoutWorker);
  }, 120_000);

  it('derives the rest of an import on the main thread once it rejects an answer the worker applied', () => {
    // Turn 101 names a file too long to be an artifact name: the engine rejects the answer, the worker
    // had applied its facts, and turn 131 corrects one of them.
    const messages = largeConversation();
    messages[200] = { role: 'user', content: 'The deadline for the Orion migration is May 3, and Priya owns the Orion rollout.' };
    messages[201] = { role: 'assistant', content: `Save this as ${'a'.repeat(250)}.py:\n\n\`\`\`python\ndef check():\n    return 1\n\`\`\`` };
    messages[260] = { role: 'user', content: 'Actually, the Orion migration deadline moved to May 10.' };
    const [withWorker, withoutWorker] = importBothWays('rejected.json', messages);
    expect(withWorker?.turns.filter((turn) => turn[3] !== 'summarised').map((turn) => [turn[0], turn[3]])).toEqual([[101, 'fallback-raw']]);
    // The Orion deadline was never stored, so the correction adds it.
    expect(withWorker?.events.filter((event) => String(event[2]).includes('Orion') || String(event[1]).includes('orion'))).toEqual([
      ['add', 'orion migration deadline', 'orion migration deadline: May 10', 131],
    ]);
    expect(withWorker).toEqual(withoutWorker);
  }, 120_000);

  it('rejects a large import with an invalid message, stores nothing and stops its worker thread', () => {
    const file = join(dir, 'invalid.json');
    writeFileSync(file, JSON.stringify([...largeConversation(), { role: 'user' }]));
    const db = join(dir, 'invalid.db');
    const result = strata(['import', file, '--db', db]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('messages[900]');
    const listed = strata(['sessions', '--json', '--db', db]);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  }, 60_000);
});

/** 450 turns about budgets, rules and corrections. */
function largeConversation(): Array<{ role: string; content: string }> {
  const subjects = ['billing service', 'search index', 'staging cluster', 'support inbox'];
  return Array.from({ length: 900 }, (_, index) => {
    const subject = subjects[index % subjects.length] ?? 'billing service';
    const turn = Math.floor(index / 2);
    return index % 2 === 0
      ? { role: 'user', content: turn % 7 === 3 ? `Actually, the budget for the ${subject} changed to $${(turn + 10) * 1000}.` : `The budget for the ${subject} is $${(turn + 5) * 1000}; we must never deploy it on Fridays.` }
      : { role: 'assistant', content: `Noted for the ${subject}: $${(turn + 5) * 1000}, and no Friday deploys. Maya owns it from Lisbon.` };
  });
}

/** Import `messages` with and without the worker thread; the memory each way, ids left out. */
function importBothWays(name: string, messages: Array<{ role: string; content: string }>) {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(messages));
  return ['true', 'false'].map((worker) => {
    const db = join(dir, `${name}-worker-${worker}.db`);
    const imported = strata(['import', file, '--json', '--db', db], { STRATA_IMPORT_WORKER: worker });
    expect(imported.status).toBe(0);
    const { sessionId } = JSON.parse(imported.stdout) as { sessionId: string };
    const exported = strata(['export', sessionId, '--format', 'json', '--db', db]);
    expect(exported.status).toBe(0);
    const data = JSON.parse(exported.stdout) as {
      facts: Array<{ key: string; text: string; kind: string }>;
      factEvents: Array<{ op: string; key: string; newText: string | null; turn: number }>;
      turns: Array<{ turn: number; userSummary: string; assistantSummary: string; status: string }>;
      messages: Array<{ tier1: string; tier2: string; requiredTier: number }>;
    };
    return {
      // Facts of one turn are listed by id, and ids are random: compare them as a set.
      facts: data.facts.map((fact) => [fact.key, fact.text, fact.kind].join('|')).sort(),
      events: data.factEvents.map((event) => [event.op, event.key, event.newText, event.turn]),
      turns: data.turns.map((turn) => [turn.turn, turn.userSummary, turn.assistantSummary, turn.status]),
      tiers: data.messages.map((message) => [message.tier1, message.tier2, message.requiredTier]),
    };
  });
}
