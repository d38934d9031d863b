/**
 * The process the SIGKILL tests kill (bundled by them with esbuild). `record <db> <session> <first>`
 * records numbered turns without end, printing `ack N` once turn N's record() has resolved;
 * `import <db> <file>` imports the file and prints `imported <session>`.
 */
import { readFileSync } from 'node:fs';
import { createMemory } from '../../src/memory/create-memory.js';

/** The user message of turn `n`: its number first, so the tests can read the order back. */
function turnText(n: number): string {
  return `Turn ${n}: the budget is now $${n},000 and the deadline is March ${(n % 28) + 1}.`;
}

async function main(): Promise<void> {
  const [mode, path, ...rest] = process.argv.slice(2);
  const memory = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent', STRATA_IMPORT_WORKER: 'false' } });
  if (mode === 'record') {
    const session = await memory.sessions.open(rest[0] ?? '');
    for (let n = Number(rest[1]); ; n += 1) {
      await session.record({ user: turnText(n), assistant: `Noted turn ${n}.` });
      process.stdout.write(`ack ${n}\n`);
    }
  }
  const file = rest[0] ?? '';
  const result = await memory.sessions.import({ data: readFileSync(file, 'utf8'), source: file });
  process.stdout.write(`imported ${result.sessionId}\n`);
  await memory.close();
}

await main();
