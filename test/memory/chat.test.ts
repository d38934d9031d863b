import { afterEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import type { MemoryManager, PrepareMessageOptions, ProcessTurnOptions, TurnMemory } from '../../src/managers/memory-manager.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { createOpenAiChatModel } from '../../src/providers/openai/openai-chat-model.js';
import { startScriptedServer, type ScriptedServer, type ScriptEntry } from '../support/scripted-openai-server.js';
import { deferred } from '../support/deferred.js';
import { sequentialIds, steppingClock } from '../support/memory-fixtures.js';
import { recordingLogger, warnings, type LogRecord } from '../support/recording-logger.js';

const servers: ScriptedServer[] = [];
const memories: Memory[] = [];
const logs = new WeakMap<Memory, LogRecord[]>();

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  const done = servers.splice(0);
  await Promise.all(done.map((server) => server.close()));
  for (const server of done) expect(server.problems).toEqual([]);
});

async function serve(script: ScriptEntry[] = []): Promise<ScriptedServer> {
  const server = await startScriptedServer({ script });
  servers.push(server);
  return server;
}

function chatModel(server: ScriptedServer) {
  return createOpenAiChatModel({ baseUrl: server.baseUrl, model: 'scripted-chat', role: 'chat', maxRetries: 0, fetch });
}

/** A memory on a fresh in-memory store whose log records `warningsOf` reads. */
function open(options: Parameters<typeof createMemory>[0]): Memory {
  const { logger, records } = recordingLogger();
  const memory = createMemory({ path: ':memory:', env: {}, clock: steppingClock(), newId: sequentialIds(), durability: 'normal', logger, ...options });
  memories.push(memory);
  logs.set(memory, records);
  return memory;
}

/** The warnings `memory` logged so far, with their details. */
function warningsOf(memory: Memory): ReturnType<typeof warnings> {
  return warnings(logs.get(memory) ?? []);
}

/** A memory manager whose turns finish only when the test lets them, wrapping a real one. */
function heldManager(inner: MemoryManager): { manager: MemoryManager; release: () => void; started: () => number } {
  let releases: Array<() => void> = [];
  let count = 0;
  return {
    manager: {
      name: 'held',
      processTurn: async (options: ProcessTurnOptions): Promise<TurnMemory> => {
        count += 1;
        await new Promise<void>((resolve) => releases.push(resolve));
        return inner.processTurn(options);
      },
    },
    release: () => {
      const waiting = releases;
      releases = [];
      for (const resolve of waiting) resolve();
    },
    started: () => count,
  };
}

async function localManager(): Promise<MemoryManager> {
  const module = await import('../../src/managers/local/index.js');
  return module.createLocalMemoryManager();
}

describe('session.chat', () => {
  it('streams the reply as it is written, then stores the turn and derives its memory', async () => {
    const gate = deferred();
    const server = await serve([{ gatedStream: { before: ['The budget ', 'is '], gate: gate.promise, after: ['$40,000.'] } }]);
    const memory = open({ chatModel: chatModel(server) });
    const session = await memory.sessions.create({ title: 'Chat' });
    await session.record({ user: 'The budget for the migration is $40,000 and the deadline is March 15.', assistant: 'Noted: $40,000 and March 15.' });

    const stream = session.chat('What is our budget again?', { stream: true, budget: 2000 });
    const pieces: string[] = [];
    for await (const piece of stream) {
      pieces.push(piece);
      // The first pieces arrive while the server still holds the rest back.
      if (pieces.length === 2) {
        expect((await session.messages()).length).toBe(2);
        gate.resolve();
      }
    }
    expect(pieces.join('')).toBe('The budget is $40,000.');
    const result = await stream.result;
    expect(result.reply).toBe('The budget is $40,000.');
    expect(result.turn).toBe(2);
    expect(result.staleMemory).toBe(false);
    expect(result.contextTokens).toBeGreaterThan(0);
    expect(result.contextTokens).toBeLessThanOrEqual(2000);
    expect(result.budget).toBe(2000);

    // The model saw the package (memory in a system message) and the user's message last.
    const body = servers[0]?.requests[0]?.body as { messages: Array<{ role: string; content: string }>; stream: boolean };
    expect(body.stream).toBe(true);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'What is our budget again?' });
    expect(body.messages.some((message) => message.role === 'system' && message.content.includes('$40,000'))).toBe(true);

    expect((await result.memory).status).toBe('summarised');
    const messages = await session.messages();
    expect(messages.map((message) => [message.turn, message.role, message.content]).slice(2)).toEqual([
      [2, 'user', 'What is our budget again?'],
      [2, 'assistant', 'The budget is $40,000.'],
    ]);
    expect(result.messageIds).toEqual(messages.slice(2).map((message) => message.id));
  });

  it('resolves with the whole reply when not streaming', async () => {
    const server = await serve([{ reply: 'Hello! How can I help with the migration?' }]);
    const memory = open({ chatModel: chatModel(server) });
    const session = await memory.sessions.create();
    const result = await session.chat('Hi there');
    expect(result.reply).toBe('Hello! How can I help with the migration?');
    expect(result.turn).toBe(1);
    await result.memory;
    expect((await session.turns()).map((turn) => turn.status)).toEqual(['summarised']);
  });

  it('starts the memory manager on the user message while the model writes, under the id and time the turn is stored with', async () => {
    const local = await localManager();
    const prepared: PrepareMessageOptions[] = [];
    const processed: ProcessTurnOptions[] = [];
    const manager: MemoryManager = {
      name: 'watched',
      prepare: (options) => {
        prepared.push(options);
        local.prepare?.(options);
      },
      processTurn: (options) => {
        processed.push(options);
        return local.processTurn(options);
      },
    };
    const gate = deferred();
    const server = await serve([{ gatedStream: { before: ['Noted: ', 'never '], gate: gate.promise, after: ['on Fridays.'] } }]);
    const memory = open({ chatModel: chatModel(server), manager });
    const session = await memory.sessions.create();
    const stream = session.chat('We must never deploy on Fridays.', { stream: true });
    const pieces: string[] = [];
    for await (const piece of stream) {
      pieces.push(piece);
      if (pieces.length === 2) {
        // The model is still writing: the manager has the user's message, and nothing is stored yet.
        expect(prepared.map((options) => options.message.content)).toEqual(['We must never deploy on Fridays.']);
        expect(await session.messages()).toEqual([]);
        gate.resolve();
      }
    }
    const result = await stream.result;
    expect((await result.memory).status).toBe('summarised');
    const [user, assistant] = await session.messages();
    expect(prepared).toEqual([{ sessionId: session.id, message: { id: user?.id, role: 'user', speaker: null, content: 'We must never deploy on Fridays.', sentAt: user?.createdAt }, timestamp: user?.createdAt }]);
    expect(result.messageIds[0]).toBe(prepared[0]?.message.id);
    // The turn the manager then gets opens with that very message, at that time.
    expect(processed).toHaveLength(1);
    expect(processed[0]?.messages[0]).toEqual(prepared[0]?.message);
    expect(processed[0]?.timestamp).toBe(prepared[0]?.timestamp);
    // The user's message is dated when it was sent, the reply when it was complete.
    expect(Date.parse(assistant?.createdAt ?? '')).toBeGreaterThan(Date.parse(user?.createdAt ?? ''));
    expect((await session.facts()).map((fact) => fact.text).join(' ')).toContain('Fridays');
  });

  for (const [how, prepare] of [
    [
      'throws',
      () => {
        throw new Error('tagger unavailable');
      },
    ],
    ['rejects', () => Promise.reject(new Error('tagger unavailable'))],
  ] as const) {
    it(`carries on when the memory manager cannot start early (its prepare ${how}), and says so in the log`, async () => {
      const local = await localManager();
      const manager: MemoryManager = { name: 'stumbling', prepare, processTurn: (options) => local.processTurn(options) };
      const server = await serve([{ reply: 'Noted: never on Fridays.' }]);
      const memory = open({ chatModel: chatModel(server), manager });
      const session = await memory.sessions.create();
      const result = await session.chat('We must never deploy on Fridays.');
      expect(result.reply).toBe('Noted: never on Fridays.');
      expect((await result.memory).status).toBe('summarised');
      expect((await session.facts()).map((fact) => fact.text).join(' ')).toContain('Fridays');
      expect(warningsOf(memory)).toEqual([
        { message: 'the memory manager could not start on the user message early; it will after the reply', details: { sessionId: session.id, error: 'tagger unavailable' } },
      ]);
    });
  }

  it('says clearly when no chat model is configured', async () => {
    const memory = open({});
    const session = await memory.sessions.create();
    let caught: unknown;
    try {
      await session.chat('Hello');
    } catch (error) {
      caught = error;
    }
    expect(isStrataError(caught, 'MODEL_NOT_CONFIGURED')).toBe(true);
    expect((caught as Error).message).toContain('STRATA_CHAT_MODEL');
    expect(await session.messages()).toEqual([]);
  });

  it('reads the chat model from STRATA_CHAT_* settings', async () => {
    const server = await serve([{ reply: 'Configured by environment.' }]);
    const memory = open({ env: { STRATA_CHAT_MODEL: 'env-model', STRATA_CHAT_BASE_URL: server.baseUrl } });
    const session = await memory.sessions.create();
    expect((await session.chat('Hello')).reply).toBe('Configured by environment.');
    expect((server.requests[0]?.body as { model: string }).model).toBe('env-model');
  });

  it('stores nothing when the chat model fails, and keeps what was stored before', async () => {
    const server = await serve([{ status: 500, body: { error: { message: 'boom' } } }]);
    const memory = open({ chatModel: chatModel(server) });
    const session = await memory.sessions.create();
    await session.record({ user: 'Remember that the office is in Porto.', assistant: 'Noted: Porto.' });
    await expect(session.chat('Where is the office?')).rejects.toSatisfy((error: unknown) => isStrataError(error));
    expect((await session.messages()).map((message) => message.content)).toEqual(['Remember that the office is in Porto.', 'Noted: Porto.']);
    // The failure is logged too, for an application that does not look at every rejection.
    expect(warningsOf(memory)).toEqual([
      { message: 'chat turn failed; nothing was stored', details: { sessionId: session.id, error: expect.stringContaining('HTTP 500: boom') } },
    ]);
  });

  it('stores nothing when the caller stops reading the reply early', async () => {
    const server = await serve([{ slowStream: { chunks: ['one ', 'two ', 'three ', 'four'], intervalMs: 5 } }]);
    const memory = open({ chatModel: chatModel(server) });
    const session = await memory.sessions.create();
    const stream = session.chat('Count to four', { stream: true });
    for await (const piece of stream) {
      expect(piece).toBe('one ');
      break;
    }
    await expect(stream.result).rejects.toSatisfy((error: unknown) => isStrataError(error, 'MODEL_ABORTED'));
    expect(await session.messages()).toEqual([]);
    expect(warningsOf(memory).map((warning) => warning.message)).toEqual(['chat turn failed; nothing was stored']);
  });

  it('rejects an empty message before calling the model', async () => {
    const server = await serve([]);
    const memory = open({ chatModel: chatModel(server) });
    const session = await memory.sessions.create();
    // The promise of a whole reply fails; a stream is refused at once.
    await expect(session.chat('   ')).rejects.toThrow(/empty/u);
    expect(() => session.chat('   ', { stream: true })).toThrow(/empty/u);
    await expect(session.chat('Hello', null as never)).rejects.toThrow(/chat\(\) options must be an object/u);
    expect(server.requests).toEqual([]);
  });
});

describe('the session lock between phase 2 and the next phase 1', () => {
  it('waits for the previous memory work when it finishes within the bound, so the follow-up sees its facts', async () => {
    const held = heldManager(await localManager());
    const server = await serve([{ reply: 'Noted: the launch is on June 3 in Lisbon.' }, { reply: 'It is on June 3.' }]);
    const memory = open({ chatModel: chatModel(server), manager: held.manager, env: { STRATA_MEMORY_WAIT_MS: '60000' } });
    const session = await memory.sessions.create();
    const first = await session.chat('The product launch is on June 3 in Lisbon, and the hard rule is that we never ship on a Friday.');
    // Phase 2 of the first turn is running; the follow-up must wait for it.
    const second = session.chat('When is the launch?');
    while (held.started() === 0) await new Promise((resolve) => setImmediate(resolve));
    held.release();
    const result = await second;
    expect(result.staleMemory).toBe(false);
    expect((await first.memory).status).toBe('summarised');
    const body = server.requests[1]?.body as { messages: Array<{ role: string; content: string }> };
    // The memory of turn 1 was written before the follow-up's package was assembled.
    expect(body.messages[0]?.role).toBe('system');
    expect(body.messages[0]?.content).toContain('Friday');
    while (held.started() < 2) await new Promise((resolve) => setImmediate(resolve));
    held.release();
    expect((await result.memory).status).toBe('summarised');
  });

  it('proceeds after the bound on stale memory, says so, and still derives both turns in order', async () => {
    const held = heldManager(await localManager());
    const server = await serve([{ reply: 'Noted: the budget is $40,000.' }, { reply: 'Still $40,000 as far as I know.' }]);
    const memory = open({ chatModel: chatModel(server), manager: held.manager, env: { STRATA_MEMORY_WAIT_MS: '30' } });
    const session = await memory.sessions.create();
    const first = await session.chat('Our budget is $40,000 for the whole migration project this year.');
    const second = await session.chat('What is the budget?');
    expect(second.staleMemory).toBe(true);
    expect(first.staleMemory).toBe(false);
    expect(warningsOf(memory)).toEqual([
      {
        message: 'chat turn proceeded on stale memory: the previous turn was still being remembered',
        details: expect.objectContaining({ sessionId: session.id, turn: 2, lockWaitMs: second.lockWaitMs }),
      },
    ]);
    // Both turns are stored although neither has its memory yet.
    expect((await session.messages()).map((message) => message.turn)).toEqual([1, 1, 2, 2]);
    while (held.started() < 2) {
      held.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    held.release();
    const outcomes = await Promise.all([first.memory, second.memory]);
    expect(outcomes.map((outcome) => [outcome.turn, outcome.status])).toEqual([
      [1, 'summarised'],
      [2, 'summarised'],
    ]);
    expect((await session.turns()).map((turn) => turn.status)).toEqual(['summarised', 'summarised']);
    // The mark is kept with the turn, through memory work and through an export and import.
    expect((await session.turns()).map((turn) => turn.staleMemory ?? false)).toEqual([false, true]);
    const copy = await memory.sessions.import({ data: await session.export({ format: 'json' }), newIds: true });
    const imported = await memory.sessions.open(copy.sessionId);
    expect((await imported.turns()).map((turn) => turn.staleMemory ?? false)).toEqual([false, true]);
  });

  it('never makes one session wait for another', async () => {
    const held = heldManager(await localManager());
    const server = await serve([{ reply: 'Noted for A.' }, { reply: 'Hello B.' }]);
    const memory = open({ chatModel: chatModel(server), manager: held.manager, env: { STRATA_MEMORY_WAIT_MS: '600000' } });
    const a = await memory.sessions.create({ title: 'A' });
    const b = await memory.sessions.create({ title: 'B' });
    const first = await a.chat('Session A has a budget of $10,000 for the offsite in Porto next spring.');
    // A's memory work is held; B answers at once, with fresh memory.
    const other = await b.chat('Hello from session B');
    expect(other.staleMemory).toBe(false);
    expect(other.lockWaitMs).toBe(0);
    while (held.started() < 1) await new Promise((resolve) => setImmediate(resolve));
    held.release();
    await first.memory;
    while (held.started() < 2) await new Promise((resolve) => setImmediate(resolve));
    held.release();
    await other.memory;
  });
});
