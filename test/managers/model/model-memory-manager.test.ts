import { describe, expect, it } from 'vitest';
import { isStrataError } from '../../../src/core/errors.js';
import type { Fact } from '../../../src/core/types.js';
import type { PrepareMessageOptions } from '../../../src/managers/memory-manager.js';
import { createLocalMemoryManager } from '../../../src/managers/local/index.js';
import { createModelMemoryManager as createModelManagerAdapter } from '../../../src/managers/model/index.js';
import { createModelMemoryManager } from '../../../src/memory/model-memory-manager.js';
import { TURN_OUTPUT_SCHEMA } from '../../../src/managers/model/turn-output-schema.js';
import { refusedBaseUrl } from '../../support/scripted-openai-server.js';
import { GOOD, MEDIUM_ASSISTANT, MEDIUM_USER, bodyOf, dataOf, goodAnswer, scriptedModel, serve, turnOptions } from './model-fixtures.js';

const TURN = turnOptions(MEDIUM_USER, MEDIUM_ASSISTANT);
const local = createLocalMemoryManager();

const EXISTING: Fact = {
  id: 'f-1',
  sessionId: 'session-1',
  key: 'host',
  text: 'host: Hetzner',
  kind: 'fact',
  pinned: false,
  sourceMessageIds: ['m-0'],
  createdTurn: 1,
  updatedTurn: 1,
  createdAt: '2024-05-08T09:00:00Z',
  updatedAt: '2024-05-08T09:00:00Z',
};

describe('model memory manager: the summarised turn', () => {
  it('writes summaries, both tiers and the diff from one call; required tiers, depth and artifacts come from the local manager', async () => {
    const server = await serve([{ json: goodAnswer(), usage: { promptTokens: 900, completionTokens: 120 } }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    expect(manager.name).toBe('model:scripted-memory');
    const memory = await manager.processTurn({ ...TURN, facts: [EXISTING] });
    const offline = await local.processTurn({ ...TURN, facts: [EXISTING] });
    expect(memory).toEqual({
      messages: GOOD.tiers.map((tiers, index) => ({ ...tiers, requiredTier: offline.messages[index]?.requiredTier })),
      userSummary: GOOD.userSummary,
      assistantSummary: GOOD.assistantSummary,
      depth: 'medium',
      windowExtension: 0,
      diff: GOOD.diff,
      artifacts: [],
      usage: { calls: 1, retries: 0, promptTokens: 900, completionTokens: 120 },
    });
    expect(memory.fallback).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    expect(manager.stats()).toEqual({ calls: 1, retries: 0, fallbacks: 0, promptTokens: 900, completionTokens: 120, skippedShort: 0 });
  });

  it('sends the summarizer prompt with the exchange and the current facts, and the JSON schema as structured output', async () => {
    const server = await serve([{ json: goodAnswer() }]);
    await createModelMemoryManager({ model: scriptedModel(server), temperature: 0.2 }).processTurn({ ...TURN, facts: [EXISTING] });
    const body = bodyOf(server.requests[0]);
    expect(body).toMatchObject({
      model: 'scripted-memory',
      temperature: 0.2,
      response_format: { type: 'json_schema', json_schema: { name: 'turn_memory', schema: TURN_OUTPUT_SCHEMA.jsonSchema, strict: true } },
    });
    expect(body.messages[0]).toMatchObject({ role: 'system' });
    expect(body.messages[0]?.content).toContain('Capture every hard constraint');
    const data = dataOf(server.requests[0]);
    expect(data.exchange.map((message) => [message.id, message.role, message.content])).toEqual([
      ['m-user', 'user', MEDIUM_USER],
      ['m-assistant', 'assistant', MEDIUM_ASSISTANT],
    ]);
    expect(data.currentFacts).toEqual([{ key: 'host', kind: 'fact', pinned: false, text: 'host: Hetzner' }]);
  });

  it('shows a tool call as "called name(arguments)" and its result as a tool message, and takes tiers for both', async () => {
    const calls = [{ id: 'call_1', name: 'lookup_price', arguments: '{"plan":"pro"}' }];
    const turn = {
      ...TURN,
      messages: [
        TURN.messages[0]!,
        { id: 'm-call', role: 'assistant' as const, speaker: null, content: '', sentAt: '2024-05-08T10:00:00Z', toolCalls: calls },
        { id: 'm-result', role: 'tool' as const, speaker: null, content: '{"usd":49}', sentAt: '2024-05-08T10:00:00Z', toolCallId: 'call_1' },
        TURN.messages[1]!,
      ],
    };
    const toolTiers = [
      { id: 'm-call', tier1: 'called = lookup_price', tier2: 'Looked up the pro plan price.' },
      { id: 'm-result', tier1: 'pro plan = $49', tier2: 'The pro plan costs $49.' },
    ];
    const server = await serve([{ json: goodAnswer({ messages: [...goodAnswer().messages as object[], ...toolTiers] }) }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server) }).processTurn(turn);
    const data = dataOf(server.requests[0]);
    expect(data.exchange.map((message) => [message.id, message.role, message.content])).toEqual([
      ['m-user', 'user', MEDIUM_USER],
      ['m-call', 'assistant', 'called lookup_price({"plan":"pro"})'],
      ['m-result', 'tool', '{"usd":49}'],
      ['m-assistant', 'assistant', MEDIUM_ASSISTANT],
    ]);
    expect(bodyOf(server.requests[0]).messages[0]?.content).toContain('A message with role "tool" is the result of a tool the assistant called');
    expect(data.exchange[1]).toMatchObject({ toolCallIds: ['call_1'] });
    expect(data.exchange[2]).toMatchObject({ answersToolCall: 'call_1' });
    expect(memory.fallback).toBeUndefined();
    expect(memory.messages.find((message) => message.messageId === 'm-result')).toMatchObject({ tier1: 'pro plan = $49', tier2: 'The pro plan costs $49.' });
  });

  it('in prompt mode asks for JSON in words and accepts an answer in a code fence', async () => {
    const server = await serve([{ reply: `\`\`\`json\n${JSON.stringify(goodAnswer(), null, 2)}\n\`\`\`` }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server, { structuredOutput: 'prompt' }) }).processTurn(TURN);
    expect(memory.fallback).toBeUndefined();
    expect(memory.diff.add).toHaveLength(2);
    const body = bodyOf(server.requests[0]);
    expect(body.response_format).toBeUndefined();
    expect(body.messages.at(-1)?.content).toContain(JSON.stringify(TURN_OUTPUT_SCHEMA.jsonSchema));
  });

  it('keeps the local tiers where the model leaves a tier empty', async () => {
    const answer = goodAnswer({ messages: [{ id: 'm-user', tier1: '', tier2: 'Moving the support app.' }, { id: 'm-assistant', tier1: 'ok = yes', tier2: ' ' }] });
    const server = await serve([{ json: answer }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server) }).processTurn(TURN);
    const offline = await local.processTurn(TURN);
    expect(memory.messages.map((entry) => [entry.tier1, entry.tier2])).toEqual([
      [offline.messages[0]?.tier1, 'Moving the support app.'],
      ['ok = yes', offline.messages[1]?.tier2],
    ]);
  });
});

describe('model memory manager: malformed answers', () => {
  it('asks again once with the same payload after malformed JSON, then uses the valid answer', async () => {
    const server = await serve([{ malformed: 'not-json' }, { json: goodAnswer() }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const memory = await manager.processTurn(TURN);
    expect(memory.fallback).toBeUndefined();
    expect(memory.diff.add).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toEqual(server.requests[0]?.body);
    expect(manager.stats()).toMatchObject({ calls: 2, retries: 1, fallbacks: 0 });
  });

  it('falls back after two malformed answers: the raw exchange as the summary, local tiers, no diff, the turn flagged', async () => {
    const server = await serve([{ malformed: 'not-json' }, { malformed: 'truncated' }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const memory = await manager.processTurn(TURN);
    const offline = await local.processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'malformed', retry: true, code: 'MODEL_OUTPUT_INVALID' });
    expect(memory.fallback?.message).toContain('unusable JSON 2 times');
    expect(memory.diff).toEqual({ add: [], update: [], remove: [] });
    expect(memory.userSummary).toBe(`${MEDIUM_USER.split(' ').slice(0, 25).join(' ')}…`);
    expect(memory.assistantSummary).toBe(MEDIUM_ASSISTANT);
    expect(memory.messages).toEqual(offline.messages);
    expect(memory.depth).toBe('medium');
    expect(server.requests).toHaveLength(2);
    expect(manager.stats()).toMatchObject({ calls: 2, retries: 1, fallbacks: 1 });
  });

  it('treats truncated JSON as malformed', async () => {
    const server = await serve([{ malformed: 'truncated' }, { malformed: 'truncated' }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server) }).processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'malformed', retry: true });
    expect(memory.fallback?.message).toContain('not valid JSON');
  });

  it('treats JSON of the wrong shape as malformed: a number as a fact text, then an unknown message id', async () => {
    const numberText = goodAnswer({ diff: { add: [{ key: 'budget', text: 40000, kind: 'fact', sourceMessageIds: ['m-user'] }], update: [], remove: [] } });
    const unknownId = goodAnswer({ diff: { add: [{ key: 'budget', text: 'budget: $40,000', kind: 'fact', sourceMessageIds: ['m-elsewhere'] }], update: [], remove: [] } });
    const server = await serve([{ json: numberText }, { json: unknownId }, { malformed: 'wrong-shape' }, { json: goodAnswer() }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const first = await manager.processTurn(TURN);
    expect(first.fallback).toMatchObject({ reason: 'malformed', retry: true });
    expect(first.fallback?.message).toContain('cites unknown message ids: m-elsewhere');
    expect(first.diff).toEqual({ add: [], update: [], remove: [] });
    const second = await manager.processTurn(TURN);
    expect(second.fallback).toBeUndefined();
    expect(manager.stats()).toMatchObject({ calls: 4, retries: 2, fallbacks: 1 });
  });

  it('treats an HTTP response that is not a chat completion as malformed', async () => {
    const server = await serve([{ raw: '<html>proxy error</html>' }, { raw: '{"choices": []}' }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server) }).processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'malformed', retry: true, code: 'MODEL_OUTPUT_INVALID' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('model memory manager: an unavailable model', () => {
  it('falls back at once on a time-out, flagged for the retry queue', async () => {
    const server = await serve([{ hang: true }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server), timeoutMs: 200 });
    const memory = await manager.processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'timeout', retry: true, code: 'MODEL_TIMEOUT' });
    expect(memory.fallback?.message).toContain('within 200 ms');
    expect(memory.diff).toEqual({ add: [], update: [], remove: [] });
    expect(memory.messages).toEqual((await local.processTurn(TURN)).messages);
    expect(server.requests).toHaveLength(1);
    expect(manager.stats()).toMatchObject({ calls: 1, retries: 0, fallbacks: 1 });
  });

  it('falls back on HTTP 500 after the client’s retries, flagged for the retry queue', async () => {
    const server = await serve([{ status: 500, retryAfter: 0 }, { status: 500, retryAfter: 0 }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server, { maxRetries: 1 }) }).processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'unavailable', retry: true, code: 'MODEL_FAILURE' });
    expect(server.requests).toHaveLength(2);
  });

  it('falls back on HTTP 429, flagged for the retry queue', async () => {
    const server = await serve([{ status: 429, retryAfter: 0 }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server) }).processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'unavailable', retry: true, code: 'MODEL_RATE_LIMITED' });
  });

  it('falls back when the connection is refused, flagged for the retry queue', async () => {
    const memory = await createModelMemoryManager({ model: scriptedModel(await refusedBaseUrl()) }).processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'unavailable', retry: true, code: 'MODEL_FAILURE' });
    expect(memory.fallback?.message).toContain('refused the connection');
  });

  it('falls back without a retry when the endpoint refuses the request for good (401)', async () => {
    const server = await serve([{ status: 401 }]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server) }).processTurn(TURN);
    expect(memory.fallback).toMatchObject({ reason: 'rejected', retry: false, code: 'MODEL_FAILURE' });
    expect(memory.fallback?.message).toContain('STRATA_MEMORY_API_KEY');
  });
});

describe('model memory manager: routing', () => {
  it('summarises a short exchange with the local manager and no model call', async () => {
    const server = await serve([]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const short = turnOptions('Can we deploy on Friday?', 'No, we never deploy on Fridays.');
    expect(await manager.processTurn(short)).toEqual(await local.processTurn(short));
    expect(server.requests).toHaveLength(0);
    expect(manager.stats()).toEqual({ calls: 0, retries: 0, fallbacks: 0, promptTokens: 0, completionTokens: 0, skippedShort: 1 });
  });

  it('sends a short exchange with code to the model; its code blocks become artifacts', async () => {
    const code = 'Here it is:\n```ts\nexport function parse(input: string): number {\n  return Number(input);\n}\n```';
    const server = await serve([{ json: goodAnswer() }]);
    const manager = createModelMemoryManager({ model: scriptedModel(server) });
    const turn = turnOptions('Write parse for me.', code);
    const memory = await manager.processTurn(turn);
    expect(server.requests).toHaveLength(1);
    expect(memory.depth).toBe('code');
    expect(memory.artifacts).toEqual((await local.processTurn(turn)).artifacts);
    expect(memory.artifacts.map((artifact) => artifact.name)).toEqual(['parse']);
  });

  it('uses an injected local manager for short exchanges and fallbacks', async () => {
    const calls: number[] = [];
    const stub = {
      name: 'stub',
      processTurn: async (options: typeof TURN) => {
        calls.push(options.turn);
        return { ...(await local.processTurn(options)), userSummary: 'from the stub' };
      },
    };
    const server = await serve([]);
    const memory = await createModelMemoryManager({ model: scriptedModel(server), local: stub }).processTurn(turnOptions('Hi!', 'Hello!'));
    expect(memory.userSummary).toBe('from the stub');
    expect(calls).toEqual([3]);
  });

  it('hands the opening message of a coming turn to its local manager, which does its part of every turn', async () => {
    const prepared: PrepareMessageOptions[] = [];
    const stub = { name: 'stub', processTurn: (options: typeof TURN) => local.processTurn(options), prepare: (options: PrepareMessageOptions) => void prepared.push(options) };
    const server = await serve([]);
    const manager = createModelMemoryManager({ model: scriptedModel(server), local: stub });
    const hint = { sessionId: 'session-1', message: { id: 'm-user', role: 'user' as const, speaker: null, content: 'Hi!', sentAt: '2024-05-08T10:00:00Z' }, timestamp: '2024-05-08T10:00:00Z' };
    await manager.prepare?.(hint);
    expect(prepared).toEqual([hint]);
    // A local manager without prepare is fine too.
    expect(() => createModelMemoryManager({ model: scriptedModel(server), local: { name: 'plain', processTurn: (options: typeof TURN) => local.processTurn(options) } }).prepare?.(hint)).not.toThrow();
  });
});

describe('model memory manager: settings', () => {
  it('refuses missing models and out-of-range numbers with INVALID_CONFIG naming the option', () => {
    const refused = (make: () => unknown): string => {
      try {
        make();
      } catch (error) {
        if (isStrataError(error, 'INVALID_CONFIG')) return String(error.details.option);
        throw error;
      }
      throw new Error('expected INVALID_CONFIG');
    };
    const model = scriptedModel('http://127.0.0.1:9/v1');
    expect(refused(() => createModelMemoryManager({} as never))).toBe('model');
    expect(refused(() => createModelMemoryManager({ model, contextWindowTokens: 10 }))).toBe('contextWindowTokens');
    expect(refused(() => createModelMemoryManager({ model, timeoutMs: 0 }))).toBe('timeoutMs');
    expect(refused(() => createModelMemoryManager({ model, temperature: 3 }))).toBe('temperature');
    expect(refused(() => createModelMemoryManager({ model, name: ' ' }))).toBe('name');
    // The adapter itself never builds the local manager it falls back on: the engine gives it one.
    expect(refused(() => createModelManagerAdapter({ model } as never))).toBe('local');
    expect(createModelManagerAdapter({ model, local: createLocalMemoryManager() }).name).toBe(`model:${model.model}`);
  });
});
