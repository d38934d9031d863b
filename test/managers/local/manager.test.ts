import { describe, expect, it } from 'vitest';

import { isStrataError } from '../../../src/core/errors.js';
import type { Fact } from '../../../src/core/types.js';
import { routeTurn } from '../../../src/core/routing.js';
import { createLocalMemoryManager } from '../../../src/managers/local/index.js';
import { MEDIUM_USER, turnRequest as options } from '../../support/turn-request.js';

describe('createLocalMemoryManager', () => {
  it("is named 'local' and returns one memory per message, in order", async () => {
    const manager = createLocalMemoryManager();
    expect(manager.name).toBe('local');
    const memory = await manager.processTurn(options(MEDIUM_USER, 'Understood: $40,000, March 15, no card numbers, PostgreSQL 16.'));
    expect(memory.messages.map((message) => message.messageId)).toEqual(['m-user', 'm-assistant']);
  });

  it('takes depth and window extension from the size routing', async () => {
    const manager = createLocalMemoryManager();
    const long = Array.from({ length: 70 }, (_, index) => `Step ${index} is done.`).join(' ');
    for (const [user, assistant] of [
      ['Hi!', 'Hello!'],
      [MEDIUM_USER, 'Noted.'],
      ['Summarise the plan.', long],
      ['Fix it:\n```js\nlet x = 1\n```', 'Done.'],
    ] as const) {
      const memory = await manager.processTurn(options(user, assistant));
      const route = routeTurn([user, assistant]);
      expect({ depth: memory.depth, windowExtension: memory.windowExtension }).toEqual({ depth: route.depth, windowExtension: route.windowExtension });
    }
  });

  it('is deterministic: the same turn gives the same memory, whatever ran before', async () => {
    const turn = options(MEDIUM_USER, 'Noted. PostgreSQL 16 with nightly backups.', {
      facts: [
        {
          id: 'f1',
          sessionId: 'session',
          key: 'budget',
          text: 'budget: $35,000',
          kind: 'constraint',
          pinned: false,
          sourceMessageIds: ['old'],
          createdTurn: 1,
          updatedTurn: 1,
          createdAt: '2024-05-01T00:00:00Z',
          updatedAt: '2024-05-01T00:00:00Z',
        },
      ],
    });
    const first = await createLocalMemoryManager().processTurn(turn);
    const manager = createLocalMemoryManager();
    await manager.processTurn(options('Something else entirely about Lisbon in June.', 'OK.'));
    const second = await manager.processTurn(turn);
    const third = await manager.processTurn(structuredClone(turn));
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(first.diff.update.map((entry) => entry.text)).toEqual(['budget: $40,000 for the whole project']);
  });

  it("takes in a large document in slices on a session's first turn, letting other work run, and derives what it derives once the document is kept", async () => {
    const budget: Fact = { id: 'budget', sessionId: 'session-1', key: 'budget', text: 'budget: $40,000 for the whole project', kind: 'constraint', pinned: false, sourceMessageIds: ['old'], createdTurn: 1, updatedTurn: 1, createdAt: '2024-05-01T00:00:00Z', updatedAt: '2024-05-01T00:00:00Z' };
    const others: Fact[] = Array.from({ length: 5000 }, (_, index) => ({
      ...budget,
      id: `f${index}`,
      key: `supplier ${index}`,
      text: `supplier ${index}: quote number ${index} for the kitchen`,
      kind: 'fact',
      createdTurn: 2 + Math.floor(index / 2),
      updatedTurn: 2 + Math.floor(index / 2),
    }));
    const turn = options('Actually, the budget is $45,000 for the whole project now.', 'Noted: $45,000.', { facts: [budget, ...others], turn: 2600 });
    const manager = createLocalMemoryManager();
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const first = await manager.processTurn(turn);
    expect(turned).toBe(true);
    expect(first.diff.update.map((entry) => entry.text)).toEqual(['budget: $45,000 for the whole project now']);
    // The second time the session's base is kept: nothing is made in slices, and the memory is the same.
    expect(await manager.processTurn(turn)).toEqual(first);
  });

  it('handles a turn without an assistant reply and a message without a time', async () => {
    const manager = createLocalMemoryManager();
    const memory = await manager.processTurn({
      ...options('I moved to Berlin yesterday.', ''),
      messages: [{ id: 'only', role: 'user', speaker: 'Caroline', content: 'I moved to Berlin yesterday.', sentAt: null }],
      timestamp: 'not a date',
    });
    expect(memory.assistantSummary).toBe('');
    expect(memory.userSummary).toBe('Caroline: I moved to Berlin yesterday.');
    expect(memory.messages[0]?.tier1).toContain('yesterday');
    expect(memory.messages[0]?.tier1).not.toContain('(');
  });

  it('rejects invalid settings with the option name', () => {
    for (const settings of [{ maxAnalysedWords: -1 }, { maxReadWords: 0 }, { tierTwoShare: 2 }, { tagger: 'slow' as 'fast' }, { maxFactsPerTurn: 1.5 }, { cacheBytes: -1 }]) {
      let caught: unknown;
      try {
        createLocalMemoryManager(settings);
      } catch (error) {
        caught = error;
      }
      expect(isStrataError(caught, 'INVALID_CONFIG')).toBe(true);
      expect(String(caught)).toContain(Object.keys(settings)[0]);
    }
  });

  it('gives the same facts with the accurate tagger on plain rule sentences', async () => {
    const fast = await createLocalMemoryManager().processTurn(options(MEDIUM_USER, 'Noted.'));
    const accurate = await createLocalMemoryManager({ tagger: 'accurate' }).processTurn(options(MEDIUM_USER, 'Noted.'));
    expect(accurate.diff.add.map((entry) => entry.text)).toEqual(fast.diff.add.map((entry) => entry.text));
  });

  it('derives the same memory whatever its caches hold: none, a few kilobytes, or the default', async () => {
    const turns = [
      ['We must never deploy on Fridays. The budget is $40,000 and the launch is on 14 March.', 'Noted: no Friday deploys.'],
      ['Actually the budget went up to $45,000, and Maria now leads the launch.', 'Understood.'],
      ['I prefer Lisbon for the offsite; the venue holds 80 people.', 'Lisbon it is.'],
    ] as const;
    const run = async (cacheBytes?: number): Promise<string> => {
      const manager = createLocalMemoryManager(cacheBytes === undefined ? {} : { cacheBytes });
      const seen: unknown[] = [];
      for (const [user, assistant] of turns) seen.push(await manager.processTurn(options(user, assistant)));
      return JSON.stringify(seen);
    };
    const standard = await run();
    expect(await run(0)).toBe(standard);
    expect(await run(4_000)).toBe(standard);
  });

  it('caps the lines of one turn at maxFactsPerTurn, keeping the rules', async () => {
    const people = ['Anna', 'Tom', 'Maria', 'John', 'Sofia', 'David', 'Emma', 'James'];
    const user = people.map((name, index) => `${name} joined the Berlin office in ${2010 + index}.`).join(' ') + ' We must never deploy on Fridays.';
    const memory = await createLocalMemoryManager({ maxFactsPerTurn: 3 }).processTurn(options(user, 'OK.'));
    const lines = [...memory.diff.add, ...memory.diff.update];
    expect(lines).toHaveLength(3);
    expect(lines.some((entry) => entry.kind === 'exception')).toBe(true);
  });

  it('reads a message past maxReadWords words in part, its beginning and its end: a fact in the middle is not taken, a rule at the end is', async () => {
    const filler = (from: number, count: number): string => Array.from({ length: count }, (_, index) => `Line ${from + index} of the pasted log shows nothing unusual.`).join(' ');
    const user = `${filler(0, 20)} The budget is $40,000 for the whole project. ${filler(20, 30)} We must never email customers on weekends.`;
    const whole = await createLocalMemoryManager().processTurn(options(user, 'OK.'));
    expect(whole.diff.add.map((entry) => entry.text)).toContainEqual(expect.stringContaining('$40,000'));
    const part = await createLocalMemoryManager({ maxReadWords: 100 }).processTurn(options(user, 'OK.'));
    expect(part.diff.add.some((entry) => entry.text.includes('$40,000'))).toBe(false);
    expect(part.diff.add).toContainEqual(expect.objectContaining({ kind: 'exception', text: expect.stringContaining('weekends') }));
    for (const message of part.messages) expect(message.tier2).not.toContain('$40,000');
  });
});

describe('a long document', () => {
  const plain = (id: string, key: string, text: string, turn: number): Fact => ({
    id, sessionId: 'session-1', key, text, kind: 'fact', pinned: false, sourceMessageIds: [], createdTurn: turn, updatedTurn: turn, createdAt: '2024-05-01T00:00:00.000Z', updatedAt: '2024-05-01T00:00:00.000Z',
  });
  const facts = [plain('f1', 'venue', 'venue: Halcombe Hall, £9,000', 1), plain('f2', 'caterer', 'caterer: Fig & Fennel, £62 a head', 2), plain('f3', 'band', 'band: the Blue Notes, £3,200', 3)];

  it('changes a fact within the newest `workingFacts` plain facts, and never touches an older one: the claim gets a line of its own', async () => {
    const say = 'Actually the venue is now £9,500 because of the Saturday surcharge, and the band is £3,400 after all.';
    const all = await createLocalMemoryManager().processTurn(options(say, 'Noted.', { facts }));
    expect(all.diff.update.map((entry) => entry.key).sort()).toEqual(['band', 'venue']);
    const bounded = await createLocalMemoryManager({ workingFacts: 2 }).processTurn(options(say, 'Noted.', { facts }));
    expect(bounded.diff.update.map((entry) => entry.key)).toEqual(['band']);
    // The venue's change is a new line under a key no fact holds.
    const added = bounded.diff.add.find((entry) => entry.text.includes('9,500'));
    expect(added?.key).not.toBe('venue');
    expect(facts.map((item) => item.key)).not.toContain(added?.key);
  });
});
