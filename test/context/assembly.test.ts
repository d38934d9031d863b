import { describe, expect, it } from 'vitest';

import { Assembly } from '../../src/context/assembly.js';
import type { ContextItem } from '../../src/context/context-package.js';

const countWords = (text: string): number => text.split(/\s+/u).filter((word) => word !== '').length;

function line(text: string): ContextItem {
  return { text, tokens: countWords(text), sourceMessageIds: ['m1'], kind: 'message', turn: 1, date: null, tier: 1, factKind: null, role: null };
}

describe('the assembly: the one budget that decides what fits', () => {
  it('held room counts against the budget until it is given back, once', () => {
    const assembly = new Assembly(100, countWords);
    const release = assembly.reserve(30);
    expect(assembly.remaining()).toBe(70);
    expect(assembly.fits(71)).toBe(false);
    release();
    release();
    expect(assembly.remaining()).toBe(100);
  });

  it('a form change is taken only when the budget allows it; a cheaper form gives room back', () => {
    const assembly = new Assembly(200, countWords);
    expect(assembly.tryAdd('recalled', [line('one two three')], 40)).toBe(true);
    const spent = assembly.used;
    expect(spent).toBeGreaterThanOrEqual(40);
    expect(assembly.resize(200 - spent + 1)).toBe(false);
    expect(assembly.used).toBe(spent);
    expect(assembly.resize(-5)).toBe(true);
    expect(assembly.used).toBe(spent - 5);
    expect(assembly.resize(200 - assembly.used)).toBe(true);
    expect(assembly.remaining()).toBe(0);
  });

  it('refuses what does not fit, and reports what was left out grouped by reason', () => {
    const assembly = new Assembly(20, countWords);
    expect(assembly.tryAdd('history', [line('a b c')], 25)).toBe(false);
    assembly.omit(['m1'], 'budget: raw window turn did not fit');
    assembly.omit(['m2', 'm1'], 'budget: raw window turn did not fit');
    assembly.omitTurns({ from: 1, to: 3 }, 6, 'budget: turns 1–3 did not fit');
    expect(assembly.items('history')).toEqual([]);
    expect(assembly.omitted()).toEqual([
      { sourceMessageIds: ['m1', 'm2'], turns: null, messageCount: 2, reason: 'budget: raw window turn did not fit' },
      { sourceMessageIds: [], turns: { from: 1, to: 3 }, messageCount: 6, reason: 'budget: turns 1–3 did not fit' },
    ]);
  });
});
