import { afterEach, describe, expect, it, vi } from 'vitest';
import { createModelMemoryManager } from '../../../src/memory/model-memory-manager.js';
import { createMemory, type Memory } from '../../../src/memory/create-memory.js';
import { recordingLogger, warnings } from '../../support/recording-logger.js';
import type { RecordedRequest, ScriptedStep } from '../../support/scripted-openai-server.js';
import { MEDIUM_ASSISTANT, MEDIUM_USER, exchangeIds, scriptedModel, serve } from './model-fixtures.js';

/** A well-formed answer whose diff mixes one grounded fact with hallucinations the exchange never states. */
function ungroundedAnswer(request: RecordedRequest): ScriptedStep {
  const ids = exchangeIds(request);
  return {
    json: {
      userSummary: 'Planning the support app move.',
      assistantSummary: 'Confirmed the plan.',
      messages: [
        { id: ids.user, tier1: 'budget = $40,000', tier2: 'Moving the support app.' },
        { id: ids.assistant, tier1: 'confirmed = plan', tier2: 'Confirmed.' },
      ],
      diff: {
        add: [
          { key: 'deadline', text: 'deadline: March 15', kind: 'constraint', sourceMessageIds: [ids.user] },
          { key: 'budget', text: 'budget: $90,000 approved by Oracle', kind: 'constraint', sourceMessageIds: [ids.user] },
          { key: 'cloud', text: 'cloud: Azure in Frankfurt', kind: 'fact', sourceMessageIds: [ids.assistant] },
        ],
        update: [],
        remove: [],
      },
    },
  };
}

describe('garbage from the memory model never becomes a fact', () => {
  let memory: Memory | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  it('keeps the grounded entry, rejects the hallucinated ones with events, and stores nothing from malformed answers', async () => {
    const server = await serve([ungroundedAnswer, { malformed: 'wrong-shape' }, { malformed: 'not-json' }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const { logger, records } = recordingLogger();
    memory = createMemory({ path: ':memory:', env: {}, manager, logger });
    const session = await memory.sessions.create();

    const first = await session.record({ user: MEDIUM_USER, assistant: MEDIUM_ASSISTANT });
    expect(first.factEvents.map((event) => [event.op, event.newText, event.actor])).toEqual([
      ['add', 'deadline: March 15', 'model:scripted-memory'],
      ['reject', 'budget: $90,000 approved by Oracle', 'model:scripted-memory'],
      ['reject', 'cloud: Azure in Frankfurt', 'model:scripted-memory'],
    ]);
    expect(first.factEvents[1]?.reason).toBe('not grounded in the exchange: 90000, Oracle not found there');
    expect(first.factEvents[2]?.reason).toBe('not grounded in the exchange: Azure, Frankfurt not found there');
    expect((await session.facts()).map((fact) => fact.text)).toEqual(['deadline: March 15']);

    // Malformed twice: the turn falls back, no diff, and the document is unchanged.
    const second = await session.record({ user: `${MEDIUM_USER} Also, the budget is now $45,000.`, assistant: 'Noted: $45,000.' });
    expect(second.factEvents).toEqual([]);
    expect((await session.facts()).map((fact) => fact.text)).toEqual(['deadline: March 15']);
    expect((await session.factEvents()).filter((event) => event.op !== 'reject').map((event) => event.newText)).toEqual(['deadline: March 15']);
    expect(second.summary.userSummary.startsWith('We are moving the support app')).toBe(true);
    // Turn 1, its title (asked beside the memory work, answered apart from the script), and turn 2's two malformed answers.
    await vi.waitFor(() => expect(manager.stats()).toMatchObject({ calls: 4, retries: 1, fallbacks: 1 }));
    expect(server.titleRequests).toHaveLength(1);
    // The fallback is logged: the turn is queued for a retry because its answer was malformed twice.
    expect(warnings(records).map((warning) => warning.details)).toEqual([
      { sessionId: session.id, turn: 2, status: 'pending-retry', code: 'MODEL_OUTPUT_INVALID', retry: true, retried: false },
    ]);
  });
});
