import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchStore } from '../src/eval/scratch-store.js';
import { createMemory } from '../src/memory/create-memory.js';
import { isPostgresUrl } from '../src/memory/default-store.js';
import { generateConversation } from './generate-conversation.js';
import { summarise } from './percentile.js';
import { printTable } from './print-table.js';

const MESSAGES = Number(process.env.STRATA_BENCH_MESSAGES ?? 10_000);
/** STRATA_DB=postgres://… measures the PostgreSQL store (in a schema of its own, dropped afterwards). */
const DATABASE = process.env.STRATA_DB;
const QUERIES = ['budget for the billing service', 'who owns the search index', 'error rate after the deploy', 'migrations during business hours', 'review in Lisbon'];

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'strata-bench-'));
  const path = join(folder, 'bench.db');
  const rows: Array<[string, string]> = [];
  const postgres = DATABASE !== undefined && isPostgresUrl(DATABASE) ? scratchStore(DATABASE) : null;
  try {
    const memory = createMemory({ ...(postgres?.options ?? { path }), env: {} });
    const messages = generateConversation(MESSAGES);

    const importStart = performance.now();
    const imported = await memory.sessions.import({ data: messages, title: 'Benchmark' });
    const importSeconds = (performance.now() - importStart) / 1000;
    rows.push(['bulk import', `${Math.round(imported.messages / importSeconds).toLocaleString('en-US')} messages/s (${imported.messages.toLocaleString('en-US')} in ${importSeconds.toFixed(2)} s)`]);

    const session = await memory.sessions.open(imported.sessionId);
    for (const budget of [2000, 8000]) {
      for (const withQuery of [false, true]) {
        const samples: number[] = [];
        for (let round = 0; round < 120; round += 1) {
          const query = QUERIES[round % QUERIES.length];
          const start = performance.now();
          const pkg = await session.context(withQuery && query !== undefined ? { budget, query } : { budget });
          samples.push(performance.now() - start);
          if (pkg.tokens > budget) throw new Error(`budget exceeded: ${pkg.tokens} > ${budget}`);
        }
        const { p50, p95 } = summarise(samples.slice(20));
        rows.push([`context, budget ${budget / 1000}k, ${withQuery ? 'with' : 'no'} query`, `p50 ${p50.toFixed(2)} ms · p95 ${p95.toFixed(2)} ms`]);
      }
    }

    const extra = generateConversation(400, 7);
    const recordSamples: number[] = [];
    for (let index = 0; index + 1 < extra.length; index += 2) {
      const user = extra[index]?.content ?? '';
      const assistant = extra[index + 1]?.content ?? '';
      const start = performance.now();
      await session.record({ user, assistant });
      recordSamples.push(performance.now() - start);
    }
    const recorded = summarise(recordSamples.slice(10));
    rows.push(['record() with the local manager', `p50 ${recorded.p50.toFixed(2)} ms · p95 ${recorded.p95.toFixed(2)} ms`]);

    const info = await session.info();
    await memory.close();
    const bytes = (await postgres?.bytes()) ?? statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
    rows.push(['database size', `${(bytes / 1024 / 1024).toFixed(2)} MB for ${info.messageCount.toLocaleString('en-US')} messages = ${((bytes / info.messageCount) * 100 / 1024).toFixed(1)} KB per 100 messages`]);

    printTable(`Strata benchmark — ${MESSAGES.toLocaleString('en-US')} generated messages, ${postgres === null ? 'SQLite' : 'PostgreSQL'}, node ${process.version}`, rows);
  } finally {
    await postgres?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
