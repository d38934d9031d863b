import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_EVAL_MESSAGES } from '../../src/server/routes/eval-routes.js';
import { VAN_HIRE as SMALL } from '../support/key-fact-fixtures.js';
import { testServer, type TestServer } from './server-fixtures.js';

const ROOT = resolve(import.meta.dirname, '../..');

let server: TestServer;
let key: string;

beforeEach(async () => {
  server = await testServer();
  key = await server.keyOf('acme');
});

afterEach(async () => {
  await server.cleanup();
});


describe('REST retention eval', () => {
  it('lists the conversations shipped with the package, with their counts', async () => {
    const answer = await server.call('GET', '/api/eval/examples', { key });
    expect(answer.status).toBe(200);
    const kitchen = answer.json.examples.find((example: { name: string }) => example.name === 'kitchen-renovation');
    const file = JSON.parse(readFileSync(join(ROOT, 'examples', 'conversations', 'kitchen-renovation.json'), 'utf8')) as { description: string; budget: number; keyFacts: unknown[] };
    expect(kitchen).toEqual({ name: 'kitchen-renovation', description: file.description, turns: 31, keyFacts: file.keyFacts.length, budget: file.budget });
    // Every file of examples/conversations, then the demo conversation.
    expect(answer.json.examples).toHaveLength(13);
    expect(answer.json.examples[12].name).toBe('support-app-migration');
  });

  it('runs a shipped example: a score between 0 and 1, every fact, stale facts and the token reduction, in a store of its own', async () => {
    const answer = await server.call('POST', '/api/eval/retention', { key, body: { example: 'kitchen-renovation' } });
    expect(answer.status, answer.text).toBe(200);
    const { run } = answer.json;
    expect(run.budgetOverride).toBeNull();
    expect(run.conversations).toHaveLength(1);
    const [conversation] = run.conversations;
    expect(conversation).toMatchObject({ id: 'kitchen-renovation', file: join('examples', 'conversations', 'kitchen-renovation.json'), turns: 31, messages: 62, budget: 1440 });
    for (const score of [run.meanScore, run.memoryOnlyScore, conversation.score, conversation.memoryOnlyScore]) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    expect(run.meanScore).toBe(conversation.score);
    expect(conversation.facts).toHaveLength(14);
    for (const fact of conversation.facts) expect(['preserved', 'partial', 'missing']).toContain(fact.status);
    expect(conversation.tokenReduction).toBeGreaterThan(0);
    expect(conversation.contextTokens).toBeLessThanOrEqual(1440);
    expect(Array.isArray(conversation.stale)).toBe(true);
    // The replay never touches the tenant's store.
    expect((await server.call('GET', '/api/sessions', { key })).json.sessions).toEqual([]);
    expect(await server.memory.tenant('acme').sessions.list()).toEqual([]);
  }, 60_000);

  it('runs a conversation sent in the body, at the budget asked for', async () => {
    const answer = await server.call('POST', '/api/eval/retention', { key, body: { conversation: SMALL, budget: 300 } });
    expect(answer.status, answer.text).toBe(200);
    const { run } = answer.json;
    expect(run.budgetOverride).toBe(300);
    const [conversation] = run.conversations;
    expect(conversation).toMatchObject({ id: 'van-hire', file: 'body.conversation', turns: 2, messages: 4, budget: 300 });
    expect(conversation.facts.map((fact: { id: string; status: string }) => [fact.id, fact.status])).toEqual([
      ['budget', 'preserved'],
      ['date', 'preserved'],
    ]);
    expect(conversation.stale).toEqual([expect.objectContaining({ id: 'old-budget', supersededBy: 'budget' })]);
    expect(run.byTier.map((tier: { tier: number; facts: number }) => [tier.tier, tier.facts])).toEqual([
      [1, 1],
      [2, 1],
      [3, 0],
    ]);
  });

  it('refuses a broken conversation with a 400 naming what is wrong', async () => {
    const noFacts = await server.call('POST', '/api/eval/retention', { key, body: { conversation: { ...SMALL, keyFacts: [] } } });
    expect(noFacts.status).toBe(400);
    expect(noFacts.json.error.code).toBe('INVALID_INPUT');
    expect(noFacts.json.error.message).toContain('body.conversation is not a valid key-fact conversation');
    expect(noFacts.json.error.message).toContain('keyFacts needs at least one fact');

    const badTier = await server.call('POST', '/api/eval/retention', { key, body: { conversation: { ...SMALL, keyFacts: [{ ...SMALL.keyFacts[0], tier: 7 }] } } });
    expect(badTier.status).toBe(400);
    expect(badTier.json.error.message).toMatch(/keyFacts\[0\]\.tier \(fact "budget"\): tier must be 1/u);

    const notAnObject = await server.call('POST', '/api/eval/retention', { key, body: { conversation: 'hello' } });
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.json.error.message).toContain('body.conversation is not a valid key-fact conversation');
  });

  it('refuses a conversation too long to replay over the API, saying how to run it instead', async () => {
    const messages = Array.from({ length: MAX_EVAL_MESSAGES + 1 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: `Message ${index}: the van budget is £220.` }));
    const tooLong = await server.call('POST', '/api/eval/retention', { key, body: { conversation: { ...SMALL, messages } } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.message).toContain(`${MAX_EVAL_MESSAGES + 1} messages`);
    expect(tooLong.json.error.message).toContain('strata eval retention');
  });

  it('replays runs asked for at once one after the other, each with its own figures', async () => {
    const [first, second] = await Promise.all([
      server.call('POST', '/api/eval/retention', { key, body: { conversation: SMALL } }),
      server.call('POST', '/api/eval/retention', { key, body: { conversation: SMALL, budget: 60 } }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.json.run.conversations[0].budget).toBe(SMALL.budget);
    expect(second.json.run.conversations[0].budget).toBe(60);
  });

  it('refuses a body naming neither or both, a bad budget, and an unknown example (listing the known ones)', async () => {
    for (const body of [{}, { example: 'kitchen-renovation', conversation: SMALL }, { conversation: SMALL, budget: 0 }, { example: '' }]) {
      const answer = await server.call('POST', '/api/eval/retention', { key, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error.code).toBe('INVALID_INPUT');
    }
    const unknown = await server.call('POST', '/api/eval/retention', { key, body: { example: 'no-such-example' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('NOT_FOUND');
    expect(unknown.json.error.message).toContain('"no-such-example"');
    expect(unknown.json.error.message).toContain('kitchen-renovation');
  });

  it('answers only with an API key', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/eval/examples', undefined],
      ['POST', '/api/eval/retention', { conversation: SMALL }],
    ] as const) {
      const answer = await server.call(method, path, body === undefined ? {} : { body });
      expect(answer.status).toBe(401);
      expect(answer.json.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('reads the examples from the package root it is given', async () => {
    const elsewhere = await testServer({ packageRoot: join(ROOT, 'test') });
    try {
      const otherKey = await elsewhere.keyOf('acme');
      expect((await elsewhere.call('GET', '/api/eval/examples', { key: otherKey })).json).toEqual({ examples: [] });
      const missing = await elsewhere.call('POST', '/api/eval/retention', { key: otherKey, body: { example: 'kitchen-renovation' } });
      expect(missing.status).toBe(404);
      expect(missing.json.error.message).toContain('none are installed');
    } finally {
      await elsewhere.cleanup();
    }
  });
});
