/**
 * Killed at any moment: a process recording turns, or importing a conversation, is killed with SIGKILL
 * at a random moment, again and again, on one database. After each kill the database passes SQLite's
 * integrity check, every turn the process had acknowledged is there once and in order, and a partial
 * import never shows; a memory opened afterwards derives the turns left pending. STRATA_RELIABILITY_ROUNDS
 * sets the kills per test (3 in `npm test`, 30 in `npm run test:reliability`).
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import { seededRandom } from '../../bench/seeded-random.js';
import { bundledChild } from '../support/bundle.js';

const ROUNDS = Number(process.env.STRATA_RELIABILITY_ROUNDS ?? 3);
const ENV = { STRATA_LOG_LEVEL: 'silent', STRATA_IMPORT_WORKER: 'false' };

let dir: string;
let bundled: Awaited<ReturnType<typeof bundledChild>> | undefined;

beforeAll(async () => {
  bundled = await bundledChild('test/reliability/crash-child.ts');
  dir = mkdtempSync(join(tmpdir(), 'strata-sigkill-'));
}, 60_000);

afterAll(() => {
  bundled?.remove();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Run the child; kill it `delayMs` after its first line (or at once when it never prints); gives its lines. */
function runAndKill(args: string[], delayMs: number): Promise<string[]> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundled?.path ?? '', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      timer ??= setTimeout(() => child.kill('SIGKILL'), delayMs);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      arm();
    });
    // An import may print nothing before it is killed: kill it on time anyway.
    if (args[0] === 'import') arm();
    child.on('close', () => {
      clearTimeout(timer);
      resolve(output.split('\n').filter((line) => line !== ''));
    });
  });
}

function integrity(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

/** The turn numbers the session's user messages carry, in the order stored. */
function storedTurns(path: string, sessionId: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    const contents = db.prepare("SELECT content FROM messages WHERE session_id = ? AND role = 'user' ORDER BY position").pluck().all(sessionId) as string[];
    return contents.map((content) => Number(/^Turn (\d+):/u.exec(content)?.[1] ?? Number.NaN));
  } finally {
    db.close();
  }
}

describe(`SIGKILL × ${ROUNDS}`, () => {
  it('during record(): integrity ok, every acknowledged turn there once and in order, and the turns left pending derived after', async () => {
    const path = join(dir, 'record.db');
    const setup = createMemory({ path, env: ENV });
    const sessionId = (await setup.sessions.create({ title: 'Killed while recording' })).id;
    await setup.close();
    const random = seededRandom(20261125);
    const acknowledged: number[] = [];
    let next = 1;
    for (let round = 0; round < ROUNDS; round += 1) {
      const lines = await runAndKill(['record', path, sessionId, String(next)], Math.floor(random() * 300));
      acknowledged.push(...lines.flatMap((line) => (line.startsWith('ack ') ? [Number(line.slice(4))] : [])));
      expect(integrity(path)).toBe('ok');
      const stored = storedTurns(path, sessionId);
      expect(stored).toEqual([...stored].sort((a, b) => a - b));
      expect(new Set(stored).size).toBe(stored.length);
      for (const turn of acknowledged) expect(stored).toContain(turn);
      next = (stored.at(-1) ?? 0) + 1;
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    const memory = createMemory({ path, env: ENV });
    try {
      const session = await memory.sessions.open(sessionId);
      await session.context({ budget: 2000 });
      const turns = await session.turns();
      expect(turns.length).toBe(next - 1);
      expect(turns.filter((turn) => turn.status === 'pending-retry')).toEqual([]);
      expect((await session.facts()).length).toBeGreaterThan(0);
    } finally {
      await memory.close();
    }
  }, 60_000 + ROUNDS * 10_000);

  it('during an import: integrity ok, a killed import never shows, a finished one shows whole', async () => {
    const path = join(dir, 'import.db');
    const file = join(dir, 'conversation.json');
    const turns = 1200;
    writeFileSync(file, JSON.stringify(Array.from({ length: turns }, (_, index) => [
      { role: 'user', content: `Turn ${index + 1}: the tiler quoted £${1000 + index} for the bathroom floor.` },
      { role: 'assistant', content: `Noted the quote of £${1000 + index}.` },
    ]).flat()));
    const random = seededRandom(11);
    let finished = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const lines = await runAndKill(['import', path, file], 300 + Math.floor(random() * 1500));
      if (lines.some((line) => line.startsWith('imported '))) finished += 1;
      // (On a busy machine the first import may be killed before it has even created the database.)
      if (round > 0 || existsSync(path)) expect(integrity(path)).toBe('ok');
      const memory = createMemory({ path, env: ENV });
      try {
        const listed = await memory.sessions.list();
        expect(listed.length).toBe(finished);
        for (const session of listed) expect([session.turnCount, session.messageCount]).toEqual([turns, turns * 2]);
      } finally {
        await memory.close();
      }
    }
    // An import left to finish after all that shows whole, beside the ones that finished before.
    const lines = await runAndKill(['import', path, file], 60_000);
    expect(lines.some((line) => line.startsWith('imported '))).toBe(true);
    const memory = createMemory({ path, env: ENV });
    try {
      const listed = await memory.sessions.list();
      expect(listed.length).toBe(finished + 1);
      for (const session of listed) expect([session.turnCount, session.messageCount]).toEqual([turns, turns * 2]);
    } finally {
      await memory.close();
    }
  }, 120_000 + ROUNDS * 10_000);
});
