import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { MemoryCounters } from '../../src/memory/memory-counters.js';
import { createOpenAiChatModel } from '../../src/providers/openai/openai-chat-model.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptedStep } from '../support/scripted-openai-server.js';
import { MEDIUM_ASSISTANT, MEDIUM_USER, dataOf } from '../managers/model/model-fixtures.js';

const servers: ScriptedServer[] = [];
const memories: Memory[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A real pino logger writing into an array, one parsed record per line. */
function capturingLogger(level = 'debug'): { logger: pino.Logger; records: Array<Record<string, unknown>> } {
  const records: Array<Record<string, unknown>> = [];
  const logger = pino({ level }, { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, records };
}

function answer(request: RecordedRequest): ScriptedStep {
  const [user, assistant] = dataOf(request).exchange;
  return {
    json: {
      userSummary: 'Support app move with a $40,000 budget.',
      assistantSummary: 'Confirmed.',
      messages: [
        { id: user?.id ?? '', tier1: 'budget = $40,000', tier2: 'Moving the support app.' },
        { id: assistant?.id ?? '', tier1: 'confirmed = plan', tier2: 'Confirmed.' },
      ],
      diff: { add: [{ key: 'deadline', text: 'deadline: March 15', kind: 'constraint', sourceMessageIds: [user?.id ?? ''] }], update: [], remove: [] },
    },
    usage: { promptTokens: 120, completionTokens: 30 },
  };
}

describe('counters', () => {
  it('add per session and in total', () => {
    const counters = new MemoryCounters();
    counters.add('a', { turns: 2, tokens: { context: 100 } });
    counters.add('b', { turns: 1, fallbacks: 1 });
    expect(counters.read('a')).toMatchObject({ turns: 2, fallbacks: 0, tokens: { context: 100 } });
    expect(counters.read('b')).toMatchObject({ turns: 1, fallbacks: 1 });
    expect(counters.read()).toMatchObject({ turns: 3, fallbacks: 1, tokens: { context: 100 } });
    expect(counters.read('unknown').turns).toBe(0);
    // Reads are copies.
    counters.read().tokens.context = 7;
    expect(counters.read().tokens.context).toBe(100);
  });
});

describe('observability of a memory', () => {
  it('counts turns, memory-model calls, fallbacks, pending retries and tokens by phase, and logs the fallback', async () => {
    const memoryServer = await startScriptedServer({ script: [answer, { hang: true }] });
    const chatServer = await startScriptedServer({ script: [{ reply: 'Hello!', usage: { promptTokens: 50, completionTokens: 5 } }] });
    servers.push(memoryServer, chatServer);
    const { logger, records } = capturingLogger();
    const memory = createMemory({
      path: ':memory:',
      env: { STRATA_MEMORY_MODEL: 'scripted-memory', STRATA_MEMORY_BASE_URL: memoryServer.baseUrl, STRATA_MEMORY_TIMEOUT_MS: '2000', STRATA_RETRY_BASE_MS: '600000' },
      chatModel: createOpenAiChatModel({ baseUrl: chatServer.baseUrl, model: 'scripted-chat', role: 'chat', maxRetries: 0, fetch }),
      logger,
    });
    memories.push(memory);
    const session = await memory.sessions.create();
    const other = await memory.sessions.create();

    await session.record({ user: MEDIUM_USER, assistant: MEDIUM_ASSISTANT });
    const flagged = await session.record({ user: `${MEDIUM_USER} One more thing about the staging host.`, assistant: MEDIUM_ASSISTANT });
    expect(flagged.status).toBe('pending-retry');
    const chatted = await other.chat('Hi');
    await chatted.memory;

    const stats = await memory.stats({ sessionId: session.id });
    expect(stats).toMatchObject({ turns: 2, chatTurns: 0, memoryModelCalls: 2, fallbacks: 1, pendingRetries: 1 });
    expect(stats.tokens).toMatchObject({ memoryPrompt: 120, memoryCompletion: 30, context: 0 });
    const otherStats = await memory.stats({ sessionId: other.id });
    expect(otherStats).toMatchObject({ turns: 1, chatTurns: 1, memoryModelCalls: 0, pendingRetries: 0, staleTurns: 0 });
    expect(otherStats.tokens.context).toBe(chatted.contextTokens);
    expect(otherStats.tokens).toMatchObject({ chatPrompt: 50, chatCompletion: 5 });
    const total = await memory.stats();
    expect(total).toMatchObject({ turns: 3, chatTurns: 1, memoryModelCalls: 2, fallbacks: 1, pendingRetries: 1 });

    const fallback = records.find((record) => record.msg === 'turn memory fell back to the raw exchange');
    expect(fallback).toMatchObject({ level: 40, sessionId: session.id, turn: 2, status: 'pending-retry', code: 'MODEL_TIMEOUT', retry: true });
    expect(records.some((record) => record.msg === 'chat turn' && record.sessionId === other.id)).toBe(true);
  });

  it('writes a base-truth snapshot every N turns', async () => {
    const { logger, records } = capturingLogger('info');
    const memory = createMemory({ path: ':memory:', env: { STRATA_SNAPSHOT_EVERY_TURNS: '2' }, logger });
    memories.push(memory);
    const session = await memory.sessions.create();
    await session.record({ user: 'The budget is $40,000 and the deadline is March 15.', assistant: 'Noted.' });
    expect(records.filter((record) => record.msg === 'base-truth snapshot')).toEqual([]);
    await session.record({ user: 'We must never store full card numbers.', assistant: 'Understood.' });
    const snapshots = records.filter((record) => record.msg === 'base-truth snapshot');
    expect(snapshots.length).toBe(1);
    expect(snapshots[0]).toMatchObject({ sessionId: session.id, turn: 2 });
    const facts = (await session.facts()).map((fact) => fact.text);
    expect((snapshots[0]?.facts as Array<{ text: string }>).map((fact) => fact.text)).toEqual(facts);
  });

  it('rejects stats for an unknown session', async () => {
    const memory = createMemory({ path: ':memory:', env: {}, logger: pino({ level: 'silent' }) });
    memories.push(memory);
    await expect(memory.stats({ sessionId: 'nope' })).rejects.toThrow(/No session "nope"/u);
  });
});
