import { describe, expect, it } from 'vitest';
import type { ContextItem, SectionName } from '../../src/context/context-package.js';
import type { KeyFact, StaleFact } from '../../src/eval/key-fact-conversation.js';
import {
  originalTokenCount,
  partialThreshold,
  scoreFact,
  scoreRetention,
  staleRate,
  tokenReduction,
  weightedScore,
  type ScoredPackage,
} from '../../src/eval/retention.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';

function item(text: string): ContextItem {
  return { text, tokens: 0, sourceMessageIds: [], kind: 'fact', turn: null, date: null, tier: null, factKind: null, role: null };
}

/** A hand-made package: sections of item texts. */
function pkg(sections: Partial<Record<SectionName, string[]>>, tokens = 100, budget = 200): ScoredPackage {
  return {
    budget,
    tokens,
    sections: Object.entries(sections).map(([name, texts]) => ({ name: name as SectionName, tokens: 0, items: (texts ?? []).map(item) })),
  };
}

function fact(id: string, tier: 1 | 2 | 3, mustInclude: string[][]): KeyFact {
  return { id, tier, text: id, mustInclude };
}

const RESIDENCY = fact('data-residency', 1, [['china', 'mainland'], ['data', 'stored', 'storage', 'hosted']]);
const BUDGET = fact('budget', 2, [['45 000', '45k'], ['budget'], ['re:\\b20(25|26)\\b']]);

describe('fact status', () => {
  it('is preserved when one item satisfies every group', () => {
    const result = scoreRetention({ facts: [RESIDENCY], pkg: pkg({ facts: ['- residency: customer data must be stored in China'] }), originalTokens: 1000 });
    expect(result.facts[0]).toMatchObject({ id: 'data-residency', status: 'preserved', score: 1, weight: 3, groups: 2 });
    expect(result.facts[0]?.bestItem).toMatchObject({ section: 'facts', index: 0, groupsSatisfied: 2 });
    expect(result.score).toBe(1);
  });

  it('is partial when one item satisfies at least half of the groups (rounded up)', () => {
    expect(scoreFact(RESIDENCY, [{ section: 'window', index: 0, text: 'We operate in China.' }]).status).toBe('partial');
    // 3 groups: 2 are needed for a partial, 1 is not enough.
    expect(partialThreshold(3)).toBe(2);
    expect(scoreFact(BUDGET, [{ section: 'facts', index: 0, text: 'budget: $45,000' }]).status).toBe('partial');
    expect(scoreFact(BUDGET, [{ section: 'facts', index: 0, text: 'the budget is tight' }]).status).toBe('missing');
    // 1 group: half rounded up is the whole group, so only preserved or missing.
    expect(partialThreshold(1)).toBe(1);
  });

  it('is missing when no item satisfies half of the groups', () => {
    const result = scoreRetention({ facts: [RESIDENCY], pkg: pkg({ window: ['Let us talk about pricing.'] }), originalTokens: 1000 });
    expect(result.facts[0]).toMatchObject({ status: 'missing', score: 0, bestItem: null });
    expect(result.score).toBe(0);
  });

  it('needs ONE item: groups satisfied by two different items only make a partial', () => {
    const split = pkg({ facts: ['- region: mainland China'], window: ['All customer data is hosted by the vendor.'] });
    expect(scoreRetention({ facts: [RESIDENCY], pkg: split, originalTokens: 1000 }).facts[0]?.status).toBe('partial');
    const threeGroups = pkg({ facts: ['budget 45k', 'the 2026 plan'] });
    expect(scoreRetention({ facts: [BUDGET], pkg: threeGroups, originalTokens: 1000 }).facts[0]?.status).toBe('partial');
    const together = pkg({ facts: ['budget 45k', 'the 2026 plan'], history: ['The 2026 budget is 45k.'] });
    expect(scoreRetention({ facts: [BUDGET], pkg: together, originalTokens: 1000 }).facts[0]).toMatchObject({
      status: 'preserved',
      bestItem: { section: 'history', index: 0 },
    });
  });

  it('counts every section, window messages and instructions included', () => {
    for (const section of ['instructions', 'pinned', 'facts', 'window', 'history', 'recalled'] as const) {
      const result = scoreRetention({ facts: [RESIDENCY], pkg: pkg({ [section]: ['x', 'Data stays in mainland China'] }), originalTokens: 10 });
      expect(result.facts[0]?.bestItem).toMatchObject({ section, index: 1 });
      expect(result.facts[0]?.status).toBe('preserved');
    }
  });

  it('matches numbers as whole words: "200" is not found in "2000"', () => {
    const seats = fact('seats', 2, [['200'], ['seats']]);
    expect(scoreFact(seats, [{ section: 'facts', index: 0, text: 'seats: 2000' }]).status).toBe('partial');
    expect(scoreFact(seats, [{ section: 'facts', index: 0, text: 'seats: 200' }]).status).toBe('preserved');
    const budget = fact('budget', 2, [['45 000'], ['budget']]);
    expect(scoreFact(budget, [{ section: 'facts', index: 0, text: 'Budget: $45,000 for the project' }]).status).toBe('preserved');
  });

  it('accepts re: alternatives', () => {
    const node = fact('node-22', 3, [['node 22', 're:node.{0,25}\\b22\\b'], ['may', 'after']]);
    expect(scoreFact(node, [{ section: 'facts', index: 0, text: 'Upgrade Node.js from 18 to 22 in May, after the cutover' }]).status).toBe('preserved');
    expect(scoreFact(node, [{ section: 'facts', index: 0, text: 'Upgrade Node.js from 18 to 220 in May' }]).status).toBe('partial');
  });
});

describe('memory-only score', () => {
  it('leaves the verbatim window out, so a recap in the chat tail earns nothing', () => {
    const recap = pkg({ facts: ['- region: mainland China'], window: ['Recap: all customer data is stored in China.'] });
    const result = scoreRetention({ facts: [RESIDENCY], pkg: recap, originalTokens: 1000 });
    expect(result.score).toBe(1);
    expect(result.memoryOnlyScore).toBe(0.5);
    expect(result.memoryOnlyFacts[0]).toMatchObject({ status: 'partial', bestItem: { section: 'facts' } });
  });

  it('keeps every other section: history and recalled lines are memory', () => {
    for (const section of ['pinned', 'facts', 'history', 'recalled'] as const) {
      const result = scoreRetention({ facts: [RESIDENCY], pkg: pkg({ [section]: ['Data stays in mainland China'] }), originalTokens: 10 });
      expect(result.memoryOnlyScore).toBe(1);
    }
  });
});

describe('stale facts', () => {
  const budget = fact('budget', 2, [['82 000', '82k'], ['budget']]);
  const oldBudget: StaleFact = { id: 'old-budget', supersededBy: 'budget', text: 'Budget $95k', mustInclude: [['95 000', '95k'], ['budget']] };
  const gasLine: StaleFact = { id: 'gas-line', supersededBy: null, text: 'Extend the gas line 18 inches', mustInclude: [['18 inches'], ['gas line']] };

  it('is asserted when a current-state line states the old claim', () => {
    const result = scoreRetention({ facts: [budget], staleFacts: [oldBudget, gasLine], pkg: pkg({ facts: ['- budget: $95,000', '- gas line: extend it 18 inches'] }), originalTokens: 10 });
    expect(result.stale).toEqual([
      { id: 'old-budget', supersededBy: 'budget', text: 'Budget $95k', asserted: true, item: { section: 'facts', index: 0, text: '- budget: $95,000' } },
      { id: 'gas-line', supersededBy: null, text: 'Extend the gas line 18 inches', asserted: true, item: { section: 'facts', index: 1, text: '- gas line: extend it 18 inches' } },
    ]);
    expect(result.staleRate).toBe(1);
  });

  it('is not asserted by a line that also states the current truth ("budget $82k, was $95k")', () => {
    const result = scoreRetention({ facts: [budget], staleFacts: [oldBudget], pkg: pkg({ facts: ['- budget: $82,000 (was $95,000)'] }), originalTokens: 10 });
    expect(result.stale[0]?.asserted).toBe(false);
    expect(result.staleRate).toBe(0);
  });

  it('reads only the pinned exceptions and the facts: the window, history and recall may quote the old claim', () => {
    const quoted = pkg({ window: ['The budget was $95,000 before the cut.'], history: ['budget 95k'], recalled: ['budget: $95k'], pinned: ['never extend the gas line'] });
    const result = scoreRetention({ facts: [budget], staleFacts: [oldBudget, gasLine], pkg: quoted, originalTokens: 10 });
    expect(result.stale.map((entry) => entry.asserted)).toEqual([false, false]);
    const pinned = scoreRetention({ facts: [budget], staleFacts: [gasLine], pkg: pkg({ pinned: ['gas line: extend 18 inches'] }), originalTokens: 10 });
    expect(pinned.stale[0]?.item?.section).toBe('pinned');
  });

  it('needs one item satisfying every group: words spread over two lines assert nothing', () => {
    const result = scoreRetention({ facts: [budget], staleFacts: [oldBudget], pkg: pkg({ facts: ['- budget: $82,000', '- deposit: $95,000'] }), originalTokens: 10 });
    expect(result.stale[0]?.asserted).toBe(false);
    // The stale rate is the share asserted; with no stale facts it is 0.
    expect(staleRate([{ asserted: true }, { asserted: false }, { asserted: false }, { asserted: false }])).toBe(0.25);
    expect(scoreRetention({ facts: [budget], pkg: pkg({}), originalTokens: 10 }).staleRate).toBe(0);
  });
});

describe('weighted score', () => {
  it('weights tier 1 by 3, tier 2 by 2 and tier 3 by 1', () => {
    const facts = [
      fact('hard', 1, [['alpha']]),
      fact('core', 2, [['bravo'], ['charlie']]),
      fact('soft', 3, [['delta']]),
    ];
    // hard preserved (3 × 1), core partial (2 × 0.5), soft missing (1 × 0) → 4 / 6.
    const result = scoreRetention({ facts, pkg: pkg({ facts: ['alpha', 'bravo'] }), originalTokens: 1000 });
    expect(result.facts.map((entry) => [entry.id, entry.status, entry.weight])).toEqual([
      ['hard', 'preserved', 3],
      ['core', 'partial', 2],
      ['soft', 'missing', 1],
    ]);
    expect(result.score).toBeCloseTo(4 / 6, 12);
    // Only a tier-3 fact kept: 1 / 6.
    expect(scoreRetention({ facts, pkg: pkg({ facts: ['delta'] }), originalTokens: 1000 }).score).toBeCloseTo(1 / 6, 12);
    expect(weightedScore([])).toBe(0);
  });
});

describe('token reduction and budget compliance', () => {
  it('are 1 − context / original and context ≤ budget', () => {
    const result = scoreRetention({ facts: [RESIDENCY], pkg: pkg({}, 300, 400), originalTokens: 1200 });
    expect(result).toMatchObject({ contextTokens: 300, originalTokens: 1200, budget: 400, budgetCompliant: true });
    expect(result.tokenReduction).toBeCloseTo(0.75, 12);
    expect(result.fill).toBeCloseTo(0.75, 12);
    expect(scoreRetention({ facts: [RESIDENCY], pkg: pkg({}, 401, 400), originalTokens: 1200 }).budgetCompliant).toBe(false);
    expect(scoreRetention({ facts: [RESIDENCY], pkg: pkg({}, 400, 400), originalTokens: 1200 }).budgetCompliant).toBe(true);
    expect(tokenReduction(150, 100)).toBeCloseTo(-0.5, 12);
    expect(tokenReduction(10, 0)).toBe(0);
  });

  it('counts the original conversation with the tokenizer, chat overhead included', () => {
    const tokenizer = createGptTokenizer({ encoding: 'o200k_base' });
    const messages = [
      { role: 'user' as const, content: 'Budget is $45,000.' },
      { role: 'assistant' as const, content: 'Noted.' },
    ];
    const count = originalTokenCount(tokenizer, messages);
    expect(count).toBe(tokenizer.countMessages(messages));
    expect(count).toBeGreaterThan(tokenizer.count(messages[0]!.content) + tokenizer.count(messages[1]!.content));
  });
});
