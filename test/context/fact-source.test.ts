import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Assembly } from '../../src/context/assembly.js';
import { factLineFloor } from '../../src/context/fact-lines.js';
import { addDeferredFacts, addFacts, MAX_MISSES_IN_A_ROW } from '../../src/context/fact-source.js';
import type { FactView } from '../../src/context/fact-view.js';
import type { Line } from '../../src/context/turn-options.js';
import type { Fact } from '../../src/core/types.js';

const countWords = (text: string): number => text.split(/\s+/u).filter((word) => word !== '').length;

function fact(index: number, words: number): Fact {
  return {
    id: `f${String(index).padStart(3, '0')}`,
    sessionId: 's',
    key: `item ${index}`,
    text: `item ${index}: ${Array.from({ length: words }, () => 'word').join(' ')}`,
    kind: 'fact',
    pinned: false,
    sourceMessageIds: [`m${index}`],
    createdTurn: index,
    updatedTurn: index,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A view whose lines cost their floor plus a fixed extra each, recording which lines were built. */
function viewOf(facts: readonly Fact[], extra: readonly number[]): FactView & { built: Set<string> } {
  const built = new Set<string>();
  return {
    facts,
    times: new Map(),
    doubts: { inside: new Map(), folded: new Set(), supersededBy: new Map() } as unknown as FactView['doubts'],
    listed: facts,
    built,
    terms: () => ({ relevance: () => new Map(facts.filter((_, index) => index % 3 === 0).map((item) => [item.id, 1])) }) as unknown as ReturnType<FactView['terms']>,
    line: (item): Line => {
      built.add(item.id);
      const tokens = factLineFloor(item) + (extra[facts.indexOf(item)] ?? 0);
      return { text: `- ${item.text}`, tokens, cost: tokens, sourceMessageIds: item.sourceMessageIds, kind: 'fact', turn: item.updatedTurn, date: null, tier: null, factKind: item.kind, role: null };
    },
    sources: (item) => item.sourceMessageIds,
    floor: (item) => factLineFloor(item),
  };
}

/** What an assembly chose and left out. */
function outcome(assembly: Assembly): { shown: string[]; omitted: string[] } {
  return {
    shown: (assembly.sections.get('facts') ?? []).flatMap((item) => item.sourceMessageIds),
    omitted: assembly.omitted().flatMap((omission) => omission.sourceMessageIds).sort(),
  };
}

describe('fact lines that cannot fit are not built', () => {
  it('chooses and leaves out exactly what building every line would, and builds none whose floor does not fit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 12 })), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 20, max: 900 }),
        fc.constantFrom('', 'word'),
        (shape, budget, query) => {
          const facts = shape.map(([words], index) => fact(index, words));
          const extra = shape.map(([, more]) => more);
          const run = (floors: boolean): { result: ReturnType<typeof outcome>; built: Set<string> } => {
            const view = viewOf(facts, extra);
            // Without floors, every line is built up front (as before), so nothing is skipped.
            if (!floors) for (const item of facts) view.line(item);
            const assembly = new Assembly(budget, countWords);
            const { deferred } = addFacts(assembly, { query, view, share: 0.4 });
            addDeferredFacts(assembly, view, deferred);
            return { result: outcome(assembly), built: view.built };
          };
          const lazy = run(true);
          expect(lazy.result).toEqual(run(false).result);
          const shown = new Set(lazy.result.shown);
          for (const item of facts) if (!lazy.built.has(item.id)) expect(shown.has(item.sourceMessageIds[0] ?? '')).toBe(false);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it('builds few lines of a long document under a small budget', () => {
    const facts = Array.from({ length: 500 }, (_, index) => fact(index, 20));
    const view = viewOf(facts, facts.map(() => 4));
    const assembly = new Assembly(600, countWords);
    addFacts(assembly, { query: '', view, share: 0.4 });
    expect(view.built.size).toBeLessThan(40);
    expect(outcome(assembly).omitted.length).toBe(500 - outcome(assembly).shown.length);
  });

  it(`stops building after ${MAX_MISSES_IN_A_ROW} lines in a row do not fit, though their floors do; a line that fits before then is taken`, () => {
    // Floors of 4 tokens fit the room, but the lines cost 44: only the cheap ones (no extra) fit.
    const facts = Array.from({ length: 3000 }, (_, index) => fact(index, 1));
    const cheap = new Set([0, MAX_MISSES_IN_A_ROW, 2 * MAX_MISSES_IN_A_ROW + 1, 2 * MAX_MISSES_IN_A_ROW + 2]);
    const extra = facts.map((_, index) => (cheap.has(index) ? 0 : 40));
    const view = viewOf(facts, extra);
    const assembly = new Assembly(60, countWords);
    addFacts(assembly, { query: '', view, share: 1 });
    const { shown, omitted } = outcome(assembly);
    // The first cheap line, then the one after 63 misses; the two after 64 more misses are not built.
    expect(shown).toEqual(['m0', `m${MAX_MISSES_IN_A_ROW}`]);
    expect(view.built.size).toBe(2 * MAX_MISSES_IN_A_ROW + 1);
    expect(omitted.length).toBe(facts.length - shown.length);

    // With a query, the facts that wait for recall's room are tried again once, with the same bound.
    const queried = viewOf(facts, extra);
    const withQuery = new Assembly(60, countWords);
    const { deferred } = addFacts(withQuery, { query: 'word', view: queried, share: 1 });
    addDeferredFacts(withQuery, queried, deferred);
    expect(queried.built.size).toBeLessThanOrEqual(2 * (2 * MAX_MISSES_IN_A_ROW + 2));
    expect(outcome(withQuery).omitted.length).toBe(facts.length - outcome(withQuery).shown.length);
  });

  it('works out the messages of the facts left out only when the omissions are read', () => {
    const facts = Array.from({ length: 300 }, (_, index) => fact(index, 3));
    const view = viewOf(facts, facts.map(() => 0));
    let asked = 0;
    const counted: FactView = { ...view, sources: (item) => ((asked += 1), item.sourceMessageIds) };
    const assembly = new Assembly(40, countWords);
    const { deferred } = addFacts(assembly, { query: 'word', view: counted, share: 0.5 });
    addDeferredFacts(assembly, counted, deferred);
    expect(asked).toBe(0);
    const { shown, omitted } = outcome(assembly);
    expect(asked).toBe(facts.length - shown.length);
    expect(omitted).toEqual(facts.map((item) => item.sourceMessageIds[0] ?? '').filter((id) => !shown.includes(id)).sort());
  });
});
