import { describe, expect, it } from 'vitest';
import { Assembly } from '../../src/context/assembly.js';
import type { ContextItem } from '../../src/context/context-package.js';
import { finish } from '../../src/context/package-finish.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import { toolUseTokens } from '../../src/providers/tokenizer/tokenizer.js';

const tokenizer = createGptTokenizer();

function windowItem(id: string, role: ContextItem['role'], text: string, extra: Partial<ContextItem> = {}): ContextItem {
  const tokens = tokenizer.count(text) + toolUseTokens(extra, (part) => tokenizer.count(part));
  return { text, tokens, sourceMessageIds: [id], kind: 'message', turn: 1, date: null, tier: 3, factKind: null, role, ...extra };
}

describe('finishing a package', () => {
  it('trims a tool call from the window only with its results, so no half of a pair reaches the model', () => {
    const calls = [
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Lisbon"}' },
      { id: 'call_b', name: 'find_hotel', arguments: '{"city":"Lisbon","max_euros":120}' },
    ];
    const items = [
      windowItem('m1', 'user', 'What is the weather in Lisbon, and is there a hotel under 120 euros?'),
      windowItem('m2', 'assistant', '', { toolCalls: calls }),
      windowItem('m3', 'tool', '{"celsius":21,"sky":"clear"}', { toolCallId: 'call_a' }),
      windowItem('m4', 'tool', '{"hotel":"Casa Azul","euros":95}', { toolCallId: 'call_b' }),
      windowItem('m5', 'assistant', 'Clear and 21 degrees; Casa Azul has a room for 95 euros.'),
    ];
    const full = tokenizer.countMessages(items.map((item) => ({ role: item.role ?? 'user', content: item.text, ...(item.toolCalls ? { toolCalls: item.toolCalls } : {}), ...(item.toolCallId ? { toolCallId: item.toolCallId } : {}) })));
    // The estimates said everything fits; the exact count is a few tokens over, after the question went too.
    const userTokens = tokenizer.countMessages([{ role: 'user', content: items[0]!.text }]) - 3;
    const budget = full - userTokens - 2;
    const assembly = new Assembly(budget, (text) => tokenizer.count(text));
    expect(assembly.tryAdd('window', items, 5)).toBe(true);
    const pkg = finish(assembly, budget, tokenizer, []);
    expect(pkg.tokens).toBeLessThanOrEqual(budget);
    expect(pkg.render()).toEqual([{ role: 'assistant', content: 'Clear and 21 degrees; Casa Azul has a room for 95 euros.' }]);
    expect(pkg.omitted.flatMap((omission) => omission.sourceMessageIds).sort()).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('takes only the results right after a call, even when a later turn reuses its call id', () => {
    const call = [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Delhi"}' }];
    const turn = (number: number, prefix: string): ContextItem[] =>
      [
        windowItem(`${prefix}1`, 'user', `Weather in Delhi on day ${number}?`),
        windowItem(`${prefix}2`, 'assistant', '', { toolCalls: call }),
        windowItem(`${prefix}3`, 'tool', `{"celsius":${30 + number}}`, { toolCallId: 'call_1' }),
        windowItem(`${prefix}4`, 'assistant', `It will be ${30 + number} degrees.`),
      ].map((item) => ({ ...item, turn: number }));
    const items = [...turn(1, 'a'), ...turn(2, 'b')];
    const full = tokenizer.countMessages(items.map((item) => ({ role: item.role ?? 'user', content: item.text, ...(item.toolCalls ? { toolCalls: item.toolCalls } : {}), ...(item.toolCallId ? { toolCallId: item.toolCallId } : {}) })));
    // Over by about the first turn's question and call.
    const budget = full - items[0]!.tokens - items[1]!.tokens - 8;
    const assembly = new Assembly(budget, (text) => tokenizer.count(text));
    expect(assembly.tryAdd('window', items, 5)).toBe(true);
    const rendered = finish(assembly, budget, tokenizer, []).render();
    const second = rendered.findIndex((message) => message.content === 'Weather in Delhi on day 2?');
    expect(second).toBeGreaterThanOrEqual(0);
    expect(rendered.slice(second)).toEqual([
      { role: 'user', content: 'Weather in Delhi on day 2?' },
      { role: 'assistant', content: '', toolCalls: call },
      { role: 'tool', content: '{"celsius":32}', toolCallId: 'call_1' },
      { role: 'assistant', content: 'It will be 32 degrees.' },
    ]);
    expect(rendered.filter((message) => message.role === 'tool')).toHaveLength(rendered.filter((message) => message.toolCalls !== undefined).length);
  });
});
