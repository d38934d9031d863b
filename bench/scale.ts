/**
 * `npm run bench:scale`: Strata at realistic sizes on realistic chat text (30–80-word messages with names,
 * numbers and dates, `realistic-chat.ts`), in one tenant on a database file:
 * - a 1,000-message session's query reads (each with a new user message as its query) while the tenant
 *   is otherwise empty;
 * - import throughput, query reads and `record()` on a 10,000- and a 100,000-message session, and the
 *   first read of the large one by a memory that has read nothing yet;
 * - the 1,000-message session's query reads again once the tenant holds 300,000+ messages;
 * - heap after GC per 1,000 turns recorded, once the caches are full and with none (run with `--expose-gc`),
 *   and what an open session of 1,000 messages keeps.
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

/**
 * The queries of a run of reads: each a new user message, as a chat turn or the proxy asks, and each run
 * its own (`seed`). Five short questions asked in turn flattered the figures: after the first five reads
 * every word was counted already.
 */
function readQueries(seed: number, count: number): string[] {
  return realisticChat(count * 2, seed).flatMap((message) => (message.role === 'user' ? [message.content] : []));
}

/** p50 and p95 of `rounds` query reads of a session at an 8k budget (the first ten warm up and are not counted). */
async function queryReads(memory: Memory, sessionId: string, seed: number, rounds = 110): Promise<{ p50: number; p95: number }> {
  const session = await memory.sessions.open(sessionId);
  const queries = readQueries(seed, rounds);
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    const pkg = await session.context({ budget: 8000, query: queries[round % queries.length] ?? '' });
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

/** Messages recorded by the heap measure, and how many first fill the caches (24 MiB by default). */
const HEAP_MESSAGES = 12_000;
const CACHES_FULL_AT = 6_000;

/**
 * Heap after GC while one session records `HEAP_MESSAGES` messages a turn at a time, in a memory of its
 * own with the given cache bound: growth per 1,000 turns from `from` messages on.
 */
async function heapGrowth(path: string, cacheMegabytes: number, from: number): Promise<{ first: number; last: number; perThousandTurns: number }> {
  const memory = createMemory({ path, env: { ...ENV, STRATA_CACHE_MB: String(cacheMegabytes) } });
  try {
    const session = await memory.sessions.create({ title: `Heap, ${cacheMegabytes} MiB of caches` });
    const messages = realisticChat(HEAP_MESSAGES, 99);
    let first = Number.NaN;
    for (let index = 0; index + 1 < messages.length; index += 2) {
      await session.record({ user: messages[index]?.content ?? '', assistant: messages[index + 1]?.content ?? '' });
      if (index + 2 === from) first = heapAfterGc();
    }
    const last = heapAfterGc();
    return { first, last, perThousandTurns: (last - first) / ((messages.length - from) / 2 / 1000) };
  } finally {
    await memory.close();
  }
}

/** Heap growth beyond the caches (default bound, once full) and with no caches at all. */
async function heapPerThousand(path: string, rows: Rows): Promise<void> {
  if (Number.isNaN(heapAfterGc())) {
    rows.push(['heap after GC, recording', 'run with node --expose-gc']);
    return;
  }
  const count = HEAP_MESSAGES.toLocaleString('en-US');
  const full = await heapGrowth(path, 24, CACHES_FULL_AT);
  rows.push([`heap after GC, recording ${count} messages (24 MiB of caches)`, `${full.first.toFixed(1)} MiB at ${CACHES_FULL_AT.toLocaleString('en-US')} messages (caches full), ${full.last.toFixed(1)} at ${count}: ${full.perThousandTurns.toFixed(2)} MiB per 1,000 turns`]);
  const none = await heapGrowth(path, 0, 1_000);
  rows.push([`heap after GC, recording ${count} messages (no caches)`, `${none.first.toFixed(1)} MiB at 1,000 messages, ${none.last.toFixed(1)} at ${count}: ${none.perThousandTurns.toFixed(2)} MiB per 1,000 turns`]);
}

/** What an open session of 1,000 messages keeps in a memory's heap once it has been read and written. */
async function heapPerOpenSession(path: string, rows: Rows): Promise<void> {
  const sessions = 8;
  const writer = createMemory({ path, env: ENV });
  const ids: string[] = [];
  try {
    for (let index = 0; index < sessions; index += 1) ids.push((await timedImport(writer, realisticChat(1000, 200 + index), `Open ${index}`)).sessionId);
  } finally {
    await writer.close();
  }
  // No caches: what is measured is what each session keeps, not the engine's bounded caches filling.
  const memory = createMemory({ path, env: { ...ENV, STRATA_CACHE_MB: '0' } });
  const use = async (id: string, index: number): Promise<void> => {
    const session = await memory.sessions.open(id);
    await session.context({ budget: 8000, query: QUERIES[index % QUERIES.length] ?? '' });
    await session.record({ user: 'One more thing: the plumber comes on Tuesday at 9 am.', assistant: 'Noted, Tuesday at 9 am.' });
  };
  try {
    // One session first, so the libraries a first read and write load are not counted per session.
    await use(ids[0] ?? '', 0);
    const before = heapAfterGc();
    for (const [index, id] of ids.slice(1).entries()) await use(id, index + 1);
    const after = heapAfterGc();
    if (!Number.isNaN(after)) rows.push(['heap per open session of 1,000 messages (read and written)', `${((after - before) / (sessions - 1)).toFixed(2)} MiB`]);
  } finally {
    await memory.close();
  }
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'strata-scale-'));
  const path = join(folder, 'scale.db');
  const rows: Rows = [];
  let memory = createMemory({ path, env: ENV });
  try {
    const probe = await timedImport(memory, realisticChat(sized(1000), 1), 'Probe');
    const alone = await queryReads(memory, probe.sessionId, 61);
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
      const reads = await queryReads(memory, imported.sessionId, seed + 200);
      rows.push([`${label}: query read 8k`, `p50 ${ms(reads.p50)} · p95 ${ms(reads.p95)}`]);
      rows.push([`${label}: record() p95`, ms(await recordP95(memory, imported.sessionId, seed + 100))]);
    }

    for (let seed = 10; total < sized(300_000); seed += 1) {
      const size = Math.min(sized(50_000), sized(300_000) - total);
      const filler = await timedImport(memory, realisticChat(size, seed), `Filler ${seed}`);
      total += size;
      rows.push([`filler session of ${(size / 1000).toLocaleString('en-US')}k: import`, `${Math.round(filler.rate).toLocaleString('en-US')} messages/s`]);
    }
    const crowded = await queryReads(memory, probe.sessionId, 63);
    rows.push([`1k session, tenant of ${total.toLocaleString('en-US')} messages: query read 8k`, `p50 ${ms(crowded.p50)} · p95 ${ms(crowded.p95)} (${(crowded.p95 / alone.p95).toFixed(2)}× the p95 alone)`]);

    await memory.close();
    await heapPerThousand(path, rows);
    await heapPerOpenSession(path, rows);
    memory = createMemory({ path, env: ENV });
    printTable(`Strata at scale — realistic chat text, ${total.toLocaleString('en-US')} messages in one tenant, node ${process.version}`, rows);
  } finally {
    await memory.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
