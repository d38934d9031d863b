import { describe, expect, it } from 'vitest';
import { Assembly } from '../../src/context/assembly.js';
import { factItem } from '../../src/context/fact-lines.js';
import type { Line } from '../../src/context/turn-options.js';
import { factDoubts } from '../../src/core/fact-doubts.js';
import type { FactView } from '../../src/context/fact-view.js';
import { addPinned } from '../../src/context/pinned-source.js';
import { measureSections } from '../../src/context/render.js';
import type { Fact, Session } from '../../src/core/types.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';
import type { Tokenizer } from '../../src/providers/tokenizer/tokenizer.js';

const SESSION: Session = { id: 's', title: 't', instructions: '', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', messageCount: 0, turnCount: 0, tokenCount: 0 };

function pinnedFact(index: number): Fact {
  return {
    id: `p${String(index).padStart(3, '0')}`,
    sessionId: 's',
    key: `rule ${index}`,
    text: `rule ${index}: never book a flight that lands after ${(index % 12) + 1} pm on a Sunday`,
    kind: 'exception',
    pinned: true,
    sourceMessageIds: [`m${index}`],
    createdTurn: index + 1,
    updatedTurn: index + 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A view of pinned facts whose lines are built as a memory builds them; `understate` takes that many tokens off each line's cost. */
function viewOf(facts: readonly Fact[], tokenizer: Tokenizer, understate = 0): FactView {
  const times = new Map(facts.map((fact) => [fact.updatedTurn, '2026-01-02T09:00:00.000Z']));
  const doubts = factDoubts(facts);
  const line = (fact: Fact): Line => {
    const built = factItem(fact, tokenizer, times, doubts);
    return { ...built, cost: built.cost - understate };
  };
  return { facts, listed: [], times, doubts, line, sources: (fact: Fact) => fact.sourceMessageIds, floor: () => 1 } as unknown as FactView;
}

/** The tokenizer, counting the renderings it measures. */
function countingTokenizer(): { tokenizer: Tokenizer; measured: () => number } {
  const inner = createGptTokenizer();
  let measured = 0;
  const tokenizer: Tokenizer = {
    name: inner.name,
    count: (text) => inner.count(text),
    truncate: (text, maxTokens) => inner.truncate(text, maxTokens),
    countMessages: (messages) => {
      measured += 1;
      return inner.countMessages(messages);
    },
  };
  return { tokenizer, measured: () => measured };
}

describe('pinned exceptions', () => {
  const facts = Array.from({ length: 300 }, (_, index) => pinnedFact(index));

  it('measures the rendered section once when every pinned line fits, not once per line', () => {
    const { tokenizer, measured } = countingTokenizer();
    const assembly = new Assembly(100_000, (text) => tokenizer.count(text));
    const warnings: string[] = [];
    addPinned(assembly, { view: viewOf(facts, tokenizer), session: SESSION, tokenizer, warnings });
    const items = assembly.items('pinned');
    expect(items.map((item) => item.text)).toEqual(facts.map((fact) => `- ${fact.text}`));
    expect(assembly.used).toBe(measureSections([{ name: 'pinned', tokens: 0, items }], createGptTokenizer()).tokens);
    expect(warnings).toEqual([]);
    expect(measured()).toBe(1);
  });

  for (const [name, understate] of [
    ['by the lines\' costs', 0],
    ['measuring line by line when the costs do not add up to the rendering', 2],
  ] as const) {
    it(`keeps, under a budget that fits only some, each line that fits with those before it, and warns of the others (${name})`, () => {
      const { tokenizer, measured } = countingTokenizer();
      const budget = 400;
      const assembly = new Assembly(budget, (text) => tokenizer.count(text));
      const warnings: string[] = [];
      addPinned(assembly, { view: viewOf(facts, tokenizer, understate), session: SESSION, tokenizer, warnings });
      const measures = measured();
      const kept = assembly.items('pinned');
      const rendered = measureSections([{ name: 'pinned', tokens: 0, items: kept }], tokenizer).tokens;
      expect(kept.length).toBeGreaterThan(5);
      expect(kept.length).toBeLessThan(facts.length);
      expect(assembly.used).toBe(rendered);
      expect(rendered).toBeLessThanOrEqual(budget);
      // (The lines are alike: those that fit are the first ones, and the next would not have.)
      expect(kept.map((item) => item.text)).toEqual(facts.slice(0, kept.length).map((fact) => `- ${fact.text}`));
      const withNext = viewOf(facts, tokenizer).line(facts[kept.length] as Fact);
      expect(measureSections([{ name: 'pinned', tokens: 0, items: [...kept, withNext] }], tokenizer).tokens).toBeGreaterThan(budget);
      expect(warnings).toHaveLength(facts.length - kept.length);
      expect(assembly.omitted().flatMap((omission) => omission.sourceMessageIds)).toEqual(facts.slice(kept.length).flatMap((fact) => fact.sourceMessageIds));
      // By the costs: the whole section, one line, the lines kept; line by line, only while lines can still fit.
      if (understate === 0) expect(measures).toBe(3);
      else expect(measures).toBeLessThan(kept.length + 10);
    });
  }
});
