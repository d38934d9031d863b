import { afterEach, describe, expect, it, vi } from 'vitest';

import { createLocalMemoryManager } from '../../../src/managers/local/index.js';
import type { LocalManagerSettings } from '../../../src/managers/local/index.js';
import { PreparedMessages } from '../../../src/managers/local/prepared-messages.js';
import type { PreparedWork } from '../../../src/managers/local/prepared-messages.js';
import type { ProcessTurnOptions, TurnMessageInput } from '../../../src/managers/memory-manager.js';
import { watchTakes } from '../../support/prepared-takes.js';
import { MEDIUM_USER, turnRequest } from '../../support/turn-request.js';

/** Turns that use what the analysis of a first message decides: compromise's shared budget, dates, code, small talk. */
const TURNS: Array<[string, string]> = [
  [
    'We must never deploy the Frobnicator gateway on Fridays. The Quuxly rollout must always wait for Priya. Never page Oskarsson after midnight.',
    'Understood. The Zorblax exporter must stay pinned to 2.4, and we should never skip the Vantablack canary.',
  ],
  [MEDIUM_USER, 'Noted: $40,000, March 15, no card numbers, PostgreSQL 16.'],
  ['Can we move the review to next Friday at 3pm, or to 12/03/2025 if Dana is away tomorrow?', 'Next Friday at 3pm works; I will tell Dana.'],
  ['Fix the parser:\n```ts\nexport function parse(text: string): number {\n  return Number(text);\n}\n```', 'Here it is:\n```ts\nexport function parse(text: string): number {\n  return Number.parseInt(text, 10);\n}\n```'],
  ['Thanks, that helps a lot!', 'Glad to help.'],
];

function request(user: string, assistant: string, extra: Partial<ProcessTurnOptions> = {}): ProcessTurnOptions {
  return turnRequest(user, assistant, extra);
}

function opening(turn: ProcessTurnOptions): TurnMessageInput {
  const [first] = turn.messages;
  if (first === undefined) throw new Error('The turn has no message.');
  return first;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the local manager started early on a turn (prepare)', () => {
  for (const settings of [{}, { maxTaggedSentences: 1 }] satisfies LocalManagerSettings[]) {
    it(`gives a turn whose first message it prepared exactly the memory it gives without (${JSON.stringify(settings)})`, async () => {
      const ahead = createLocalMemoryManager(settings);
      const fresh = [];
      for (const [user, assistant] of TURNS) fresh.push(await createLocalMemoryManager(settings).processTurn(request(user, assistant)));
      const found = watchTakes();
      for (const [index, [user, assistant]] of TURNS.entries()) {
        const turn = request(user, assistant);
        ahead.prepare?.({ sessionId: turn.sessionId, message: opening(turn), timestamp: turn.timestamp });
        expect(await ahead.processTurn(turn)).toEqual(fresh[index]);
      }
      // Every turn took the work prepared for it.
      expect(found).toEqual(TURNS.map(() => true));
    });
  }

  it('works on its own copy of the message: changing the caller’s object afterwards changes nothing', async () => {
    const manager = createLocalMemoryManager();
    const turn = request('We must never deploy on Fridays; the launch is tomorrow.', 'Noted.');
    const fresh = await createLocalMemoryManager().processTurn(turn);
    const given = { ...opening(turn) };
    const found = watchTakes();
    manager.prepare?.({ sessionId: turn.sessionId, message: given, timestamp: turn.timestamp });
    given.id = 'someone-else';
    given.content = 'Changed after the fact.';
    expect(await manager.processTurn(turn)).toEqual(fresh);
    expect(found).toEqual([true]);
  });

  it('ignores work prepared for another text or another time under the same message id', async () => {
    const manager = createLocalMemoryManager();
    const turn = request('We must never deploy on Fridays; the launch is tomorrow.', 'Noted.');
    const fresh = await createLocalMemoryManager().processTurn(turn);
    // "tomorrow" is read against the message's time, so work done for another day would be wrong here.
    const dayBefore = request('We must never deploy on Fridays; the launch is tomorrow.', 'Noted.', { timestamp: '2024-05-07T10:00:00Z' });
    dayBefore.messages = dayBefore.messages.map((message) => ({ ...message, sentAt: '2024-05-07T10:00:00Z' }));
    expect(await createLocalMemoryManager().processTurn(dayBefore)).not.toEqual(fresh);
    const found = watchTakes();

    manager.prepare?.({ sessionId: turn.sessionId, message: { ...opening(turn), content: 'The budget is $90,000.' }, timestamp: turn.timestamp });
    expect(await manager.processTurn(turn)).toEqual(fresh);
    manager.prepare?.({ sessionId: turn.sessionId, message: opening(dayBefore), timestamp: dayBefore.timestamp });
    expect(await manager.processTurn(turn)).toEqual(fresh);
    expect(found).toEqual([false, false]);
  });

  it('uses prepared work for the opening message only, so a reply that repeats it is analysed on its own', async () => {
    const manager = createLocalMemoryManager({ maxTaggedSentences: 1 });
    // compromise's one sentence goes to the opening message; tagged on its own, the second reads otherwise.
    const text = 'Understood. The Zorblax exporter must stay pinned to 2.4, and we should never skip the Vantablack canary.';
    const turn: ProcessTurnOptions = {
      ...request(text, text),
      messages: [
        { id: 'm-assistant', role: 'assistant', speaker: null, content: text, sentAt: '2024-05-08T10:00:00Z' },
        { id: 'm-user', role: 'user', speaker: null, content: text, sentAt: '2024-05-08T10:00:00Z' },
      ],
    };
    const fresh = await createLocalMemoryManager({ maxTaggedSentences: 1 }).processTurn(turn);
    const found = watchTakes();
    manager.prepare?.({ sessionId: turn.sessionId, message: { id: 'm-user', role: 'user', speaker: null, content: text, sentAt: turn.timestamp }, timestamp: turn.timestamp });
    expect(await manager.processTurn(turn)).toEqual(fresh);
    // Asked about the opening message (another id) only.
    expect(found).toEqual([false]);
  });
});

describe('PreparedMessages', () => {
  const work = (taggingLeft: number): PreparedWork => ({ analysed: {} as PreparedWork['analysed'], statements: [], claims: { claims: [], mentioned: [] }, units: [], taggingLeft });
  const message = (id: string, content = 'Hello'): TurnMessageInput => ({ id, role: 'user', speaker: null, content, sentAt: null });

  it('gives the work once, for the same message and time only', () => {
    const prepared = new PreparedMessages({ maxEntries: 4, maxCharacters: 1000 });
    prepared.keep(message('a'), 't1', work(3));
    expect(prepared.take(message('a'), 't1')?.taggingLeft).toBe(3);
    expect(prepared.take(message('a'), 't1')).toBeUndefined();

    prepared.keep(message('b'), 't1', work(2));
    expect(prepared.take(message('b'), 't2')).toBeUndefined();
    // A mismatch drops the entry: it can never fit that turn.
    expect(prepared.size).toBe(0);
    prepared.keep(message('c'), 't1', work(2));
    expect(prepared.take(message('c', 'Hello again'), 't1')).toBeUndefined();
    prepared.keep(message('d'), 't1', work(2));
    expect(prepared.take({ ...message('d'), speaker: 'Dana' }, 't1')).toBeUndefined();
    prepared.keep(message('e'), 't1', work(2));
    expect(prepared.take({ ...message('e'), role: 'assistant' }, 't1')).toBeUndefined();
  });

  it('forgets the oldest work beyond its number of entries (replies that failed never take theirs)', () => {
    const prepared = new PreparedMessages({ maxEntries: 2, maxCharacters: 1000 });
    prepared.keep(message('a'), 't', work(1));
    prepared.keep(message('b'), 't', work(2));
    prepared.keep(message('c'), 't', work(3));
    expect(prepared.size).toBe(2);
    expect(prepared.take(message('a'), 't')).toBeUndefined();
    expect(prepared.take(message('b'), 't')?.taggingLeft).toBe(2);
    expect(prepared.take(message('c'), 't')?.taggingLeft).toBe(3);
  });

  it('forgets the oldest work beyond its characters, but keeps the newest however long', () => {
    const prepared = new PreparedMessages({ maxEntries: 10, maxCharacters: 20 });
    prepared.keep(message('a', 'x'.repeat(8)), 't', work(1));
    prepared.keep(message('b', 'y'.repeat(8)), 't', work(2));
    // 8 + 8 + 8 > 20: the oldest goes.
    prepared.keep(message('c', 'z'.repeat(8)), 't', work(3));
    expect(prepared.take(message('a', 'x'.repeat(8)), 't')).toBeUndefined();
    expect(prepared.size).toBe(2);
    const long = message('d', 'w'.repeat(50));
    prepared.keep(long, 't', work(4));
    expect(prepared.size).toBe(1);
    expect(prepared.take(long, 't')?.taggingLeft).toBe(4);
    // Taken work no longer counts: short messages fit again.
    prepared.keep(message('e', 'v'.repeat(8)), 't', work(5));
    prepared.keep(message('f', 'u'.repeat(8)), 't', work(6));
    expect(prepared.size).toBe(2);
  });
});
