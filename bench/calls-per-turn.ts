/** Calls-per-turn bench: a mixed conversation recorded with the model memory manager and a model that never fails. */
import { join } from 'node:path';
import { createMemory } from '../src/memory/create-memory.js';
import { NO_CONSOLIDATION, exchangeOf, memoryAnswer } from './memory-answer.js';
import { generateConversation } from './generate-conversation.js';
import { scriptedMemoryManager, startChoosingServer } from './scripted-memory-model.js';

const TURNS = 500;

export async function runCallsPerTurn(folder: string): Promise<Array<[string, string]>> {
  const server = await startChoosingServer((request) => {
    const exchange = exchangeOf(request);
    return exchange.length === 0 ? NO_CONSOLIDATION : memoryAnswer(exchange, { ungrounded: false });
  });
  const manager = scriptedMemoryManager(server, 8_000);
  const memory = createMemory({ path: join(folder, 'calls-per-turn.db'), env: { STRATA_LOG_LEVEL: 'silent' }, manager });
  try {
    const session = await memory.sessions.create({ title: 'Calls per turn' });
    const messages = generateConversation(TURNS * 2);
    for (let turn = 0; turn < TURNS; turn += 1) {
      await session.record({ user: messages[turn * 2]?.content ?? '', assistant: messages[turn * 2 + 1]?.content ?? '' });
    }
    const stats = manager.stats();
    const consolidations = server.requests.filter((request) => exchangeOf(request).length === 0).length;
    const statuses = (await session.turns()).map((turn) => turn.status);
    const summarised = statuses.filter((status) => status === 'summarised').length;
    return [
      ['memory-model calls per turn', `${(stats.calls / TURNS).toFixed(2)} (${stats.calls} calls, ${consolidations} of them consolidations, ${server.requests.length} requests, for ${TURNS} turns)`],
      ['turns with no call', `${((stats.skippedShort / TURNS) * 100).toFixed(1)} % (short exchanges, summarised locally)`],
      ['turns summarised', `${summarised} / ${TURNS}`],
    ];
  } finally {
    await memory.close();
    await server.close();
  }
}
