import { describe, expect, it } from 'vitest';
import { parseTurnOutput, type TurnOutputExpectation } from '../../../src/managers/model/parse-turn-output.js';
import { TURN_LIMITS } from '../../../src/managers/model/turn-limits.js';
import { TURN_OUTPUT_SCHEMA } from '../../../src/managers/model/turn-output-schema.js';
import { GOOD, goodAnswer } from './model-fixtures.js';

const EXPECTATION: TurnOutputExpectation = {
  messages: [
    { id: 'm-user', role: 'user', words: 45 },
    { id: 'm-assistant', role: 'assistant', words: 16 },
  ],
  limits: TURN_LIMITS,
};

function parse(value: unknown, expectation = EXPECTATION) {
  return parseTurnOutput(typeof value === 'string' ? value : JSON.stringify(value), expectation);
}

function problemOf(value: unknown, expectation = EXPECTATION): string {
  const result = parse(value, expectation);
  if (result.ok) throw new Error('expected a rejected reply');
  return result.problem;
}

describe('the turn output schema', () => {
  it('is a closed JSON schema with every property required, as strict structured output needs', () => {
    const schema = TURN_OUTPUT_SCHEMA.jsonSchema as { $schema?: unknown; required: string[]; additionalProperties: boolean; properties: Record<string, { properties?: Record<string, unknown>; required?: string[]; additionalProperties?: boolean }> };
    expect(TURN_OUTPUT_SCHEMA.name).toBe('turn_memory');
    expect(schema.$schema).toBeUndefined();
    expect(schema.required).toEqual(['userSummary', 'assistantSummary', 'messages', 'diff']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.diff?.required).toEqual(['add', 'update', 'remove']);
    expect(schema.properties.diff?.additionalProperties).toBe(false);
    expect(JSON.stringify(schema)).toContain('"enum":["fact","constraint","goal","preference","exception"]');
  });
});

describe('parseTurnOutput', () => {
  it('turns a good answer into summaries, tiers and a FactDiff', () => {
    expect(parse(goodAnswer())).toEqual({
      ok: true,
      value: { userSummary: GOOD.userSummary, assistantSummary: GOOD.assistantSummary, messages: GOOD.tiers, diff: GOOD.diff },
    });
  });

  it('accepts JSON inside a code fence (prompt mode) and leaves the key out when the model gives none', () => {
    const answer = goodAnswer({ diff: { add: [{ key: ' ', text: 'deadline: March 15', kind: 'constraint', sourceMessageIds: ['m-user', 'm-user'] }], update: [], remove: [] } });
    const result = parse(`\n\`\`\`json\n${JSON.stringify(answer, null, 2)}\n\`\`\`\n`);
    expect(result.ok && result.value.diff.add).toEqual([{ text: 'deadline: March 15', kind: 'constraint', sourceMessageIds: ['m-user'] }]);
  });

  it('cuts summaries and tiers to their word limits', () => {
    const long = Array.from({ length: 60 }, (_, index) => `w${index}`).join(' ');
    const result = parse(goodAnswer({ userSummary: long, assistantSummary: long, messages: [{ id: 'm-user', tier1: long, tier2: long }, { id: 'm-assistant', tier1: long, tier2: long }] }));
    if (!result.ok) throw new Error(result.problem);
    const words = (text: string): number => text.split(' ').length;
    expect(words(result.value.userSummary)).toBe(25);
    expect(result.value.userSummary.endsWith('…')).toBe(true);
    expect(words(result.value.assistantSummary)).toBe(30);
    // 45 words: tier 1 ≤ max(15, 9), tier 2 ≤ max(15, 16); 16 words: both 15.
    expect(result.value.messages.map((entry) => [words(entry.tier1), words(entry.tier2)])).toEqual([[15, 16], [15, 15]]);
  });

  it('gives no summary for a side the call did not show', () => {
    const result = parse(goodAnswer({ messages: [{ id: 'm-user', tier1: 'a = b', tier2: 'A.' }] }), { ...EXPECTATION, messages: [{ id: 'm-user', role: 'user', words: 45 }] });
    expect(result.ok && result.value.assistantSummary).toBe('');
  });

  it('rejects truncated JSON and prose', () => {
    expect(problemOf('{"userSummary": "The user asked about the deploy')).toMatch(/^not valid JSON/u);
    expect(problemOf('Sure! Here is a summary.')).toMatch(/^not valid JSON/u);
  });

  it('rejects wrong shapes: a number as a fact text, an unknown kind, a missing list, an extra field', () => {
    const add = (entry: Record<string, unknown>) => goodAnswer({ diff: { add: [entry], update: [], remove: [] } });
    expect(problemOf(add({ key: 'budget', text: 40000, kind: 'fact', sourceMessageIds: ['m-user'] }))).toContain('diff.add.0.text');
    expect(problemOf(add({ key: 'budget', text: 'budget: $40,000', kind: 'rumour', sourceMessageIds: ['m-user'] }))).toContain('diff.add.0.kind');
    expect(problemOf(goodAnswer({ diff: { add: [], update: [] } }))).toContain('diff.remove');
    expect(problemOf(goodAnswer({ confidence: 0.9 }))).toMatch(/^wrong shape/u);
    expect(problemOf({ unexpected: ['this', 'is', 'not', 'the', 'schema'] })).toMatch(/^wrong shape/u);
  });

  it("rejects ids that are not the call's messages: unknown, repeated, missing, or cited by the diff", () => {
    const tiers = (ids: string[]) => goodAnswer({ messages: ids.map((id) => ({ id, tier1: 'a = b', tier2: 'A.' })) });
    expect(problemOf(tiers(['m-user', 'm-assistant', 'm-other']))).toBe('messages has an unknown message id: m-other');
    expect(problemOf(tiers(['m-user', 'm-user', 'm-assistant']))).toBe('messages has message m-user twice');
    expect(problemOf(tiers(['m-user']))).toBe('messages lacks message ids: m-assistant');
    const cites = (ids: string[]) => goodAnswer({ diff: { add: [], update: [{ key: 'budget', text: 'budget: $45,000', kind: 'constraint', sourceMessageIds: ids, reason: 'make it $45,000' }], remove: [] } });
    expect(problemOf(cites(['m-earlier']))).toBe('diff.update.0 cites unknown message ids: m-earlier');
    expect(problemOf(cites([]))).toBe('diff.update.0 cites no message');
  });

  it('rejects empty or over-long fact lines and removals without a key or a reason', () => {
    const add = (text: string) => goodAnswer({ diff: { add: [{ key: 'k', text, kind: 'fact', sourceMessageIds: ['m-user'] }], update: [], remove: [] } });
    expect(problemOf(add('  '))).toBe('diff.add.0 has an empty text');
    expect(problemOf(add('x'.repeat(501)))).toBe('diff.add.0 is 501 characters; the limit is 500');
    const remove = (key: string, reason: string) => goodAnswer({ diff: { add: [], update: [], remove: [{ key, reason, sourceMessageIds: ['m-user'] }] } });
    expect(problemOf(remove('budget', ' '))).toBe('diff.remove.0 gives no reason');
    expect(problemOf(remove('', 'changed'))).toBe('diff.remove.0 has an empty key');
    expect(parse(remove('budget', 'the budget changed')).ok).toBe(true);
  });
});
