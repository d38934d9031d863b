import { afterEach, describe, expect, it } from 'vitest';
import { createModelMemoryManager } from '../../../src/memory/model-memory-manager.js';
import { createMemory, type Memory } from '../../../src/memory/create-memory.js';
import type { RecordedRequest, ScriptedStep } from '../../support/scripted-openai-server.js';
import { dataOf, exchangeIds, scriptedModel, serve } from './model-fixtures.js';

/** A user message long enough (40+ words) for the model manager to send the turn to the model. */
const PAYROLL =
  'Quick payroll setup for the café so you have it written down somewhere safe. We have eleven people on the books right now, ' +
  'mostly part-timers, and everyone gets paid on the 12th of each month by bank transfer from the business account, never in cash.';
const HEADCOUNT =
  'Good news from this week that I wanted to pass on before I forget it again: we hired a second barista, so we will be 12 again, ' +
  'not 11, from next Monday, and the payday stays exactly the same as before for everyone, including the new starter.';

/** An answer whose diff is `diff`, for the exchange of the request. */
function answer(diff: (ids: { user: string; assistant: string }) => Record<string, unknown>): (request: RecordedRequest) => ScriptedStep {
  return (request) => {
    const ids = exchangeIds(request);
    return {
      json: {
        userSummary: 'Payroll details.',
        assistantSummary: 'Noted.',
        messages: [
          { id: ids.user, tier1: 'payroll = details', tier2: 'Payroll details.' },
          { id: ids.assistant, tier1: 'noted = yes', tier2: 'Noted.' },
        ],
        diff: { add: [], update: [], remove: [], ...diff(ids) },
      },
    };
  };
}

describe('the model manager and the truth rules', () => {
  let memory: Memory | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  it('sends each message with its own time, and the engine rejects an update of a fact that shares only a number with it', async () => {
    const server = await serve([
      answer((ids) => ({
        add: [
          { key: 'headcount', text: 'headcount: eleven people on the books', kind: 'fact', sourceMessageIds: [ids.user] },
          { key: 'payday', text: 'payday: the 12th of each month, by bank transfer', kind: 'fact', sourceMessageIds: [ids.user] },
        ],
      })),
      // The model aims the headcount change at the payday: only "12" joins them.
      answer((ids) => ({ update: [{ key: 'payday', text: 'staff: 12 again, not 11', kind: 'fact', sourceMessageIds: [ids.user], reason: "we'll be 12 again" }] })),
      answer((ids) => ({ update: [{ key: 'headcount', text: 'headcount: 12 again, not 11', kind: 'fact', sourceMessageIds: [ids.user], reason: "we'll be 12 again, not 11" }] })),
    ]);
    memory = createMemory({ path: ':memory:', env: {}, manager: createModelMemoryManager({ model: scriptedModel(server) }) });
    const session = await memory.sessions.create();
    await session.record({ user: PAYROLL, assistant: 'Noted: eleven staff, paid on the 12th by transfer.', timestamp: '2026-04-06T20:12:00Z' });
    const wrong = await session.record({ user: HEADCOUNT, assistant: 'Great news, twelve again.', timestamp: '2026-04-14T15:52:00Z' });
    expect(wrong.factEvents.map((event) => [event.op, event.newText])).toEqual([['reject', 'staff: 12 again, not 11']]);
    expect(wrong.factEvents[0]?.reason).toContain('update shares only "12" with the fact "payday"');
    expect((await session.facts()).map((fact) => fact.text)).toContain('payday: the 12th of each month, by bank transfer');

    const right = await session.record({ user: HEADCOUNT, assistant: 'Twelve again, noted.', timestamp: '2026-04-14T15:53:00Z' });
    expect(right.factEvents.map((event) => [event.op, event.oldText, event.newText])).toEqual([['update', 'headcount: eleven people on the books', 'headcount: 12 again, not 11']]);
    // The update says why, with the turn that changed it.
    expect(right.factEvents[0]?.reason).toBe("turn 3: we'll be 12 again, not 11");
    // Every request carried each message's time.
    const sent = server.requests.map((request) => dataOf(request).exchange.map((message) => (message as { sentAt?: unknown }).sentAt));
    expect(sent[0]).toEqual(['2026-04-06T20:12:00.000Z', '2026-04-06T20:12:00.000Z']);
    expect(sent[1]).toEqual(['2026-04-14T15:52:00.000Z', '2026-04-14T15:52:00.000Z']);
  });

  it('accepts a relative date resolved against the message time, and rejects a date the exchange never gives', async () => {
    const inspection =
      'The city scheduled the rough-in inspection for next Thursday, electrical and plumbing both, and Luis says either I am home or I leave a key. ' +
      'What does the inspector look at, so I am not blindsided on the day itself and can plan my work from home around it?';
    const server = await serve([
      answer((ids) => ({
        add: [
          { key: 'inspection', text: 'inspection: next Thursday (16 April 2026), electrical and plumbing', kind: 'fact', sourceMessageIds: [ids.user] },
          { key: 'final inspection', text: 'final inspection: 3 September 2027', kind: 'fact', sourceMessageIds: [ids.user] },
        ],
      })),
    ]);
    memory = createMemory({ path: ':memory:', env: {}, manager: createModelMemoryManager({ model: scriptedModel(server) }) });
    const session = await memory.sessions.create();
    const turn = await session.record({ user: inspection, assistant: 'They check the wiring and the drains.', timestamp: '2026-04-10T17:30:00Z' });
    expect(turn.factEvents.map((event) => [event.op, event.newText])).toEqual([
      ['add', 'inspection: next Thursday (16 April 2026), electrical and plumbing'],
      ['reject', 'final inspection: 3 September 2027'],
    ]);
  });

  it('keeps an older fact the model is not sure a new one replaces, and the package shows it as possibly superseded', async () => {
    const kickoff =
      'Planning notes for the client project so they are all in one place: the kickoff meeting with the client is on 3 March at their office, ' +
      'and we need the signed statement of work back from them before that day, otherwise legal will not let us start any billable work.';
    const workshop =
      'One more change from the client side that I should write down: the client workshop moved, it is now on 10 March, same office as before, ' +
      'and they asked whether we can bring the draft timeline with us so their finance people can look at it during the session.';
    const server = await serve([
      answer((ids) => ({ add: [{ key: 'kickoff', text: 'kickoff: meeting with the client on 3 March', kind: 'fact', sourceMessageIds: [ids.user] }] })),
      // Is the workshop the kickoff? The model cannot tell, so it adds the new line and names the one it may replace.
      answer((ids) => ({
        add: [{ key: 'client workshop', text: 'client workshop: moved, now on 10 March', kind: 'fact', sourceMessageIds: [ids.user], mayReplace: 'kickoff' }],
      })),
    ]);
    memory = createMemory({ path: ':memory:', env: {}, manager: createModelMemoryManager({ model: scriptedModel(server) }) });
    const session = await memory.sessions.create();
    await session.record({ user: kickoff, assistant: 'Noted: kickoff on 3 March.', timestamp: '2026-02-20T09:00:00Z' });
    const second = await session.record({ user: workshop, assistant: 'Noted: 10 March.', timestamp: '2026-02-24T09:00:00Z' });
    const facts = await session.facts();
    const older = facts.find((fact) => fact.key === 'kickoff');
    expect(older?.text).toBe('kickoff: meeting with the client on 3 March');
    expect(facts.find((fact) => fact.key === 'client workshop')?.mayReplace).toBe(older?.id);
    expect(second.factEvents.map((event) => [event.op, event.reason])).toEqual([['add', 'added; it may replace "kickoff" (turn 1), which is kept']]);
    const lines = (await session.context({ budget: 2000 })).render()[0]?.content.split('\n') ?? [];
    const line = lines.indexOf('- client workshop: moved, now on 10 March [may replace turn 1: "kickoff: meeting with the client on 3 March"] (turn 2)');
    expect(lines[line - 1]).toBe('#### 24 Feb 2026');
    // The older line is never shown alone, as if it still held.
    expect(lines.filter((line) => line.includes('3 March'))).toHaveLength(1);
  });
});
