/**
 * The model-memory benchmark (issue 4's figures) against the scripted OpenAI-compatible server:
 * the phase-1 overhead of a chat turn, the fault mix and the memory-model calls per turn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCallsPerTurn } from './calls-per-turn.js';
import { runChatOverhead } from './chat-overhead.js';
import { runFaultMix } from './fault-mix.js';
import { printTable } from './print-table.js';

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'strata-bench-model-'));
  try {
    const load = (): string => loadavg().map((value) => value.toFixed(2)).join(' ');
    const rows: Array<[string, string]> = [['load average at start', load()]];
    // Phase 1 first: the fault mix leaves a large heap behind whose collection would land in its turns.
    rows.push(['— phase-1 overhead', 'scripted chat model that answers at once, local memory manager']);
    rows.push(...(await runChatOverhead(folder)));
    rows.push(['— fault mix', '30 % time-outs, 30 % malformed JSON, 10 % HTTP 500']);
    rows.push(...(await runFaultMix(folder)));
    rows.push(['— calls per turn', 'mixed conversation, no faults']);
    rows.push(...(await runCallsPerTurn(folder)));
    rows.push(['load average at end', load()]);
    console.log('');
    printTable(`Strata model-memory benchmark — scripted OpenAI-compatible server, node ${process.version}`, rows);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
