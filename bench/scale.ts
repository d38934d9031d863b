/**
 * `npm run bench:scale`: Strata at realistic sizes on realistic chat text (30–80-word messages with names,
 * numbers and dates, `realistic-chat.ts`), in one tenant on a database file:
 * - a 1,000-message session's query reads while the tenant is otherwise empty;
 * - import throughput, query reads and `record()` on a 10,000- and a 100,000-message session, and the
 *   first read of the large one by a memory that has read nothing yet;
 * - the 1,000-message session's query reads again once the tenant holds 300,000+ messages;
 * - heap after GC per 1,000 messages recorded (run with `--expose-gc`).
 * `STRATA_BENCH_SCALE` (default 1) multiplies every size, for a quick look (0.1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '../src/memory/create-memory.js';
import type { Memory } from '../src/memory/memory-api.js';
import { summarise } from './percentile.js';
import { printTable } from './print-table.js';
import { realisticChat, type ChatMessage } from './realistic-chat.js';

const SCALE = Number(process.env.STRATA_BENCH_SCALE ?? 1);
const sized = (count: number): number => Math.max(100, Math.round(count * SCALE));
const ENV = { STRATA_LOG_LEVEL: 'silent' };
const QUERIES = ['when is the appointment', 'how much was the deposit', 'who is coming on Saturday', 'what did we decide about the flights', 'budget for the kitchen'];

type Rows = Array<[string, string]>;

const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** p50 and p95 of `rounds` query reads of a session at an 8k budget (the first ten warm up and are not counted). */
async function queryReads(memory: Memory, sessionId: string, rounds = 110): Promise<{ p50: number; p95: number }> {
  const session = await memory.sessions.open(sessionId);
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    const pkg = await session.context({ budget: 8000, query: QUERIES[round % QUERIES.length] ?? '' });
    samples.push(performance.now() - start);
    if (pkg.tokens > 8000) throw new Error(`budget exceeded: ${pkg.tokens} > 8000`);
  }
  return summarise(samples.slice(10));
}

/** Import `messages` as one session; its id and the messages per second. */
async function timedImport(memory: Memory, messages: ChatMessage[], title: string): Promise<{ sessionId: string; rate: number }> {
  const start = performance.now();
  const imported = await memory.sessions.import({ data: messages, title });
  return { sessionId: imported.sessionId, rate: imported.messages / ((performance.now() - start) / 1000) };
}

/** p95 of `turns` record() calls on a session, with messages of the same kind. */
async function recordP95(memory: Memory, sessionId: string, seed: number, turns = 100): Promise<number> {
  const session = await memory.sessions.open(sessionId);
  const messages = realisticChat(turns * 2, seed);
  const samples: number[] = [];
  for (let index = 0; index + 1 < messages.length; index += 2) {
    const start = performance.now();
    await session.record({ user: messages[index]?.content ?? '', assistant: messages[index + 1]?.content ?? '' });
    samples.push(performance.now() - start);
  }
  return summarise(samples.slice(5)).p95;
}

/** Heap after GC, in MiB (NaN without `--expose-gc`). */
function heapAfterGc(): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) return Number.NaN;
  collect();
  collect();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

/** Heap growth per 1,000 messages recorded one turn at a time, after the first 1,000 (caches filled). */
async function heapPerThousand(memory: Memory, rows: Rows): Promise<void> {
  const session = await memory.sessions.create({ title: 'Heap' });
  const messages = realisticChat(Math.max(3000, sized(6000)), 99);
  let first = Number.NaN;
  for (let index = 0; index + 1 < messages.length; index += 2) {
    await session.record({ user: messages[index]?.content ?? '', assistant: messages[index + 1]?.content ?? '' });
    if (index + 2 === 1000) first = heapAfterGc();
  }
  const last = heapAfterGc();
  const perThousand = (last - first) / ((messages.length - 1000) / 1000);
  rows.push(['heap after GC, recording', Number.isNaN(last) ? 'run with node --expose-gc' : `${first.toFixed(1)} MiB at 1,000 messages, ${last.toFixed(1)} MiB at ${messages.length.toLocaleString('en-US')}: ${perThousand.toFixed(2)} MiB per 1,000`]);
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'strata-scale-'));
  const path = join(folder, 'scale.db');
  const rows: Rows = [];
  let memory = createMemory({ path, env: ENV });
  try {
    const probe = await timedImport(memory, realisticChat(sized(1000), 1), 'Probe');
    const alone = await queryReads(memory, probe.sessionId);
    rows.push(['1k session, tenant otherwise empty: query read 8k', `p50 ${ms(alone.p50)} · p95 ${ms(alone.p95)}`]);

    let total = sized(1000);
    for (const [size, seed] of [[sized(10_000), 2], [sized(100_000), 3]] as const) {
      const imported = await timedImport(memory, realisticChat(size, seed), `Session of ${size}`);
      total += size;
      const label = `${(size / 1000).toLocaleString('en-US')}k session`;
      rows.push([`${label}: import`, `${Math.round(imported.rate).toLocaleString('en-US')} messages/s`]);
      if (size === sized(100_000)) {
        await memory.close();
        memory = createMemory({ path, env: ENV });
        const session = await memory.sessions.open(imported.sessionId);
        const start = performance.now();
        await session.context({ budget: 8000, query: QUERIES[0] ?? '' });
        rows.push([`${label}: first query read of a fresh memory`, ms(performance.now() - start)]);
      }
      const reads = await queryReads(memory, imported.sessionId);
      rows.push([`${label}: query read 8k`, `p50 ${ms(reads.p50)} · p95 ${ms(reads.p95)}`]);
      rows.push([`${label}: record() p95`, ms(await recordP95(memory, imported.sessionId, seed + 100))]);
    }

    for (let seed = 10; total < sized(300_000); seed += 1) {
      const size = Math.min(sized(50_000), sized(300_000) - total);
      const filler = await timedImport(memory, realisticChat(size, seed), `Filler ${seed}`);
      total += size;
      rows.push([`filler session of ${(size / 1000).toLocaleString('en-US')}k: import`, `${Math.round(filler.rate).toLocaleString('en-US')} messages/s`]);
    }
    const crowded = await queryReads(memory, probe.sessionId);
    rows.push([`1k session, tenant of ${total.toLocaleString('en-US')} messages: query read 8k`, `p50 ${ms(crowded.p50)} · p95 ${ms(crowded.p95)} (${(crowded.p95 / alone.p95).toFixed(2)}× the p95 alone)`]);

    await heapPerThousand(memory, rows);
    printTable(`Strata at scale — realistic chat text, ${total.toLocaleString('en-US')} messages in one tenant, node ${process.version}`, rows);
  } finally {
    await memory.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
