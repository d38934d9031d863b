/**
 * An imported conversation is consolidated every N turns as it is stored, as recorded turns are: the
 * memory an import leaves is the memory recording the same conversation leaves, and no single
 * consolidation of the whole document runs at its end.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { Fact } from '../../src/core/types.js';
import { createMemory, type Memory } from '../../src/memory/create-memory.js';
import { createLocalMemoryManager } from '../../src/managers/local/index.js';
import type { MemoryManager } from '../../src/managers/memory-manager.js';

const memories: Memory[] = [];

afterEach(async () => {
  await Promise.all(memories.splice(0).map((memory) => memory.close()));
});

/** The local manager, noting the turns it consolidated after. */
function watchedManager(): { manager: MemoryManager; consolidatedAfter: number[] } {
  const local = createLocalMemoryManager();
  const consolidatedAfter: number[] = [];
  const manager: MemoryManager = {
    name: 'local',
    processTurn: (options) => local.processTurn(options),
    consolidate: async (options) => {
      consolidatedAfter.push(options.turn);
      return (await local.consolidate?.(options)) ?? { outcome: 'accepted', changes: [] };
    },
  };
  return { manager, consolidatedAfter };
}

function open(manager: MemoryManager): Memory {
  const memory = createMemory({ path: ':memory:', manager, env: { STRATA_LOG_LEVEL: 'silent', STRATA_IMPORT_WORKER: 'false' } });
  memories.push(memory);
  return memory;
}

/** Things said twice under two keys, which consolidation merges, by the turn (from 0) they are said in. */
const SAID_AGAIN = new Map([
  [3, 'Our database is PostgreSQL 16 on RDS, Multi-AZ.'],
  [5, 'The storage choice: PostgreSQL 16 on RDS, Multi-AZ.'],
  [19, 'Our mail host is Fastmail on the business plan.'],
  [22, 'The email choice: Fastmail on the business plan.'],
]);

/** Exchanges about a move whose details come back with new values, and a few things said twice. */
function exchanges(turns: number): Array<{ user: string; assistant: string; timestamp: string }> {
  const streets = ['Elm Street', 'Baker Street', 'Mill Lane', 'Harbour Road'];
  return Array.from({ length: turns }, (_, index) => {
    const day = String((index % 27) + 1).padStart(2, '0');
    const user =
      SAID_AGAIN.get(index) ??
      (index % 3 === 0
        ? `The movers quoted £${900 + index * 10} for the move from ${streets[index % streets.length]}, packing included.`
        : index % 3 === 1
          ? `The moving company's quote for ${streets[index % streets.length]} is £${900 + index * 10} with packing.`
          : `We must keep the piano away from the stairs, and the van arrives on ${day} March.`);
    return { user, assistant: `Noted: ${user.toLowerCase()}`, timestamp: `2026-03-${day}T10:00:00.000Z` };
  });
}

/** What a user reads of the facts: their keys, texts, kinds and turns. */
const readable = (facts: readonly Fact[]): string[] => facts.map((fact) => `${fact.kind} ${fact.key} = ${fact.text} (turns ${fact.createdTurn}–${fact.updatedTurn})`);

describe('an imported conversation is consolidated as it is stored', () => {
  it('consolidates after every N-th turn, as recording does, and not once more at the end', async () => {
    const watched = watchedManager();
    const memory = open(watched.manager);
    const turns = exchanges(40);
    const imported = await memory.sessions.import({ data: turns.flatMap((turn) => [{ role: 'user', content: turn.user, timestamp: turn.timestamp }, { role: 'assistant', content: turn.assistant, timestamp: turn.timestamp }]) });
    expect(imported.turns).toBe(40);
    expect(watched.consolidatedAfter).toEqual([15, 30]);
  });

  it('leaves the facts and fact history that recording the same conversation leaves', async () => {
    const turns = exchanges(46);
    const importing = open(createLocalMemoryManager());
    const imported = await importing.sessions.import({ data: turns.flatMap((turn) => [{ role: 'user', content: turn.user, timestamp: turn.timestamp }, { role: 'assistant', content: turn.assistant, timestamp: turn.timestamp }]) });
    const importedSession = await importing.sessions.open(imported.sessionId);

    const recording = open(createLocalMemoryManager());
    const recorded = await recording.sessions.create({});
    for (const turn of turns) await recorded.record(turn);

    const [importedFacts, recordedFacts] = [await importedSession.facts(), await recorded.facts()];
    expect(readable(importedFacts)).toEqual(readable(recordedFacts));
    const history = async (session: typeof recorded): Promise<string[]> => (await session.factEvents()).map((event) => `${event.turn} ${event.op} ${event.key}: ${event.newText ?? ''}`);
    const importedHistory = await history(importedSession);
    expect(importedHistory).toEqual(await history(recorded));
    // (The conversation repeats itself: the comparison covers consolidations, not only turns.)
    expect(importedHistory.some((line) => line.split(' ')[1] === 'consolidate')).toBe(true);
  });
});
