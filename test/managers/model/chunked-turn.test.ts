import { describe, expect, it } from 'vitest';
import { createModelMemoryManager } from '../../../src/memory/model-memory-manager.js';
import type { RecordedRequest, ScriptedStep } from '../../support/scripted-openai-server.js';
import { dataOf, scriptedModel, serve, turnOptions } from './model-fixtures.js';

/** A long reply: ten paragraphs, each naming its own release. */
const LONG_REPLY = Array.from(
  { length: 10 },
  (_, index) => `Release ${index + 1} ships the billing service with retries and alerts. It must pass the load test before noon. The team reviews the dashboards afterwards and writes a short report.`,
).join('\n\n');

const USER = 'Walk me through every release of the billing service, one paragraph each, with the checks that must pass and what the team does afterwards. Keep it complete, I will use it as the runbook for the next quarter.';

/** Answers each call from what it shows: tiers naming the part, a fact per part on one key, so later parts must win. */
function answerFromRequest(request: RecordedRequest): ScriptedStep {
  const { exchange } = dataOf(request);
  const hasUser = exchange.some((message) => message.role === 'user');
  const hasAssistant = exchange.some((message) => message.role === 'assistant');
  const label = (message: (typeof exchange)[number]): string => message.part ?? 'whole';
  const assistantPart = exchange.find((message) => message.role === 'assistant');
  return {
    json: {
      userSummary: hasUser ? 'Asked for the billing runbook.' : '',
      assistantSummary: hasAssistant ? `Covered part ${assistantPart === undefined ? '' : label(assistantPart)}.` : '',
      messages: exchange.map((message) => ({ id: message.id, tier1: `part = ${label(message)}`, tier2: `Part ${label(message)}.` })),
      diff: {
        add: exchange
          .filter((message) => message.role === 'assistant')
          .map((message) => ({ key: 'last covered part', text: `last covered part: ${label(message)}`, kind: 'fact', sourceMessageIds: [message.id] })),
        update: [],
        remove: [],
      },
    },
  };
}

describe('model memory manager: messages longer than the window', () => {
  it('splits them on paragraph boundaries, summarises each part with a call and merges the parts', async () => {
    const server = await serve(Array.from({ length: 20 }, () => answerFromRequest));
    const manager = createModelMemoryManager({ model: scriptedModel(server), contextWindowTokens: 1_000 });
    const memory = await manager.processTurn(turnOptions(USER, LONG_REPLY));

    const calls = server.requests.map((request) => dataOf(request).exchange);
    const parts = calls.flatMap((exchange) => exchange.filter((message) => message.id === 'm-assistant'));
    const count = parts.length;
    expect(count).toBeGreaterThan(2);
    expect(server.requests).toHaveLength(calls.length);
    expect(manager.stats().calls).toBe(calls.length);
    // Numbered in order, each call showing one part, cut between paragraphs, together the whole reply.
    expect(parts.map((part) => part.part)).toEqual(parts.map((_, index) => `${index + 1} of ${count}`));
    for (const exchange of calls) expect(exchange.filter((message) => message.id === 'm-assistant').length).toBeLessThanOrEqual(1);
    for (const part of parts) expect(part.content.startsWith('Release ')).toBe(true);
    expect(parts.map((part) => part.content).join('\n\n')).toBe(LONG_REPLY);
    expect(calls[0]?.[0]).toMatchObject({ id: 'm-user', content: USER });

    // Tiers concatenated in part order; the summaries joined; the later part wins the key.
    const assistant = memory.messages.find((entry) => entry.messageId === 'm-assistant');
    expect(assistant?.tier1).toBe(parts.map((part) => `part = ${part.part ?? ''}`).join('; '));
    expect(assistant?.tier2).toBe(parts.map((part) => `Part ${part.part ?? ''}.`).join(' '));
    expect(memory.messages.find((entry) => entry.messageId === 'm-user')?.tier1).toBe('part = whole');
    expect(memory.userSummary).toBe('Asked for the billing runbook.');
    expect(memory.assistantSummary.startsWith(`Covered part 1 of ${count}.`)).toBe(true);
    expect(memory.diff).toEqual({
      add: [{ key: 'last covered part', text: `last covered part: ${count} of ${count}`, kind: 'fact', sourceMessageIds: ['m-assistant'] }],
      update: [],
      remove: [],
    });
    expect(memory.depth).toBe('long');
    expect(memory.fallback).toBeUndefined();
  });

  it('falls back for the whole turn when one part fails, and asks for no further part', async () => {
    const server = await serve([answerFromRequest, { hang: true }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server), contextWindowTokens: 1_000, timeoutMs: 200 });
    const memory = await manager.processTurn(turnOptions(USER, LONG_REPLY));
    expect(memory.fallback).toMatchObject({ reason: 'timeout', retry: true });
    expect(memory.diff).toEqual({ add: [], update: [], remove: [] });
    expect(server.requests).toHaveLength(2);
    expect(manager.stats()).toMatchObject({ calls: 2, fallbacks: 1 });
  });

  it('needs one call when the window is large enough', async () => {
    const server = await serve([answerFromRequest]);
    await createModelMemoryManager({ model: scriptedModel(server) }).processTurn(turnOptions(USER, LONG_REPLY));
    expect(server.requests).toHaveLength(1);
    expect(dataOf(server.requests[0]).exchange.map((message) => message.part)).toEqual([undefined, undefined]);
  });
});
