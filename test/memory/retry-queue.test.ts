import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory, type SessionHandle } from '../../src/memory/create-memory.js';
import { retryDelay } from '../../src/memory/retry-runner.js';
import type { RecordedRequest, ScriptedStep } from '../support/scripted-openai-server.js';
import { startScriptedServer, type ScriptedServer, type ScriptEntry } from '../support/scripted-openai-server.js';
import { temporaryFolder } from '../support/memory-fixtures.js';
import { recordingLogger, warnings } from '../support/recording-logger.js';
import { MEDIUM_ASSISTANT, MEDIUM_USER, dataOf } from '../managers/model/model-fixtures.js';

const servers: ScriptedServer[] = [];
const memories: Memory[] = [];
const cleanups: Array<() => void> = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  logs.splice(0);
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function serve(script: ScriptEntry[]): Promise<ScriptedServer> {
  const server = await startScriptedServer({ script });
  servers.push(server);
  return server;
}

/** A well-formed memory answer for whatever exchange the request carries. */
function goodAnswer(request: RecordedRequest): ScriptedStep {
  const [user, assistant] = dataOf(request).exchange;
  return {
    json: {
      userSummary: 'Support app move: $40,000 budget, March 15 deadline.',
      assistantSummary: 'Confirmed the budget and the deadline.',
      messages: [
        { id: user?.id ?? '', tier1: 'budget = $40,000; deadline = March 15', tier2: 'Moving the support app; $40,000, March 15.' },
        { id: assistant?.id ?? '', tier1: 'confirmed = plan', tier2: 'Confirmed the plan.' },
      ],
      diff: { add: [{ key: 'deadline', text: 'deadline: March 15', kind: 'constraint', sourceMessageIds: [user?.id ?? ''] }], update: [], remove: [] },
    },
  };
}

function modelEnv(server: ScriptedServer, extra: Record<string, string> = {}): Record<string, string> {
  return { STRATA_MEMORY_MODEL: 'scripted-memory', STRATA_MEMORY_BASE_URL: server.baseUrl, STRATA_MEMORY_TIMEOUT_MS: '300', ...extra };
}

/** The log records of the memories a test opens (expected warnings are asserted, not printed). */
const { logger, records: logs } = recordingLogger();

/** A memory on a fresh in-memory store whose memory model is `server`, retrying after `baseMs` (then 2×, 4× …). */
function memoryOn(server: ScriptedServer, baseMs = '10'): Memory {
  const memory = createMemory({ path: ':memory:', env: modelEnv(server, { STRATA_RETRY_BASE_MS: baseMs }), logger });
  memories.push(memory);
  return memory;
}

/** `memoryOn(server, baseMs)` and a new session in it. */
async function open(server: ScriptedServer, baseMs = '10'): Promise<{ memory: Memory; session: SessionHandle }> {
  const memory = memoryOn(server, baseMs);
  return { memory, session: await memory.sessions.create() };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Gave up waiting until ${what}.`);
}

async function statuses(session: SessionHandle): Promise<string[]> {
  return (await session.turns()).map((turn) => turn.status);
}

/**
 * Record a turn whose memory model times out `timeouts` times and then only garbles its answers, and wait
 * until the turn has ended as fallback-raw.
 */
async function garbledTurn(timeouts: number): Promise<{ server: ScriptedServer; memory: Memory; session: SessionHandle }> {
  const server = await serve([]);
  for (let index = 0; index < timeouts; index += 1) server.push({ hang: true });
  for (let index = 0; index < 40; index += 1) server.push({ malformed: 'not-json' });
  const { memory, session } = await open(server, '1');
  expect((await session.record({ user: MEDIUM_USER, assistant: MEDIUM_ASSISTANT })).status).toBe('pending-retry');
  await until(async () => (await statuses(session))[0] === 'fallback-raw', 'the turn ends as fallback-raw');
  return { server, memory, session };
}

describe('the persisted retry queue', () => {
  it('retries with backoff: 1×, 2×, 4× the base delay, capped', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelay(attempts, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });

  it('flags a turn whose memory model timed out, keeps its raw memory, and summarises it once the model answers', async () => {
    // Timeouts first (the client retries none), then good answers.
    const server = await serve([{ hang: true }, { hang: true }, goodAnswer]);
    const { session } = await open(server);
    const result = await session.record({ user: MEDIUM_USER, assistant: MEDIUM_ASSISTANT });
    expect(result.status).toBe('pending-retry');
    expect(result.problem).toMatch(/timeout/u);
    expect(result.factEvents).toEqual([]);
    // The turn is stored and readable at once, with its raw exchange as the summary.
    expect((await session.messages()).length).toBe(2);
    expect(result.summary.userSummary.startsWith('We are moving the support app')).toBe(true);

    await until(async () => (await statuses(session))[0] === 'summarised', 'the flagged turn is summarised');
    expect((await session.facts()).map((fact) => fact.text)).toEqual(['deadline: March 15']);
    const turn = (await session.turns())[0];
    expect(turn?.userSummary).toBe('Support app move: $40,000 budget, March 15 deadline.');
    // One request per attempt: the first call, one failed retry, one successful retry.
    expect(server.requests.length).toBe(3);
    // Both failures were logged as warnings, with the turn, its status and the failure's code.
    expect(warnings(logs).map(({ message, details }) => [message, details])).toEqual([
      ['turn memory fell back to the raw exchange', { sessionId: session.id, turn: 1, status: 'pending-retry', code: 'MODEL_TIMEOUT', retry: true, retried: false }],
      ['retried turn memory failed again', { sessionId: session.id, turn: 1, status: 'pending-retry', code: 'MODEL_TIMEOUT', retry: true, retried: true }],
    ]);
  });

  it('survives a restart: a turn queued by one process is summarised by the next', async () => {
    const folder = temporaryFolder();
    cleanups.push(folder.cleanup);
    const path = join(folder.path, 'strata.db');
    const down = await serve([{ hang: true }]);
    const first = createMemory({ path, env: modelEnv(down, { STRATA_RETRY_BASE_MS: '600000' }), logger });
    const session = await first.sessions.create({ title: 'Restart' });
    expect((await session.record({ user: MEDIUM_USER, assistant: MEDIUM_ASSISTANT })).status).toBe('pending-retry');
    await first.close();

    const up = await serve([goodAnswer]);
    // The next process starts after the retry is due (its clock is an hour later).
    const later = new Date(Date.now() + 3_600_000);
    const second = createMemory({ path, env: modelEnv(up), clock: () => later, logger });
    memories.push(second);
    const reopened = await second.sessions.open(session.id);
    await until(async () => (await statuses(reopened))[0] === 'summarised', 'the restarted memory summarises the queued turn');
    expect((await reopened.facts()).map((fact) => fact.text)).toEqual(['deadline: March 15']);
    expect(up.requests.length).toBe(1);
  });

  it('applies retried diffs in turn order, and later turns wait behind an earlier failing one', async () => {
    let healthy = false;
    const server = await serve([]);
    const answer = (request: RecordedRequest): ScriptedStep => (healthy ? goodAnswer(request) : { hang: true });
    for (let index = 0; index < 12; index += 1) server.push(answer);
    const { session } = await open(server);
    await session.record({ user: MEDIUM_USER, assistant: MEDIUM_ASSISTANT });
    await session.record({ user: `${MEDIUM_USER} Actually, the deadline changed to March 20.`, assistant: 'Updated: the deadline is March 20.' });
    expect(await statuses(session)).toEqual(['pending-retry', 'pending-retry']);
    healthy = true;
    await until(async () => (await statuses(session)).every((status) => status === 'summarised'), 'both turns are summarised');
    const adds = (await session.factEvents()).filter((event) => event.op === 'add' || event.op === 'update');
    expect(adds.map((event) => event.turn)).toEqual([...adds.map((event) => event.turn)].sort((a, b) => a - b));
  });

  it('queues a turn the model answered with garbage twice, and summarises it once the model answers well', async () => {
    const server = await serve([{ malformed: 'not-json' }, { malformed: 'truncated' }, goodAnswer]);
    const { memory, session } = await open(server);
    const result = await session.record({ user: MEDIUM_USER, assistant: MEDIUM_ASSISTANT });
    expect(result.status).toBe('pending-retry');
    expect(result.problem).toMatch(/malformed/u);
    expect(result.factEvents).toEqual([]);
    await until(async () => (await statuses(session))[0] === 'summarised', 'the garbled turn is summarised');
    expect((await session.facts()).map((fact) => fact.text)).toEqual(['deadline: March 15']);
    expect(server.requests.length).toBe(3);
    expect(await memory.stats()).toMatchObject({ pendingRetries: 0 });
  });

  it('queues an imported turn whose memory model timed out, and summarises it once the model answers', async () => {
    const server = await serve([{ hang: true }, goodAnswer]);
    const memory = memoryOn(server);
    const imported = await memory.sessions.import({ data: [{ role: 'user', content: MEDIUM_USER }, { role: 'assistant', content: MEDIUM_ASSISTANT }] });
    const session = await memory.sessions.open(imported.sessionId);
    await until(async () => (await statuses(session))[0] === 'summarised', 'the imported turn is summarised');
    expect((await session.facts()).map((fact) => fact.text)).toEqual(['deadline: March 15']);
    expect(await memory.stats()).toMatchObject({ pendingRetries: 0 });
  });

  it('counts malformed attempts in a row: a turn that timed out before gets its ten malformed attempts in full', async () => {
    // Three time-outs (the first at record time), then garbled answers only.
    const { server, memory } = await garbledTurn(3);
    // Three time-out attempts of one request each, then ten malformed attempts of two requests each.
    expect(server.requests.length).toBe(3 + 20);
    expect(await memory.stats()).toMatchObject({ pendingRetries: 0 });
  });

  it('gives a turn the model garbles every time a bounded number of attempts, then ends it as fallback-raw', async () => {
    const { server, memory, session } = await garbledTurn(0);
    // Ten attempts of two requests each (the answer is asked for again once per attempt), then no more.
    expect(server.requests.length).toBe(20);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests.length).toBe(20);
    expect(await memory.stats()).toMatchObject({ pendingRetries: 0 });
    expect(await session.facts()).toEqual([]);
    const turn = (await session.turns())[0];
    expect(turn?.userSummary.startsWith('We are moving the support app')).toBe(true);
  });
});
