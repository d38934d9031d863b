/**
 * A 1,000-message session's query reads on PostgreSQL, alone in its tenant and once the tenant holds a
 * million archived messages (issue 21: p95 ≤ 50 ms then). The probe session is imported as a user would
 * (local manager); the archive around it is realistic chat written straight through the store's
 * repositories in batches (its memory is never derived: a query read of another session searches only
 * that session's messages, whatever the others hold), so filling a million messages takes minutes,
 * not hours.
 *
 * Run: `STRATA_DB=postgres://… npm run bench:tenant` (`STRATA_BENCH_FILL` sets the archive's size;
 * the schema it makes is dropped afterwards).
 */
import { randomUUID } from 'node:crypto';
import type { Message } from '../src/core/types.js';
import { scratchStore } from '../src/eval/scratch-store.js';
import { createMemory } from '../src/memory/create-memory.js';
import { isPostgresUrl } from '../src/memory/default-store.js';
import { createGptTokenizer } from '../src/providers/tokenizer/gpt-tokenizer.js';
import type { TenantRepositories } from '../src/store/store.js';
import { summarise } from './percentile.js';
import { printTable } from './print-table.js';
import { realisticChat } from './realistic-chat.js';

const FILL = Number(process.env.STRATA_BENCH_FILL ?? 1_000_000);
const SESSION_SIZE = 50_000;
const BATCH = 5_000;
const QUERIES = ['how much did the plumber quote', 'when is the flight to Lisbon', 'who is looking after the dog', 'what did we decide about the budget', 'the dentist appointment'];

const ms = (value: number): string => `${value.toFixed(1)} ms`;

async function queryReads(read: (query: string) => Promise<void>, rounds = 110): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    await read(QUERIES[round % QUERIES.length] ?? '');
    samples.push(performance.now() - start);
  }
  return summarise(samples.slice(10));
}

/** Archive `count` realistic messages in sessions of `SESSION_SIZE`, written through the repositories. */
async function fill(tenant: TenantRepositories, count: number, onProgress: (written: number) => void): Promise<void> {
  const tokenizer = createGptTokenizer();
  let written = 0;
  for (let sessionIndex = 0; written < count; sessionIndex += 1) {
    const sessionId = randomUUID();
    const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
    await tenant.sessions.create({ session: { id: sessionId, title: `Archive ${String(sessionIndex)}`, instructions: '', createdAt: at, updatedAt: at, messageCount: 0, turnCount: 0, tokenCount: 0 } });
    for (let position = 0; position < SESSION_SIZE && written < count; position += BATCH) {
      const chat = realisticChat(Math.min(BATCH, count - written), 1000 + sessionIndex * 100 + position / BATCH, at);
      const messages: Message[] = chat.map((entry, index) => {
        const tokens = tokenizer.count(entry.content);
        return {
          id: randomUUID(),
          sessionId,
          turn: Math.floor((position + index) / 2) + 1,
          position: position + index,
          role: entry.role,
          speaker: null,
          content: entry.content,
          tier1: entry.content.slice(0, 80),
          tier2: entry.content.slice(0, 200),
          tokens: { tier1: Math.min(tokens, 20), tier2: Math.min(tokens, 50), tier3: tokens },
          requiredTier: 2,
          createdAt: entry.timestamp,
          sentAt: entry.timestamp,
          externalId: null,
        };
      });
      await tenant.messages.append({ sessionId, messages, updatedAt: at });
      written += messages.length;
      onProgress(written);
    }
  }
}

async function main(): Promise<void> {
  const database = process.env.STRATA_DB;
  if (database === undefined || !isPostgresUrl(database)) throw new Error('Set STRATA_DB to a PostgreSQL URL to run this benchmark.');
  const scratch = scratchStore(database);
  const store = scratch.options.store;
  if (store === undefined) throw new Error('The scratch store is not PostgreSQL.');
  const rows: Array<[string, string]> = [];
  const memory = createMemory({ store, env: {} });
  try {
    const imported = await memory.sessions.import({ data: realisticChat(1000, 1), title: 'Probe' });
    const session = await memory.sessions.open(imported.sessionId);
    const read = async (query: string): Promise<void> => {
      const pkg = await session.context({ budget: 8000, query });
      if (pkg.tokens > 8000) throw new Error(`budget exceeded: ${String(pkg.tokens)} > 8000`);
    };
    const alone = await queryReads(read);
    rows.push(['1k session, tenant otherwise empty: query read 8k', `p50 ${ms(alone.p50)} · p95 ${ms(alone.p95)}`]);
    const start = performance.now();
    let last = 0;
    await fill(store.tenant('default'), FILL, (written) => {
      if (written - last >= 100_000) {
        last = written;
        console.error(`archived ${written.toLocaleString('en-US')} messages in ${((performance.now() - start) / 1000).toFixed(0)} s`);
      }
    });
    const seconds = (performance.now() - start) / 1000;
    rows.push([`archive of ${FILL.toLocaleString('en-US')} messages written`, `${Math.round(FILL / seconds).toLocaleString('en-US')} messages/s through the repositories`]);
    const crowded = await queryReads(read);
    rows.push([`1k session, tenant of ${(FILL + 1000).toLocaleString('en-US')} messages: query read 8k`, `p50 ${ms(crowded.p50)} · p95 ${ms(crowded.p95)}`]);
    printTable(`Strata on PostgreSQL — a session among a million archived messages, node ${process.version}`, rows);
  } finally {
    await memory.close();
    await scratch.drop();
  }
}

await main();
