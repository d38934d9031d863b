import { afterEach, expect } from 'vitest';
import { createOpenAiChatModel, type OpenAiChatModelSettings } from '../../../src/providers/openai/openai-chat-model.js';
import { dataOf } from '../../support/request-data.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptEntry } from '../../support/scripted-openai-server.js';

/** Servers started by `serve`, closed after each test. */
const servers: ScriptedServer[] = [];

afterEach(async () => {
  const done = servers.splice(0);
  await Promise.all(done.map((server) => server.close()));
  // Every request was answered from the script: none came unexpected.
  for (const server of done) expect(server.problems).toEqual([]);
});

export async function serve(script: ScriptEntry[] = [], options: { titles?: 'auto' | 'script' } = {}): Promise<ScriptedServer> {
  const server = await startScriptedServer({ script, ...options });
  servers.push(server);
  return server;
}

/** A memory model on the scripted server; the client does not retry unless asked to. */
export function scriptedModel(server: ScriptedServer | string, settings: Partial<OpenAiChatModelSettings> = {}) {
  const baseUrl = typeof server === 'string' ? server : server.baseUrl;
  return createOpenAiChatModel({ baseUrl, model: 'scripted-memory', role: 'memory', maxRetries: 0, fetch, ...settings });
}

export { MEDIUM_USER, turnRequest as turnOptions } from '../../support/turn-request.js';
export { bodyOf, dataOf } from '../../support/request-data.js';

/** The ids of the user and assistant messages of the exchange a memory-model request sends. */
export function exchangeIds(request: RecordedRequest): { user: string; assistant: string } {
  const [user, assistant] = dataOf(request).exchange;
  return { user: user?.id ?? '', assistant: assistant?.id ?? '' };
}

export const MEDIUM_ASSISTANT = 'Understood: a $40,000 budget, the March 15 deadline, no card numbers stored, and PostgreSQL 16.';

/** The parts of a well-formed answer for the medium exchange, as the parser returns them. */
export const GOOD = {
  userSummary: 'User plans the support app move: $40,000 budget, March 15 deadline, never store card numbers, prefers PostgreSQL 16.',
  assistantSummary: 'Assistant confirmed the budget, the deadline, the card rule and PostgreSQL 16.',
  tiers: [
    { messageId: 'm-user', tier1: 'budget = $40,000; deadline = March 15; database = PostgreSQL 16', tier2: 'Moving the support app; $40,000 budget, March 15 deadline; never store card numbers.' },
    { messageId: 'm-assistant', tier1: 'confirmed = budget, deadline, card rule', tier2: 'Confirmed the plan.' },
  ],
  diff: {
    add: [
      { key: 'budget', text: 'budget: $40,000', kind: 'constraint' as const, sourceMessageIds: ['m-user'] },
      { key: 'card numbers', text: 'card numbers: never store full card numbers', kind: 'exception' as const, sourceMessageIds: ['m-user'] },
    ],
    update: [],
    remove: [],
  },
};

/** A well-formed answer for the medium exchange, as the model sends it. */
export function goodAnswer(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    userSummary: GOOD.userSummary,
    assistantSummary: GOOD.assistantSummary,
    messages: GOOD.tiers.map(({ messageId, ...tiers }) => ({ id: messageId, ...tiers })),
    diff: GOOD.diff,
    ...overrides,
  };
}
