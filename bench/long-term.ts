/**
 * Long-term memory at scale: a tenant of 100,000 memories (STRATA_BENCH_MEMORIES) of varied sentences,
 * tagged and linked, then lookups by key and by name through the memory API (issue 22: p95 ≤ 2 ms) and
 * recall for realistic questions, all paths (p95 ≤ 50 ms), and a maintenance pass of the local agents over
 * 1,000 memories (≤ 10 s), in a tenant of 1,000 and over the least recently tended of the large tenant,
 * with no limit on changes. SQLite by default (a file, writes not synced),
 * PostgreSQL with STRATA_DB=postgres://… (a schema of its own, dropped afterwards). The memories are written
 * through the repository in transactions of 1,000, as an import would.
 *
 * Run: `npm run bench:long-term`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchStore } from '../src/eval/scratch-store.js';
import { createMemory } from '../src/memory/create-memory.js';
import { isPostgresUrl } from '../src/memory/default-store.js';
import { createSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { summarise } from './percentile.js';
import { printTable } from './print-table.js';
import { seededRandom } from './seeded-random.js';
import { memoryText, question } from './long-term-text.js';

const COUNT = Number(process.env.STRATA_BENCH_MEMORIES ?? 100_000);
const BATCH = 1000;
const LOOKUPS = 2000;

const RECALLS = 500;
const MAINTAINED = 1000;

const ms = (value: number): string => `${value.toFixed(3)} ms`;

async function fill(store: Store, tenantId: string, count: number): Promise<void> {
  const tenant = store.tenant(tenantId);
  const at = '2026-05-01T10:00:00.000Z';
  const random = seededRandom(3);
  for (let start = 0; start < count; start += BATCH) {
    await tenant.transaction(async (repositories) => {
      for (let index = start; index < Math.min(count, start + BATCH); index += 1) {
        const id = `memory-${String(index)}`;
        const { value, tags } = memoryText(random, index);
        await repositories.longTerm.create({ memory: { id, name: `fact-${String(index)}`, value, sources: [], at }, by: 'system', reason: 'benchmark' });
        await repositories.longTerm.tag({ id, tags, by: 'system', at });
        // One memory in ten relates to an earlier one, so recall has edges to follow.
        if (index % 10 === 9) await repositories.longTerm.link({ edge: { fromId: id, toId: `memory-${String(Math.floor(random() * index))}`, type: 'relates-to', by: 'system', at, reason: 'benchmark' } });
      }
    });
  }
}

/** Recall for questions like a chat's, each timed; returns the samples. */
async function timeRecalls(memory: ReturnType<typeof createMemory>): Promise<{ samples: number[]; empty: number }> {
  const random = seededRandom(11);
  const samples: number[] = [];
  let empty = 0;
  for (let round = 0; round < RECALLS; round += 1) {
    const begin = performance.now();
    const found = await memory.memories.recall({ query: question(random) });
    samples.push(performance.now() - begin);
    if (found.nothingRelevant) empty += 1;
  }
  return { samples, empty };
}

/** A maintenance pass of every local agent over 1,000 memories: in a tenant of 1,000, then in the large tenant. */
async function timeMaintenance(store: Store, large: ReturnType<typeof createMemory>, rows: Array<[string, string]>): Promise<void> {
  await fill(store, 'small', MAINTAINED);
  const small = createMemory({ store, tenant: 'small', env: {} });
  try {
    for (const [label, memory] of [
      [`maintenance pass, tenant of ${MAINTAINED.toLocaleString('en-US')}`, small],
      [`maintenance pass, ${MAINTAINED.toLocaleString('en-US')} of ${COUNT.toLocaleString('en-US')}`, large],
    ] as const) {
      const begin = performance.now();
      const run = await memory.memories.tend({ limit: MAINTAINED, maxChanges: 100_000 });
      const changes = run.actions.filter((action) => action.kind !== 'flag').length;
      const flags = run.actions.length - changes;
      rows.push([label, `${((performance.now() - begin) / 1000).toFixed(2)} s · ${String(run.examined)} examined, ${String(changes)} changes, ${String(flags)} flags`]);
    }
  } finally {
    await small.close();
  }
}

async function main(): Promise<void> {
  const database = process.env.STRATA_DB;
  const postgres = database !== undefined && isPostgresUrl(database) ? scratchStore(database) : null;
  const folder = mkdtempSync(join(tmpdir(), 'strata-long-term-'));
  const store = postgres?.options.store ?? createSqliteStore({ path: join(folder, 'long-term.db'), durability: 'normal' });
  const memory = createMemory({ store, env: {} });
  const rows: Array<[string, string]> = [];
  try {
    const start = performance.now();
    await fill(store, 'default', COUNT);
    rows.push([`${COUNT.toLocaleString('en-US')} memories written`, `${((performance.now() - start) / 1000).toFixed(1)} s`]);
    const random = seededRandom(7);
    for (const [label, reference] of [
      ['lookup by key', (index: number) => `M${(index + 1).toString(36).toUpperCase()}`],
      ['lookup by name', (index: number) => `fact-${String(index)}`],
    ] as const) {
      const samples: number[] = [];
      for (let round = 0; round < LOOKUPS; round += 1) {
        const index = Math.floor(random() * COUNT);
        const begin = performance.now();
        const found = await memory.memories.get(reference(index));
        samples.push(performance.now() - begin);
        if (found.name !== `fact-${String(index)}`) throw new Error(`${label} found the wrong memory`);
      }
      const { p50, p95 } = summarise(samples.slice(100));
      rows.push([`${label} (memory.memories.get)`, `p50 ${ms(p50)} · p95 ${ms(p95)}`]);
    }
    const recalls = await timeRecalls(memory);
    const { p50, p95 } = summarise(recalls.samples.slice(50));
    rows.push([`recall, all paths (memory.memories.recall)`, `p50 ${ms(p50)} · p95 ${ms(p95)} · ${String(recalls.empty)} of ${String(RECALLS)} found nothing relevant`]);
    await timeMaintenance(store, memory, rows);
    printTable(`Long-term memory — ${COUNT.toLocaleString('en-US')} memories in one tenant, ${postgres === null ? 'SQLite' : 'PostgreSQL'}, node ${process.version}`, rows);
  } finally {
    await memory.close();
    if (postgres === null) await store.close();
    await postgres?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
