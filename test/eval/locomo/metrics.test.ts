import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../../../src/context/context-package.js';
import {
  aggregate,
  budgetCompliance,
  containableAnswer,
  containsPhrase,
  evidenceRecall,
  itemCredit,
  packageCredit,
  tokenUsage,
  type ItemScore,
} from '../../../src/eval/locomo/metrics.js';

function item(kind: ContextItem['kind'], sourceMessageIds: string[], tier: ContextItem['tier'] = null): ContextItem {
  return { text: 'x', tokens: 1, sourceMessageIds, kind, turn: 1, date: null, tier, factKind: kind === 'fact' ? 'fact' : null, role: null };
}

describe('the credit rule', () => {
  it('credits messages at any tier, turn summaries and single-source facts', () => {
    expect(itemCredit(item('message', ['m1'], 3)).credited).toEqual(['m1']);
    expect(itemCredit(item('message', ['m2'], 1)).credited).toEqual(['m2']);
    expect(itemCredit(item('turn-summary', ['m3', 'm4'])).credited).toEqual(['m3', 'm4']);
    expect(itemCredit(item('artifact', ['m9'])).credited).toEqual(['m9']);
    expect(itemCredit(item('fact', ['m5']))).toEqual({ credited: ['m5'], sessionLevel: [] });
  });

  it('gives multi-source facts no credit but counts them as session level; instructions count for nothing', () => {
    expect(itemCredit(item('fact', ['m6', 'm7']))).toEqual({ credited: [], sessionLevel: ['m6', 'm7'] });
    expect(itemCredit(item('instructions', []))).toEqual({ credited: [], sessionLevel: [] });
  });

  it('unions the credit of a package', () => {
    const credit = packageCredit([
      { items: [item('fact', ['m1']), item('fact', ['m2', 'm3'])] },
      { items: [item('turn-summary', ['m4', 'm5']), item('message', ['m1'], 2)] },
    ]);
    expect([...credit.credited].sort()).toEqual(['m1', 'm4', 'm5']);
    expect([...credit.sessionLevel].sort()).toEqual(['m2', 'm3']);
    // ER of evidence {m1, m2}: only m1 is credited; m2 is reached only at session level.
    expect(evidenceRecall(['m1', 'm2'], credit.credited)).toBe(0.5);
    expect(evidenceRecall(['m1', 'm2'], credit.sessionLevel)).toBe(0.5);
  });
});

describe('evidenceRecall', () => {
  it('is |E ∩ P| / |E| over distinct ids, and null without evidence', () => {
    expect(evidenceRecall(['a', 'b', 'c'], new Set(['a', 'c', 'z']))).toBeCloseTo(2 / 3);
    expect(evidenceRecall(['a', 'a'], new Set(['a']))).toBe(1);
    expect(evidenceRecall([], new Set(['a']))).toBeNull();
  });
});

describe('answer containment', () => {
  it('scores only answers found verbatim (normalised) in the transcript, as whole words', () => {
    const transcript = 'ann: i adopted miso in may 2023. bob: 2000 pots, seriously!';
    const normalized = transcript.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    expect(containableAnswer('Miso', normalized)).toBe('miso');
    expect(containableAnswer('May, 2023!', normalized)).toBe('may 2023');
    expect(containableAnswer('200', normalized)).toBeNull();
    expect(containableAnswer('a cat', normalized)).toBeNull();
    expect(containableAnswer(null, normalized)).toBeNull();
    expect(containsPhrase('bob 2000 pots', '2000')).toBe(true);
    expect(containsPhrase('bob 2000 pots', '200')).toBe(false);
    expect(containsPhrase('bob 2000 pots', '')).toBe(false);
  });
});

describe('aggregate', () => {
  const score = (category: ItemScore['category'], evidenceRecall: number | null, answerContained: boolean | null, system = 'strata'): ItemScore => ({
    system,
    budget: 1000,
    category,
    evidenceRecall,
    sessionLevelRecall: evidenceRecall === null ? null : 0,
    answerContained,
    tokens: 900,
  });

  it('averages ER per category, over 1–4 and over all, leaving out items without evidence', () => {
    const rows = aggregate([
      score(1, 1, true),
      score(1, 0, null),
      score(2, 0.5, false),
      score(4, 1, true),
      score(3, null, true),
      score(5, 0, null),
      score(5, 1, null, 'recency'),
    ]);
    const strata = (category: string) => rows.find((row) => row.system === 'strata' && row.category === category);
    expect(strata('1')).toMatchObject({ n: 2, evidenceRecall: 0.5, answerContainment: 1, answerItems: 1 });
    expect(strata('2')).toMatchObject({ n: 1, evidenceRecall: 0.5, answerContainment: 0 });
    expect(strata('3')).toMatchObject({ n: 0, evidenceRecall: null, answerContainment: 1 });
    expect(strata('4')).toMatchObject({ n: 1, evidenceRecall: 1 });
    expect(strata('5')).toMatchObject({ n: 1, evidenceRecall: 0, answerContainment: null, answerItems: 0 });
    expect(strata('1-4')).toMatchObject({ n: 4, evidenceRecall: (1 + 0 + 0.5 + 1) / 4, answerContainment: 3 / 4 });
    expect(strata('all')).toMatchObject({ n: 5, evidenceRecall: (1 + 0 + 0.5 + 1 + 0) / 5 });
    expect(rows.filter((row) => row.system === 'recency').map((row) => [row.category, row.n])).toEqual([
      ['1', 0], ['2', 0], ['3', 0], ['4', 0], ['5', 1], ['1-4', 0], ['all', 1],
    ]);
  });
});

describe('budgetCompliance', () => {
  it('is the share of packages within budget, with their mean fill', () => {
    expect(budgetCompliance([{ tokens: 900, budget: 1000 }, { tokens: 1001, budget: 1000 }])).toEqual({ compliance: 0.5, meanFill: (0.9 + 1.001) / 2 });
    expect(budgetCompliance([])).toEqual({ compliance: 1, meanFill: 0 });
  });
});

describe('tokenUsage', () => {
  it('keeps the mean, the largest and the mean fill of the packages per system and budget, in first-seen order', () => {
    const packages = [
      { system: 'strata', budget: 1000, tokens: 900 },
      { system: 'recency', budget: 1000, tokens: 1000 },
      { system: 'strata', budget: 1000, tokens: 600 },
      { system: 'strata', budget: 500, tokens: 480 },
      { system: 'recency', budget: 500, tokens: 470 },
      { system: 'recency', budget: 1000, tokens: 990 },
    ];
    expect(tokenUsage(packages)).toEqual([
      { system: 'strata', budget: 1000, packages: 2, mean: 750, max: 900, meanFill: 0.75 },
      { system: 'strata', budget: 500, packages: 1, mean: 480, max: 480, meanFill: 0.96 },
      { system: 'recency', budget: 1000, packages: 2, mean: 995, max: 1000, meanFill: 0.995 },
      { system: 'recency', budget: 500, packages: 1, mean: 470, max: 470, meanFill: 0.94 },
    ]);
    expect(tokenUsage([])).toEqual([]);
  });
});
