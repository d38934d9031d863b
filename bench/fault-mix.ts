/**
 * Fault-mix bench: 500 turns recorded with the model memory manager while its model times out, answers
 * malformed JSON or HTTP 500; then the faults stop and the retry queue drains.
 */
import { join } from 'node:path';
import { createMemory, type SessionHandle } from '../src/memory/create-memory.js';
import { countUngroundedFacts } from './count-grounding.js';
import { createFaultMixResponder, planFaults } from './fault-mix-responder.js';
import { generateConversation } from './generate-conversation.js';
import { scriptedMemoryManager, startChoosingServer } from './scripted-memory-model.js';

const TURNS = 500;
const MEMORY_TIMEOUT_MS = 150;
/** Long enough that the queue still holds turns when the faults stop, short enough to drain in seconds. */
const RETRY_BASE_MS = 500;
const DRAIN_DEADLINE_MS = 300_000;

function tally(statuses: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([status, count]) => `${status} ${count}`).join(' · ');
}

async function statusesOf(session: SessionHandle): Promise<string[]> {
  return (await session.turns()).map((turn) => turn.status);
}

async function drain(session: SessionHandle): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < DRAIN_DEADLINE_MS) {
    if (!(await statusesOf(session)).includes('pending-retry')) return performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The retry queue did not drain within ${DRAIN_DEADLINE_MS / 1000} s.`);
}

export async function runFaultMix(folder: string): Promise<Array<[string, string]>> {
  const responder = createFaultMixResponder(7);
  const server = await startChoosingServer((request) => responder.answer(request));
  const manager = scriptedMemoryManager(server, MEMORY_TIMEOUT_MS);
  const memory = createMemory({ path: join(folder, 'fault-mix.db'), env: { STRATA_RETRY_BASE_MS: String(RETRY_BASE_MS), STRATA_LOG_LEVEL: 'silent' }, manager });
  try {
    const session = await memory.sessions.create({ title: 'Fault mix' });
    const messages = generateConversation(TURNS * 2, 11, { shortReplyShare: 0.2 });
    const faults = planFaults(TURNS, 5);
    const recorded: string[] = [];
    const queued = new Set<number>();
    const start = performance.now();
    for (let turn = 0; turn < TURNS; turn += 1) {
      const user = messages[turn * 2]?.content ?? '';
      const assistant = messages[turn * 2 + 1]?.content ?? '';
      responder.expect([user, assistant], faults[turn] ?? 'none');
      const result = await session.record({ user, assistant });
      recorded.push(result.status);
      if (result.status === 'pending-retry') queued.add(result.turn);
    }
    const recordSeconds = (performance.now() - start) / 1000;
    const beforeDrain = await statusesOf(session);
    responder.stopFaults();
    const drainMs = await drain(session);
    const turns = await session.turns();
    const storedMessages = (await session.messages()).length;
    const retried = turns.filter((turn) => queued.has(turn.turn) && turn.status === 'summarised').length;
    const rawFallbacks = turns.filter((turn) => turn.status === 'fallback-raw').length;
    const events = await session.factEvents();
    const rejects = events.filter((event) => event.op === 'reject');
    const groundingRejects = rejects.filter((event) => event.reason.startsWith('not grounded'));
    const grounding = await countUngroundedFacts(session);
    const stats = manager.stats();
    return [
      ['fault plan (per turn, seeded)', tally(faults)],
      ['turns stored', `${turns.length} / ${TURNS} (${storedMessages} of ${TURNS * 2} messages) in ${recordSeconds.toFixed(1)} s`],
      ['statuses as recorded', tally(recorded)],
      ['statuses before draining', tally(beforeDrain)],
      ['statuses after draining', `${tally(turns.map((turn) => turn.status))} (drained in ${(drainMs / 1000).toFixed(1)} s)`],
      ['queued turns summarised after', `${retried} / ${queued.size} (pending-retry when recorded: time-out, HTTP 500 or malformed twice)`],
      ['fallback-raw turns', `${rawFallbacks} (a turn still malformed after 10 attempts ends so)`],
      ['ungrounded facts applied', `${grounding.ungrounded} of ${grounding.facts} facts in the final document`],
      ['reject events', `${rejects.length} (${groundingRejects.length} not grounded; ${responder.ungroundedSent()} ungrounded entries served; one that arrives after the time-out is never read)`],
      ['memory-model calls', `${stats.calls} (${stats.retries} malformed retries, ${stats.fallbacks} fallbacks, ${stats.skippedShort} short turns with no call)`],
      ['scripted server problems', server.problems.length === 0 ? 'none' : server.problems.slice(0, 3).join('; ')],
    ];
  } finally {
    await memory.close();
    await server.close();
  }
}
