/**
 * Turns whose memory is retried change the facts in turn order: whatever turns fail and however often,
 * once every retry has succeeded the document, its events and the document at every turn read exactly
 * as in a run where no turn failed.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';

import { createMemory, type Memory, type SessionHandle } from '../../src/memory/create-memory.js';
import { createLocalMemoryManager } from '../../src/managers/local/index.js';
import type { MemoryManager, ProcessTurnOptions, TurnMemory } from '../../src/managers/memory-manager.js';
import { temporaryFolder } from '../support/memory-fixtures.js';

const memories: Memory[] = [];
const cleanups: Array<() => void> = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * The local manager, except that the attempts `failures` names (turn → attempts that fail) come back as a
 * retryable fallback, like a memory model that timed out. Its diffs depend on the facts it is given, so a
 * turn derived out of order would show.
 */
function flakyManager(failures: ReadonlyMap<number, number>): MemoryManager {
  const attempts = new Map<number, number>();
  return managerFailing((turn) => {
    const attempt = (attempts.get(turn) ?? 0) + 1;
    attempts.set(turn, attempt);
    return attempt <= (failures.get(turn) ?? 0);
  });
}

/** The local manager, falling back (retryably) on the attempts `fails` says. */
function managerFailing(fails: (turn: number) => boolean): MemoryManager {
  const local = createLocalMemoryManager();
  return {
    name: 'flaky',
    async processTurn(options: ProcessTurnOptions): Promise<TurnMemory> {
      const memory = await local.processTurn(options);
      if (!fails(options.turn)) return memory;
      return { ...memory, fallback: { reason: 'timeout', retry: true, code: 'MODEL_TIMEOUT', message: 'The scripted model timed out.' } };
    },
    // Drops the oldest fact once there are two or more: what it drops depends on the turns before.
    consolidate: async ({ facts }) => {
      const oldest = facts.filter((fact) => !fact.pinned).sort((a, b) => a.updatedTurn - b.updatedTurn || a.key.localeCompare(b.key))[0];
      if (facts.length <= 1 || oldest === undefined) return { outcome: 'accepted', changes: [] };
      const { id: factId, key, kind, text: oldText, sourceMessageIds } = oldest;
      return { outcome: 'accepted', changes: [{ op: 'consolidate', factId, key, kind, oldText, newText: null, reason: 'Kept the document short.', sourceMessageIds }] };
    },
  };
}

/**
 * Recorded turns are consolidated every 2 turns. An import is consolidated once at its end, but one whose
 * turns wait in the queue is consolidated every N turns as they land: imports are compared without it.
 */
function open(manager: MemoryManager, consolidateEveryTurns = 2): Memory {
  const env = { STRATA_LOG_LEVEL: 'silent', STRATA_RETRY_BASE_MS: '1', STRATA_CONSOLIDATE_EVERY_TURNS: String(consolidateEveryTurns) };
  const memory = createMemory({ path: ':memory:', manager, env });
  memories.push(memory);
  return memory;
}

const SAYINGS = [
  (value: number) => `Our budget is $${value},000 for the whole project.`,
  (value: number) => `Actually the budget changed to $${value},000.`,
  (value: number) => `The deadline moved to March ${value}.`,
  (value: number) => `We'll be ${value} people at the offsite, not ${value + 1}.`,
  (value: number) => `The venue holds ${value * 10} guests at most.`,
  (value: number) => `We must never book flights that land after ${(value % 12) + 1}pm.`,
  () => 'Forget the venue, we are looking again.',
  (value: number) => `Here is the health check we deploy:\n\n\`\`\`python\ndef health_check(timeout=${value}):\n    return ping("db", timeout=timeout) and ping("cache", timeout=timeout)\n\`\`\``,
] as const;

/** A conversation of corrections, restatements and removals. */
const conversation = fc.array(
  fc.record({ saying: fc.integer({ min: 0, max: SAYINGS.length - 1 }), value: fc.integer({ min: 2, max: 29 }) }),
  { minLength: 4, maxLength: 9 },
);

async function waitSettled(memory: Memory, session: SessionHandle): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const turns = await session.turns();
    if ((await memory.stats()).pendingRetries === 0 && turns.every((turn) => turn.status === 'summarised')) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('The retried turns never settled.');
}

/** What a reader sees of the document: the facts now, the events, and the facts as they stood after each turn. */
async function reading(session: SessionHandle, turns: number): Promise<unknown> {
  const facts = (await session.facts()).map((fact) => [fact.kind, fact.key, fact.text, fact.createdTurn, fact.updatedTurn, fact.pinned, fact.mayReplace]);
  const events = (await session.factEvents()).map((event) => [event.sequence, event.turn, event.op, event.actor, event.key, event.oldText, event.newText, event.reason]);
  const atTurns: unknown[] = [];
  for (let turn = 1; turn <= turns; turn += 1) atTurns.push((await session.facts({ atTurn: turn })).map((fact) => fact.text));
  const artifacts = (await session.artifacts()).map((artifact) => [artifact.name, artifact.versions.map((version) => [version.version, version.turn, version.content])]);
  return { facts, events, atTurns, artifacts };
}

/** Record (or import) the conversation with `failures`, wait for every retry, and read the document. */
async function run(said: readonly { saying: number; value: number }[], failures: ReadonlyMap<number, number>, imported: boolean): Promise<unknown> {
  const memory = open(flakyManager(failures), imported ? 0 : 2);
  const exchanges = said.map(({ saying, value }) => ({ user: SAYINGS[saying]!(value), assistant: 'Noted.' }));
  let session: SessionHandle;
  if (imported) {
    const data = exchanges.flatMap(({ user, assistant }) => [{ role: 'user', content: user }, { role: 'assistant', content: assistant }]);
    session = await memory.sessions.open((await memory.sessions.import({ data })).sessionId);
  } else {
    session = await memory.sessions.create();
    for (const exchange of exchanges) await session.record(exchange);
  }
  await waitSettled(memory, session);
  return reading(session, exchanges.length);
}

describe('retried turns in turn order', () => {
  it('any pattern of failed attempts gives the facts, events and document at every turn of a run where none failed', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversation,
        // A few turns fail once or twice before they succeed.
        fc.uniqueArray(fc.record({ turn: fc.integer({ min: 1, max: 9 }), count: fc.integer({ min: 1, max: 2 }) }), { maxLength: 3, selector: (failure) => failure.turn }),
        fc.boolean(),
        async (said, failed, imported) => {
          const failures = new Map(failed.map(({ turn, count }) => [turn, count]));
          const expected = await run(said, new Map(), imported);
          const actual = await run(said, failures, imported);
          expect(actual).toEqual(expected);
          await Promise.all(memories.splice(0).map((memory) => memory.close()));
        },
      ),
      { numRuns: 50, seed: 20261125 },
    );
  });

  it('a turn recorded while an earlier one waits for a retry is held behind it, and says so', async () => {
    const memory = open(flakyManager(new Map([[1, 2]])));
    const session = await memory.sessions.create();
    const first = await session.record({ user: 'Our budget is $3,000.', assistant: 'Noted.' });
    const second = await session.record({ user: 'Actually the budget changed to $4,000.', assistant: 'Noted.' });
    expect([first.status, second.status]).toEqual(['pending-retry', 'pending-retry']);
    expect(second.problem).toMatch(/waits for turn 1/u);
    await waitSettled(memory, session);
    expect((await session.facts()).map((fact) => fact.text)).toEqual(['budget: $4,000']);
    expect((await session.facts({ atTurn: 1 })).map((fact) => fact.text)).toEqual(['budget: $3,000']);
  });

  it('turns held behind a failed one when the process stopped are derived, in order, by the next process', async () => {
    const folder = temporaryFolder();
    cleanups.push(folder.cleanup);
    const path = join(folder.path, 'strata.db');
    const env = { STRATA_LOG_LEVEL: 'silent', STRATA_RETRY_BASE_MS: '600000' };
    const first = createMemory({ path, manager: flakyManager(new Map([[1, 1]])), env });
    const session = await first.sessions.create();
    await session.record({ user: 'Our budget is $3,000.', assistant: 'Noted.' });
    await session.record({ user: 'Actually the budget changed to $4,000.', assistant: 'Noted.' });
    await session.record({ user: 'The deadline moved to March 9.', assistant: 'Noted.' });
    expect((await session.turns()).map((turn) => turn.status)).toEqual(['pending-retry', 'pending-retry', 'pending-retry']);
    await first.close();

    const later = new Date(Date.now() + 3_600_000);
    const second = createMemory({ path, manager: flakyManager(new Map()), env, clock: () => later });
    memories.push(second);
    const reopened = await second.sessions.open(session.id);
    await waitSettled(second, reopened);
    expect((await reopened.facts()).map((fact) => fact.text).sort()).toEqual(['budget: $4,000', 'deadline: March 9']);
    expect((await reopened.factEvents()).map((event) => [event.turn, event.op])).toEqual([[1, 'add'], [2, 'update'], [3, 'add']]);
  });

  it('a turn that waited and then fell back itself keeps its artifact (stored once); its first try counts as a fallback, not a retry', async () => {
    const memory = open(flakyManager(new Map([[1, 1], [2, 1]])));
    const session = await memory.sessions.create();
    await session.record({ user: 'Our budget is $3,000.', assistant: 'Noted.' });
    await session.record({ user: SAYINGS[7](5), assistant: 'Looks right.' });
    await waitSettled(memory, session);
    const artifacts = await session.artifacts();
    expect(artifacts.map((artifact) => [artifact.name, artifact.versions.map((version) => version.turn)])).toEqual([[expect.stringContaining('health'), [2]]]);
    // Turn 1: a fallback, then a retry that succeeded; turn 2: its first try fell back, its retry succeeded.
    expect(await memory.stats()).toMatchObject({ fallbacks: 2, retryAttempts: 2, retriesSucceeded: 2, pendingRetries: 0 });
  });

  it('refuses a fact correction or an undo while turns wait (MEMORY_PENDING), changing nothing, and makes it once they have landed', async () => {
    let down = false;
    const memory = open(managerFailing(() => down));
    const session = await memory.sessions.create();
    await session.record({ user: 'Our budget is $3,000.', assistant: 'Noted.' });
    down = true;
    await session.record({ user: 'Actually the budget changed to $4,000.', assistant: 'Noted.' });
    down = false;
    await session.record({ user: 'The deadline moved to March 9.', assistant: 'Noted.' });
    down = true;
    const before = [await session.facts(), await session.factEvents()];
    const refused = { code: 'MEMORY_PENDING', message: expect.stringMatching(/turns 2 and 3/u) };
    await expect(session.facts.add({ text: 'venue: the Old Mill', reason: 'booked it' })).rejects.toMatchObject(refused);
    await expect(session.undoFactEvent(before[1]?.[0]?.id ?? '')).rejects.toMatchObject(refused);
    expect([await session.facts(), await session.factEvents()]).toEqual(before);
    down = false;
    await waitSettled(memory, session);
    const budget = (await session.facts()).find((fact) => fact.key === 'budget');
    await session.facts.edit({ fact: budget?.id ?? '', text: 'budget: $9,000', reason: 'finance raised it' });
    expect((await session.facts()).map((fact) => fact.text).sort()).toEqual(['budget: $9,000', 'deadline: March 9']);
  });
});
