/**
 * `npm run bench:server`: the proxy's cost and its behaviour under load, on loopback, against a scripted
 * chat endpoint that answers at once. The endpoint and the proxy each run on a thread of their own, as
 * they would in processes of their own; this thread is the client.
 * - Overhead: a 1,000-turn session (realistic chat text), budget 30,000 tokens; pairs of requests,
 *   interleaved: the prompt the proxy will send (the session's package and the new message) sent
 *   straight to the endpoint, and the new message sent through the proxy. The proxy's added time is the
 *   difference within each pair (whole answer, and first streamed byte): what it does beyond the
 *   endpoint's own handling of the same prompt (built by a second memory on the file, so the server's
 *   caches gain nothing from it). Each proxied turn's memory is let land before the next pair, as between
 *   a person's messages.
 * - Load: 200 clients streaming 10 turns each at once, each its own session; every turn must come back
 *   whole and be stored once, in order.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createMemory } from '../src/memory/create-memory.js';
import type { Memory } from '../src/memory/memory-api.js';
import { summarise } from './percentile.js';
import { printTable } from './print-table.js';
import { realisticChat } from './realistic-chat.js';

const REPLY = 'Noted. I will keep the budget, the dates and the people involved in mind.';
const PAIRS = Math.max(40, Number(process.env.STRATA_BENCH_PAIRS ?? 220));
const WARM_UP = 20;
const CLIENTS = Number(process.env.STRATA_BENCH_CLIENTS ?? 200);
const TURNS_EACH = 10;

const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** Milliseconds to the first byte of the answer and to its end. */
async function timed(url: string, headers: Record<string, string>, body: unknown): Promise<{ first: number; whole: number; text: string }> {
  const start = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!response.ok || response.body === null) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let first = Number.NaN;
  let text = '';
  for (;;) {
    const next = await reader.read();
    if (Number.isNaN(first)) first = performance.now() - start;
    if (next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  return { first, whole: performance.now() - start, text };
}

/** Resolves once the session holds `messages` messages and the last turn's memory is written (the proxy records after answering). */
async function settled(memory: Memory, sessionId: string, messages: number): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 2) {
    // (The proxy makes a new session only when it records its first turn.)
    const session = await memory.sessions.open(sessionId).catch(() => null);
    if (session !== null && (await session.info()).messageCount >= messages) {
      const turns = await session.turns();
      if (turns[turns.length - 1]?.status !== 'pending-retry') return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`session ${sessionId} never reached ${messages} messages with its memory written`);
}

async function overhead(memory: Memory, proxy: string, key: string, upstream: string, stream: boolean): Promise<Array<[string, string]>> {
  const imported = await memory.sessions.import({ data: realisticChat(2000, 5), title: 'Proxy overhead' });
  const questions = realisticChat(PAIRS * 2, 17).filter((message) => message.role === 'user');
  const added: number[] = [];
  const firstByte: number[] = [];
  let count = imported.messages;
  // The prompt sent straight is built by this thread's memory, so the proxy's caches gain nothing from it.
  const session = await memory.sessions.open(imported.sessionId);
  for (const [index, question] of questions.entries()) {
    const body = { model: 'scripted-chat', stream, messages: [{ role: 'user', content: question.content }] };
    const prompt = [...(await session.context({ budget: 30_000, query: question.content })).render(), ...body.messages];
    const direct = await timed(`${upstream}/chat/completions`, {}, { ...body, messages: prompt });
    const proxied = await timed(`${proxy}/v1/chat/completions`, { authorization: `Bearer ${key}`, 'x-strata-session': imported.sessionId, 'x-strata-budget': '30000' }, body);
    count += 2;
    await settled(memory, imported.sessionId, count);
    if (index < WARM_UP) continue;
    added.push(proxied.whole - direct.whole);
    firstByte.push(proxied.first - direct.first);
  }
  const whole = summarise(added);
  const first = summarise(firstByte);
  const label = stream ? 'streamed' : 'plain';
  return [
    [`${label}: time added to the answer`, `p50 ${ms(whole.p50)} · p95 ${ms(whole.p95)} (${added.length} pairs after ${WARM_UP} warm-up, ${imported.turns.toLocaleString('en-US')}-turn session)`],
    ...(stream ? [[`${label}: time added to the first byte`, `p50 ${ms(first.p50)} · p95 ${ms(first.p95)}`] as [string, string]] : []),
  ];
}

async function load(memory: Memory, proxy: string, key: string): Promise<Array<[string, string]>> {
  let errors = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let turn = 1; turn <= TURNS_EACH; turn += 1) {
        const body = { model: 'scripted-chat', stream: true, messages: [{ role: 'user', content: `Client ${client}, turn ${turn}: what is next on the list?` }] };
        try {
          const answer = await timed(`${proxy}/v1/chat/completions`, { authorization: `Bearer ${key}`, 'x-strata-session': `load-${client}` }, body);
          if (!answer.text.includes('[DONE]')) errors += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  let wrong = 0;
  for (let client = 0; client < CLIENTS; client += 1) {
    await settled(memory, `load-${client}`, TURNS_EACH * 2);
    const messages = await (await memory.sessions.open(`load-${client}`)).messages();
    const expected = Array.from({ length: TURNS_EACH }, (_, index) => [`Client ${client}, turn ${index + 1}: what is next on the list?`, REPLY]).flat();
    if (JSON.stringify(messages.map((message) => message.content)) !== JSON.stringify(expected)) wrong += 1;
  }
  return [
    [`${CLIENTS} streaming clients × ${TURNS_EACH} turns`, `${errors} errors · ${wrong} sessions with a turn lost, repeated or out of order · ${seconds.toFixed(1)} s`],
  ];
}

const folder = mkdtempSync(join(tmpdir(), 'strata-bench-server-'));
const path = join(folder, 'server.db');
const worker = new Worker(new URL('./scripted-chat-worker.js', import.meta.url), { workerData: REPLY });
const [upstream] = (await once(worker, 'message')) as [string];
const proxy = new Worker(new URL('./proxy-worker.js', import.meta.url), { workerData: { path, upstream } });
const [{ url, key }] = (await once(proxy, 'message')) as [{ url: string; key: string }];
// This thread's memory imports the sessions, builds the prompts sent straight and checks what was stored.
const memory = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent' } });
try {
  const rows = [...(await overhead(memory, url, key, upstream, false)), ...(await overhead(memory, url, key, upstream, true)), ...(await load(memory, url, key))];
  printTable(`Strata server — the proxy on loopback, node ${process.version}`, rows);
} finally {
  await memory.close();
  proxy.postMessage('close');
  await once(proxy, 'exit');
  worker.postMessage('close');
  await once(worker, 'exit');
  rmSync(folder, { recursive: true, force: true });
}
