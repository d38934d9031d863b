import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Fact, FactKind } from '../../../src/core/types.js';
import { subjectWords } from '../../../src/managers/local/claim-target.js';
import { BaseLines, BaseLinesCache, KnownLines } from '../../../src/managers/local/known-lines.js';
import type { Known } from '../../../src/managers/local/known-line.js';
import { TurnDocument } from '../../../src/managers/local/claim-document.js';
import { DocumentKeys, leftOutOf } from '../../../src/managers/local/left-out.js';
import { withChanges } from '../../../src/core/fact-index.js';
import { workingFacts, workingSet } from '../../../src/managers/local/working-facts.js';

const KEYS = ['budget', 'kitchen budget', 'deadline', 'venue', 'dev', 'dev cost', 'luna vet', 'flight date'];

function fact(id: string, key: string, turn: number, kind: FactKind = 'fact'): Fact {
  return {
    id,
    sessionId: 's',
    key,
    text: `${key}: value ${id}`,
    kind,
    pinned: false,
    sourceMessageIds: [],
    createdTurn: turn,
    updatedTurn: turn,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: `2026-01-01T00:00:${String(turn % 60).padStart(2, '0')}.000Z`,
  } as Fact;
}

/** The same operations on a plain map, which the lines must match in content and order. */
function reference(facts: readonly Fact[]): Map<string, Known> {
  return new Map(facts.map((item) => [`fact:${item.id}`, { id: `fact:${item.id}`, key: item.key, text: item.text, kind: item.kind, factId: item.id, order: item.updatedTurn, sources: item.sourceMessageIds }]));
}

const operation = fc.oneof(
  fc.record({ op: fc.constant('set' as const), id: fc.constantFrom('fact:f1', 'fact:f2', 'fact:f3', 'line:a', 'line:b', 'line:c'), key: fc.constantFrom(...KEYS) }),
  fc.record({ op: fc.constant('delete' as const), id: fc.constantFrom('fact:f1', 'fact:f2', 'fact:f3', 'line:a', 'line:b') }),
);

describe('the lines a turn works on', () => {
  it('iterate, find by key words and change exactly as a map of them would, whatever the turn does', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 30 }), (operations) => {
        const facts = [fact('f1', 'budget', 1), fact('f2', 'dev cost', 2), fact('f3', 'venue', 3)];
        const lines = new KnownLines(new BaseLines(facts));
        const expected = reference(facts);
        for (const step of operations) {
          if (step.op === 'set') {
            const line: Known = { id: step.id, key: step.key, text: `${step.key}: new`, kind: 'fact', factId: null, order: 99 };
            lines.set(line);
            expected.set(step.id, line);
          } else {
            lines.delete(step.id);
            expected.delete(step.id);
          }
        }
        expect([...lines.values()]).toEqual([...expected.values()]);
        for (const key of KEYS) {
          const words = subjectWords(key);
          const found = [...expected.values()].filter((line) => [...subjectWords(line.key)].some((word) => words.has(word)));
          expect(lines.withWords('subject', words)).toEqual(found);
          expect(lines.hasWord('key', key)).toBe([...expected.values()].some((line) => line.key === key));
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });

  it('a kept base follows the document from turn to turn and is never changed by a turn', () => {
    const cache = new BaseLinesCache();
    const first = [fact('f1', 'budget', 1), fact('f2', 'venue', 2)];
    const base = cache.lookup('s', first);
    const turn = new KnownLines(base);
    turn.delete('fact:f1');
    turn.set({ id: 'line:x', key: 'deadline', text: 'deadline: Friday', kind: 'fact', factId: null, order: 9 });
    expect([...base.lines.keys()]).toEqual(['fact:f1', 'fact:f2']);
    // The next turn: f1 rewritten, f2 gone, f3 new.
    const next = [{ ...fact('f1', 'kitchen budget', 3) }, fact('f3', 'deadline', 3)];
    expect(cache.lookup('s', next)).toBe(base);
    expect([...new KnownLines(base).values()].map((line) => line.key)).toEqual(['kitchen budget', 'deadline']);
    expect(new KnownLines(base).withWords('subject', subjectWords('venue'))).toEqual([]);
    // Facts in another order than the base's, or a new fact before a kept one: the same base, in the new order.
    expect(cache.lookup('s', [...next].reverse())).toBe(base);
    expect([...new KnownLines(base).values()].map((line) => line.key)).toEqual(['deadline', 'kitchen budget']);
    expect(cache.lookup('s', next)).toBe(base);
    const inserted = [fact('f0', 'venue', 4), ...next];
    expect(cache.lookup('s', inserted)).toBe(base);
    expect([...new KnownLines(base).values()].map((line) => line.key)).toEqual(['venue', 'kitchen budget', 'deadline']);
    expect(new KnownLines(base).withWords('subject', subjectWords('venue')).map((line) => line.id)).toEqual(['fact:f0']);
  });

  it('a base brought up to date turn after turn holds what a base built afresh holds, in the same order', () => {
    const change = fc.record({ op: fc.constantFrom('keep', 'rewrite', 'remove', 'add', 'same-copy', 'insert', 'move'), at: fc.nat(), to: fc.nat(), key: fc.constantFrom(...KEYS) });
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 4 }), { maxLength: 12 }), (turns) => {
        const cache = new BaseLinesCache();
        let facts = [fact('f1', 'budget', 1), fact('f2', 'venue', 1)];
        let next = 3;
        cache.lookup('s', facts);
        turns.forEach((changes, turn) => {
          const after = [...facts];
          for (const step of changes) {
            const at = after.length === 0 ? 0 : step.at % after.length;
            const target = after[at];
            if (step.op === 'add' || target === undefined) after.push(fact(`f${next++}`, step.key, turn + 2));
            // (A fact taken into the work again, in its place in the document; facts in another order.)
            else if (step.op === 'insert') after.splice(at, 0, fact(`f${next++}`, step.key, turn + 2));
            else if (step.op === 'move') after.splice(step.to % after.length, 0, ...after.splice(at, 1));
            else if (step.op === 'rewrite') after[at] = { ...fact(target.id, step.key, turn + 2), createdTurn: target.createdTurn };
            else if (step.op === 'remove') after.splice(at, 1);
            // (A copy that says the same: a document read again from the store.)
            else if (step.op === 'same-copy') after[at] = { ...target };
          }
          facts = after;
          const base = cache.lookup('s', facts);
          const fresh = new BaseLines(facts);
          expect([...base.lines.values()]).toEqual([...fresh.lines.values()]);
          // (Positions may keep the gaps of lines gone: only their order counts.)
          const byPosition = (lines: BaseLines): string[] => [...lines.positions].sort((a, b) => a[1] - b[1]).map(([id]) => id);
          expect(byPosition(base)).toEqual(byPosition(fresh));
          expect([...new KnownLines(base).values()]).toEqual([...new KnownLines(fresh).values()]);
          for (const key of KEYS) {
            expect(new KnownLines(base).withWords('subject', subjectWords(key))).toEqual(new KnownLines(fresh).withWords('subject', subjectWords(key)));
            expect(new KnownLines(base).withWords('stem', [key.split(' ')[0] ?? ''], [key])).toEqual(new KnownLines(fresh).withWords('stem', [key.split(' ')[0] ?? ''], [key]));
            expect(base.indexes.key.count(key)).toBe(fresh.indexes.key.count(key));
            expect(base.indexes.subject.count(key.split(' ')[0] ?? '')).toBe(fresh.indexes.subject.count(key.split(' ')[0] ?? ''));
          }
        });
      }),
      { numRuns: 300, seed: 23 },
    );
  });

  it('works on the rules and the most recently established plain facts once there are more than the limit', () => {
    const facts = [fact('old', 'venue', 1), fact('rule', 'nuts', 2, 'exception'), fact('mid', 'budget', 3), fact('new', 'deadline', 4)];
    expect(workingFacts(facts, 4)).toBe(facts);
    expect(workingFacts(facts, 2).map((item) => item.id)).toEqual(['rule', 'mid', 'new']);
  });

  it('still tracks the subjects of the facts left out of the work, so a remark about one is kept', () => {
    const facts = [fact('old', 'venue', 1), fact('mid', 'budget', 3), fact('new', 'deadline', 4)];
    const { working, partial } = workingSet(facts, 2);
    expect(partial).toBe(true);
    const base = new BaseLines(working);
    for (const leftOut of [leftOutOf(facts, working), new DocumentKeys(facts).outside(base)]) {
      const document = new TurnDocument(working, [], leftOut, base);
      expect(document.tracks('venue garden')).toBe(true);
      expect(document.tracks('parking')).toBe(false);
      expect(leftOut.hasKey('venue')).toBe(true);
      expect(leftOut.hasKey('budget')).toBe(false);
    }
  });

  it('knows the left-out facts from kept key counts exactly as from listing them, turn after turn', () => {
    const change = fc.record({ op: fc.constantFrom('rewrite', 'remove', 'add', 'same-copy'), at: fc.nat(), key: fc.constantFrom(...KEYS), turn: fc.integer({ min: 1, max: 9 }) });
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 4 }), { maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (turns, limit) => {
        const cache = new BaseLinesCache();
        let facts = KEYS.slice(0, 5).map((key, index) => fact(`f${index}`, key, index + 1));
        let next = 10;
        for (const changes of turns) {
          const after = [...facts];
          for (const step of changes) {
            const at = after.length === 0 ? 0 : step.at % after.length;
            const target = after[at];
            if (step.op === 'add' || target === undefined) after.push(fact(`f${next++}`, step.key, step.turn));
            else if (step.op === 'rewrite') after[at] = { ...fact(target.id, step.key, step.turn), createdTurn: target.createdTurn };
            else if (step.op === 'remove') after.splice(at, 1);
            else after[at] = { ...target };
          }
          facts = after;
          const { working } = workingSet(facts, limit);
          const kept = cache.documentKeys('s', facts).outside(cache.lookup('s', working));
          const listed = leftOutOf(facts, working);
          for (const key of KEYS) {
            expect(kept.hasKey(key)).toBe(listed.hasKey(key));
            for (const word of subjectWords(key)) expect(kept.hasWord(word)).toBe(listed.hasWord(word));
          }
        }
      }),
      { numRuns: 300, seed: 31 },
    );
  });

  it('keeps exactly the plain facts a sort by the turn and time they were last established would', () => {
    const arbitraryFact = fc.record({ turn: fc.integer({ min: 1, max: 6 }), second: fc.integer({ min: 0, max: 3 }), binding: fc.boolean() });
    fc.assert(
      fc.property(fc.array(arbitraryFact, { maxLength: 40 }), fc.integer({ min: 1, max: 20 }), (drawn, limit) => {
        const facts = drawn.map((item, index) => ({ ...fact(`f${index}`, 'k', item.turn, item.binding ? 'constraint' : 'fact'), updatedAt: `2026-01-01T00:00:0${item.second}.000Z` }));
        const plain = facts.filter((item) => item.kind === 'fact');
        const newest = new Set([...plain].sort((a, b) => b.updatedTurn - a.updatedTurn || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0)).slice(0, limit));
        const expected = plain.length <= limit ? facts : facts.filter((item) => item.kind !== 'fact' || newest.has(item));
        expect(workingFacts(facts, limit)).toEqual(expected);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
  it('keeps the same working facts from the index that goes with the document as from the facts themselves, turn after turn', () => {
    // The reference: a sort of the plain facts by the turn and time they were last established.
    const byRecency = (facts: readonly Fact[], limit: number): readonly Fact[] => {
      const plain = facts.filter((item) => item.kind !== 'constraint' && item.kind !== 'exception');
      if (plain.length <= limit) return facts;
      const newest = new Set([...plain].sort((a, b) => b.updatedTurn - a.updatedTurn || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0)).slice(0, limit));
      return facts.filter((item) => !plain.includes(item) || newest.has(item));
    };
    const change = fc.record({
      op: fc.constantFrom('rewrite', 'remove', 'add', 'older'),
      at: fc.nat(),
      turn: fc.integer({ min: 1, max: 9 }),
      kind: fc.constantFrom<FactKind>('fact', 'fact', 'constraint', 'preference', 'exception'),
      // (Facts of one turn changed at different times: the latest changed take the room at the cut.)
      second: fc.integer({ min: 0, max: 5 }),
    });
    const timed = (item: Fact, second: number): Fact => ({ ...item, updatedAt: `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z` });
    fc.assert(
      fc.property(fc.array(fc.array(change, { maxLength: 5 }), { maxLength: 14 }), fc.integer({ min: 1, max: 5 }), (turns, limit) => {
        let facts: Fact[] = KEYS.slice(0, 4).map((key, index) => fact(`f${index}`, key, index + 1));
        let next = 10;
        for (const changes of turns) {
          const upserts = new Map<string, Fact>();
          const removed: string[] = [];
          for (const step of changes) {
            const target = facts[step.at % Math.max(1, facts.length)];
            if (step.op === 'add' || target === undefined) upserts.set(`f${next}`, timed(fact(`f${next++}`, 'venue', step.turn, step.kind), step.second));
            else if (step.op === 'remove') removed.push(target.id);
            // (An undo gives a fact back an older turn than the one it had.)
            else upserts.set(target.id, timed({ ...fact(target.id, target.key, step.op === 'older' ? 1 : step.turn, step.kind), createdTurn: target.createdTurn }, step.second));
          }
          facts = withChanges(facts, [...upserts.values()], removed.filter((id) => !upserts.has(id)));
          expect(workingFacts(facts, limit)).toEqual(byRecency(facts, limit));
          // (A copy of the list has no index yet: one is made for it, with the same answer.)
          expect(workingFacts([...facts], limit)).toEqual(byRecency(facts, limit));
          expect(workingSet(facts, limit).partial).toBe(byRecency(facts, limit) !== facts);
        }
      }),
      { numRuns: 400, seed: 37 },
    );
  });

  it("makes a large document's base and key counts a slice at a time, holding what a base and counts made in one go hold", () => {
    const facts = Array.from({ length: 4500 }, (_, index) => fact(`f${index}`, `${KEYS[index % KEYS.length] ?? 'k'}${index % 3 === 0 ? '' : ` ${index % 17}`}`, 1 + Math.floor(index / 3), index % 10 === 0 ? 'constraint' : 'fact'));
    const cache = new BaseLinesCache();
    const slices = cache.preparing('s', facts, 1000);
    let steps = 0;
    while (slices.next().done !== true) steps += 1;
    // The document's index (three slices), the base of the working facts (one), the key counts of all (three).
    expect(steps).toBe(7);
    // Kept for the session: nothing more to make.
    expect([...cache.preparing('s', facts, 1000)]).toHaveLength(0);
    const { working, partial } = workingSet(facts, 1000);
    expect(partial).toBe(true);
    const base = cache.lookup('s', working);
    const fresh = new BaseLines(working);
    expect([...base.lines.values()]).toEqual([...fresh.lines.values()]);
    expect([...base.positions]).toEqual([...fresh.positions]);
    const kept = cache.documentKeys('s', facts).outside(base);
    const listed = leftOutOf(facts, working);
    for (const key of [...KEYS, ...KEYS.map((key) => `${key} 5`)]) {
      expect(new KnownLines(base).withWords('subject', subjectWords(key))).toEqual(new KnownLines(fresh).withWords('subject', subjectWords(key)));
      expect(kept.hasKey(key)).toBe(listed.hasKey(key));
      for (const word of subjectWords(key)) expect(kept.hasWord(word)).toBe(listed.hasWord(word));
    }
  });
});
