import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDiff } from '../../src/core/diff.js';
import { FactIndex, indexingSlices, indexOf, storeOrder, takeIndex } from '../../src/core/fact-index.js';
import { compareText, normalizeText, wordSimilarity } from '../../src/core/text.js';
import type { Fact } from '../../src/core/types.js';

/** matchFact as a scan of every fact: the meaning the index must keep. */
function scanMatch(facts: readonly Fact[], key: string, threshold: number): Fact | undefined {
  const normalized = normalizeText(key);
  if (normalized === '') return undefined;
  const exact = facts.filter((fact) => fact.key === normalized);
  if (exact.length > 0) return [...exact].sort((a, b) => b.updatedTurn - a.updatedTurn || compareText(a.id, b.id))[0];
  let best: Fact | undefined;
  let bestScore = threshold;
  for (const fact of facts) {
    const score = Math.max(wordSimilarity(normalized, fact.key), wordSimilarity(normalized, fact.text));
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = fact;
      bestScore = score;
    }
  }
  return best;
}

const WORDS = ['budget', 'flight', 'hotel', 'the', 'paris', 'march', 'room', 'price', '40', 'team', 'Lead', 'dog'];

function fact(id: string, keyWords: string[], textWords: string[], updatedTurn: number): Fact {
  const key = normalizeText(keyWords.join(' '));
  return {
    id,
    sessionId: 's',
    key,
    text: `${key}: ${textWords.join(' ')}`,
    kind: 'fact',
    pinned: false,
    sourceMessageIds: [],
    createdTurn: 1,
    updatedTurn,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

const phrase = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 });
const change = fc.record({ id: fc.integer({ min: 0, max: 14 }), key: phrase, text: phrase, turn: fc.integer({ min: 1, max: 5 }), remove: fc.boolean() });

describe('FactIndex', () => {
  it('finds what a scan of the facts finds, after any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 40 }), fc.array(phrase, { minLength: 1, maxLength: 6 }), fc.constantFrom(-1, 0, 0.3, 0.5, 0.6, 1), (changes, keys, threshold) => {
        const index = new FactIndex([]);
        const document = new Map<string, Fact>();
        for (const step of changes) {
          const id = `f${String(step.id).padStart(2, '0')}`;
          if (step.remove) {
            index.delete(id);
            document.delete(id);
          } else {
            const next = fact(id, step.key, step.text, step.turn);
            index.set(next);
            document.set(id, next);
          }
        }
        const facts = [...document.values()];
        expect(index.facts()).toEqual(facts);
        // It may not know the facts are in the store's order, but never says so wrongly.
        if (index.inStoreOrder) expect(facts).toEqual([...facts].sort(storeOrder));
        for (const words of keys) {
          const key = words.join(' ');
          expect(index.match(key, threshold)?.id).toBe(scanMatch(facts, key, threshold)?.id);
          const except = facts[0]?.id ?? 'none';
          expect(index.match(key, threshold, except)?.id).toBe(scanMatch(facts.filter((item) => item.id !== except), key, threshold)?.id);
          const text = normalizeText(`${normalizeText(key)}: ${key}`);
          expect(index.withText(text)?.id).toBe(facts.find((item) => normalizeText(item.text) === text)?.id);
        }
      }),
      { seed: 17, numRuns: 400 },
    );
  });

  it('goes with the facts a diff leaves, so the next diff does not index the document again', () => {
    const first = applyDiff({
      sessionId: 's',
      facts: [],
      diff: { add: [{ text: 'budget: $40,000', kind: 'constraint', sourceMessageIds: ['m1'] }], update: [], remove: [] },
      exchange: 'Our budget is $40,000.',
      exchangeMessageIds: ['m1'],
      turn: 1,
      actor: 'local',
      now: '2026-01-01T00:00:00.000Z',
      newId: () => 'a1',
      firstSequence: 1,
    });
    const index = takeIndex(first.facts);
    expect(index.facts()).toEqual(first.facts);
    expect(index.inStoreOrder).toBe(true);
    // Taken away: the list no longer has it, and a fresh one is built for it next time.
    expect(takeIndex(first.facts)).not.toBe(index);
  });

  it('indexes a large document a slice at a time, the index then found with the facts answering as one made in one go', () => {
    // 5,000 facts: three slices of at most 2,000.
    const facts = Array.from({ length: 5000 }, (_, index) => ({
      ...fact(`f${String(index).padStart(4, '0')}`, [WORDS[index % WORDS.length] ?? 'x', WORDS[(index * 7) % WORDS.length] ?? 'y'], [WORDS[(index * 3) % WORDS.length] ?? 'z', String(index)], 1 + (index % 40)),
      kind: index % 9 === 0 ? ('constraint' as const) : ('fact' as const),
    }));
    const slices = indexingSlices(facts);
    let steps = 0;
    while (slices.next().done !== true) steps += 1;
    expect(steps).toBe(3);
    const index = indexOf(facts);
    const whole = new FactIndex(facts);
    expect(index.facts()).toEqual(whole.facts());
    for (const word of WORDS) {
      const key = normalizeText(`${word} march`);
      expect(index.withKey(normalizeText(word))).toEqual(whole.withKey(normalizeText(word)));
      expect(index.match(key, 0.3)).toBe(whole.match(key, 0.3));
    }
    expect(index.recent(['constraint'], 700)).toEqual(whole.recent(['constraint'], 700));
    // Indexed: nothing more to do, and a few facts are indexed when first asked for instead.
    expect([...indexingSlices(facts)]).toHaveLength(0);
    expect([...indexingSlices(facts.slice(0, 100))]).toHaveLength(0);
  });
});
