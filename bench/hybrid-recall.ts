/**
 * `npm run bench:recall`: what hybrid recall costs, on realistic chat text (`realistic-chat.ts`) in a
 * session of 10,000 messages (`STRATA_BENCH_SCALE` multiplies it):
 * - embedding at archive time with the offline embedder: the messages a fresh hybrid memory embeds
 *   before its first query read, per second (that read less a warm one);
 * - query reads at an 8,000-token budget, hybrid and lexical (BM25 alone) on the same database,
 *   interleaved read by read, p50 and p95 of each and the ratio of the p95s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '../src/memory/create-memory.js';
import type { SessionHandle } from '../src/memory/memory-api.js';
import { summarise } from './percentile.js';
import { printTable } from './print-table.js';
import { realisticChat } from './realistic-chat.js';

const SCALE = Number(process.env.STRATA_BENCH_SCALE ?? 1);
const MESSAGES = Math.max(200, Math.round(10_000 * SCALE));
const QUERIES = ['when is the appointment', 'how much was the deposit', 'who is coming on Saturday', 'what did we decide about the flights', 'budget for the kitchen'];
const ROUNDS = 110;
const ENV = { STRATA_LOG_LEVEL: 'silent' };

async function read(session: SessionHandle, round: number): Promise<number> {
  const start = performance.now();
  const pkg = await session.context({ budget: 8000, query: QUERIES[round % QUERIES.length] ?? '' });
  const elapsed = performance.now() - start;
  if (pkg.tokens > 8000) throw new Error(`budget exceeded: ${pkg.tokens} > 8000`);
  return elapsed;
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'strata-bench-recall-'));
  const path = join(folder, 'strata.db');
  try {
    // Imported by a lexical memory, which embeds nothing: the hybrid one finds every message unembedded.
    const writer = createMemory({ path, recall: 'lexical', env: ENV });
    const { sessionId } = await writer.sessions.import({ data: realisticChat(MESSAGES, 7), title: 'Recall bench' });
    await writer.close();

    const hybrid = createMemory({ path, env: ENV });
    const lexical = createMemory({ path, recall: 'lexical', env: ENV });
    const hybridSession = await hybrid.sessions.open(sessionId);
    const lexicalSession = await lexical.sessions.open(sessionId);
    const first = await read(hybridSession, 0);
    const warm = await read(hybridSession, 0);
    const embedded = (await hybrid.stats({ sessionId })).messagesEmbedded;
    const hybridSamples: number[] = [];
    const lexicalSamples: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first, so neither always reads a cache the other warmed.
      const pair = round % 2 === 0 ? [hybridSession, lexicalSession] : [lexicalSession, hybridSession];
      for (const session of pair) (session === hybridSession ? hybridSamples : lexicalSamples).push(await read(session, round));
    }
    const hybridReads = summarise(hybridSamples.slice(10));
    const lexicalReads = summarise(lexicalSamples.slice(10));
    await Promise.all([hybrid.close(), lexical.close()]);
    const ms = (value: number): string => `${value.toFixed(1)} ms`;
    printTable(`Hybrid recall, a session of ${MESSAGES.toLocaleString('en-US')} realistic messages, budget 8,000 with a query`, [
      ['embedding before the first read (offline embedder)', `${embedded.toLocaleString('en-US')} messages in ${ms(first - warm)}: ${Math.round(embedded / ((first - warm) / 1000)).toLocaleString('en-US')} messages/s`],
      ['query read, hybrid: p50 / p95', `${ms(hybridReads.p50)} / ${ms(hybridReads.p95)}`],
      ['query read, lexical: p50 / p95', `${ms(lexicalReads.p50)} / ${ms(lexicalReads.p95)}`],
      ['p95 hybrid / lexical', `${(hybridReads.p95 / lexicalReads.p95).toFixed(2)}×`],
    ]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
