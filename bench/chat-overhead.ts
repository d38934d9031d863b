/**
 * Phase-1 overhead bench: chat turns on a 1,000-turn session against a scripted chat model (on another
 * thread) that answers at once, with the local memory manager; `overheadMs` is Strata's time before the model call (waiting
 * for the previous turn's memory, assembly, bookkeeping).
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createMemory } from '../src/memory/create-memory.js';
import { createOpenAiChatModel } from '../src/providers/openai/openai-chat-model.js';
import { generateConversation } from './generate-conversation.js';
import { summarise } from './percentile.js';

const SESSION_TURNS = 1_000;
const CHAT_TURNS = 220;
const WARM_UP_TURNS = 20;
const REPLY = 'Noted. I will keep the budget, the owners and the review dates in mind and report back.';

function figures(samples: readonly number[]): string {
  const { p50, p95 } = summarise(samples);
  return `p50 ${p50.toFixed(2)} ms · p95 ${p95.toFixed(2)} ms · max ${Math.max(...samples).toFixed(2)} ms`;
}

export async function runChatOverhead(folder: string): Promise<Array<[string, string]>> {
  // The model answers from another thread, as a real one answers from another process.
  const server = new Worker(new URL('./scripted-chat-worker.js', import.meta.url), { workerData: REPLY });
  const [baseUrl] = (await once(server, 'message')) as [string];
  const chatModel = createOpenAiChatModel({ baseUrl, model: 'scripted-chat', role: 'chat', maxRetries: 0, fetch });
  const memory = createMemory({ path: join(folder, 'chat-overhead.db'), env: { STRATA_LOG_LEVEL: 'silent' }, chatModel });
  try {
    const imported = await memory.sessions.import({ data: generateConversation(SESSION_TURNS * 2), title: 'Chat overhead' });
    const session = await memory.sessions.open(imported.sessionId);
    const questions = generateConversation(CHAT_TURNS * 2, 9).filter((message) => message.role === 'user');
    const overhead: number[] = [];
    const lockWaits: number[] = [];
    let stale = 0;
    let budget = 0;
    for (const [index, question] of questions.entries()) {
      const result = await session.chat(question.content);
      budget = result.budget;
      if (index < WARM_UP_TURNS) continue;
      overhead.push(result.overheadMs);
      lockWaits.push(result.lockWaitMs);
      if (result.staleMemory) stale += 1;
    }
    return [
      ['session', `${imported.turns.toLocaleString('en-US')} imported turns + ${questions.length} chat turns, budget ${budget.toLocaleString('en-US')} tokens`],
      ['phase-1 overhead', `${figures(overhead)} (${overhead.length} turns after ${WARM_UP_TURNS} warm-up)`],
      ['  of which lock wait', `${figures(lockWaits)} · stale memory on ${stale} turns`],
    ];
  } finally {
    await memory.close();
    server.postMessage('close');
    await once(server, 'exit');
  }
}
