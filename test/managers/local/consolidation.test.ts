import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fact } from '../../../src/core/types.js';
import { consolidateLocally, LocalConsolidator } from '../../../src/managers/local/local-consolidation.js';
import { createLocalMemoryManager } from '../../../src/managers/local/local-memory-manager.js';
import { testMemory } from '../../support/memory-fixtures.js';

function fact(id: string, text: string, turn: number, pinned = false): Fact {
  return { id, sessionId: 's', key: text.split(':')[0] ?? text, text, kind: pinned ? 'exception' : 'fact', pinned, sourceMessageIds: [`m-${id}`], createdTurn: turn, updatedTurn: turn, createdAt: '', updatedAt: '' };
}

/** Every pair compared, in order: what the consolidation must decide, however it finds the pairs. */
function pairwise(facts: readonly Fact[]): string[] {
  const form = (text: string): { padded: string; words: Set<string> } => {
    const value = text.slice(text.indexOf(':') + 1).toLowerCase().replace(/[^\p{L}\p{N}$]+/gu, ' ').trim();
    return { padded: value === '' ? '' : ` ${value} `, words: new Set(value.split(' ').filter((word) => word !== '' && !['a', 'the', 'is', 'it'].includes(word))) };
  };
  const gone = new Set<string>();
  for (const [index, fact] of facts.entries()) {
    for (const other of facts.slice(index + 1)) {
      if (gone.has(other.id) || gone.has(fact.id)) continue;
      const [stays, leaves] = other.updatedTurn >= fact.updatedTurn && !(other.updatedTurn === fact.updatedTurn && other.text.length <= fact.text.length) ? [other, fact] : [fact, other];
      const a = form(leaves.text);
      const b = form(stays.text);
      if (a.padded === '' || b.padded === '') continue;
      let shared = 0;
      for (const word of a.words) if (b.words.has(word)) shared += 1;
      const near = a.words.size > 0 && b.words.size > 0 && (2 * shared) / (a.words.size + b.words.size) >= 0.8;
      if (b.padded.includes(a.padded) || near) gone.add(leaves.id);
    }
  }
  return [...gone];
}

describe('local consolidation', () => {
  it('merges exactly the pairs that comparing every line with every later line would, though it compares only lines sharing a word', () => {
    const word = fc.constantFrom('budget', 'venue', 'is', 'it', 'the', 'a', '$900', 'month', 'hall', 'friday', 'room', 'deposit', 'paid', 'june', 'guests', '40', 'booked', 'kitchen');
    const line = fc.record({ words: fc.array(word, { maxLength: 9 }), turn: fc.integer({ min: 1, max: 4 }) });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), (drawn) => {
        const facts = drawn.map((item, index) => fact(`f${String(index).padStart(2, '0')}`, `k${index}: ${item.words.join(' ')}`, item.turn));
        const ordered = [...facts].sort((a, b) => a.createdTurn - b.createdTurn || (a.id < b.id ? -1 : 1));
        const result = consolidateLocally({ facts, turn: 5 });
        if (result.outcome !== 'accepted') throw new Error('consolidation failed');
        expect(result.changes.map((change) => change.factId).sort()).toEqual(pairwise(ordered).sort());
      }),
      { numRuns: 600, seed: 11 },
    );
  });

  it('merges what a fresh comparison of every pair would, when it compares only the lines added or changed since its last consolidation', () => {
    const word = fc.constantFrom('budget', 'venue', 'is', 'the', '$900', 'hall', 'friday', 'deposit', 'paid', 'june', 'guests', '40', 'booked');
    const line = fc.record({ words: fc.array(word, { maxLength: 6 }), turn: fc.integer({ min: 1, max: 4 }), pinned: fc.boolean() });
    // (Documents of up to 24 lines with a few changes: mostly compared through the changed lines alone.)
    // What changes between two consolidations: lines added, a line's text or turn changed, a line gone.
    const change = fc.record({ at: fc.nat(), kind: fc.constantFrom('add', 'text', 'turn', 'remove'), line });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 24 }), fc.array(change, { maxLength: 5 }), (drawn, changes) => {
        const consolidator = new LocalConsolidator();
        let facts = drawn.map((item, index) => fact(`f${String(index).padStart(2, '0')}`, `k${index}: ${item.words.join(' ')}`, item.turn, item.pinned));
        const first = consolidator.consolidate({ facts, turn: 5 });
        if (first.outcome !== 'accepted') throw new Error('consolidation failed');
        const left = new Set(first.changes.map((item) => item.factId));
        facts = facts.filter((item) => !left.has(item.id));
        changes.forEach((next, step) => {
          const target = facts[next.at % Math.max(1, facts.length)];
          const text = `n${step}: ${next.line.words.join(' ')}`;
          if (next.kind === 'add' || target === undefined) facts.push(fact(`g${step}`, text, next.line.turn + 4, next.line.pinned));
          else if (next.kind === 'remove') facts = facts.filter((item) => item !== target);
          else facts = facts.map((item) => (item !== target ? item : next.kind === 'text' ? { ...item, text } : { ...item, updatedTurn: item.updatedTurn + 3 }));
        });
        expect(consolidator.consolidate({ facts, turn: 9 })).toEqual(consolidateLocally({ facts, turn: 9 }));
      }),
      { numRuns: 1500, seed: 5 },
    );
  });

  it('compares a line again when it is established anew: the newer line stays, so the pair may now merge', () => {
    const consolidator = new LocalConsolidator();
    const others = Array.from({ length: 12 }, (_, index) => fact(`o${index}`, `other ${index}: line number ${index} about thing${index}`, 1));
    const full = fact('t', 'venue: Hartwell Barn booked for June, deposit paid', 1);
    const short = fact('x', 'barn: Hartwell Barn', 2);
    // The shorter line is newer and does not hold the longer one whole: both stay.
    expect(consolidator.consolidate({ facts: [full, short, ...others], turn: 3 })).toEqual({ outcome: 'accepted', changes: [] });
    // The longer line said again at turn 6 is the newer: it holds the shorter one whole, which leaves.
    const again = { ...full, updatedTurn: 6 };
    const result = consolidator.consolidate({ facts: [again, short, ...others], turn: 6 });
    if (result.outcome !== 'accepted') throw new Error('consolidation failed');
    expect(result.changes.map((change) => change.factId)).toEqual(['x']);
  });

  it('finds a new line that shares four of five words with an older one, though neither holds the other', () => {
    const consolidator = new LocalConsolidator();
    const others = Array.from({ length: 8 }, (_, index) => fact(`o${index}`, `other ${index}: line number ${index} about thing${index}`, 1));
    const older = fact('old', 'plan: booked guests venue hall friday', 1);
    expect(consolidator.consolidate({ facts: [older, ...others], turn: 2 })).toEqual({ outcome: 'accepted', changes: [] });
    const result = consolidator.consolidate({ facts: [older, ...others, fact('new', 'plan again: deposit guests venue hall friday', 3)], turn: 3 });
    if (result.outcome !== 'accepted') throw new Error('consolidation failed');
    expect(result.changes.map((change) => change.factId)).toEqual(['old']);
  });

  it('keeps a fact said twice once: the newer line stays, the older leaves with the line that says it', () => {
    const result = consolidateLocally({
      facts: [fact('a', 'budget: $900 a month', 1), fact('b', 'hosting budget: $900 a month all-in', 5), fact('c', 'region: eu-central-1', 3)],
      turn: 15,
    });
    expect(result).toEqual({
      outcome: 'accepted',
      changes: [
        {
          op: 'consolidate',
          factId: 'a',
          key: 'budget',
          kind: 'fact',
          oldText: 'budget: $900 a month',
          newText: null,
          reason: 'said again as "hosting budget: $900 a month all-in" (turn 5)',
          sourceMessageIds: ['m-a'],
        },
      ],
    });
  });

  it('never drops a pinned exception, and keeps two different lines that share a few words', () => {
    const result = consolidateLocally({
      facts: [
        fact('rule', 'deploy: never deploy on Fridays', 2, true),
        fact('again', 'fridays: never deploy on Fridays', 7),
        fact('other', 'rule twin: never deploy on Fridays', 9, true),
        fact('close', 'cutover: Saturday April 12 at 06:00', 4),
        fact('far', 'freeze: Norvik quarter-end freeze until April 5', 6),
      ],
      turn: 15,
    });
    if (result.outcome !== 'accepted') throw new Error('expected an accepted consolidation');
    expect(result.changes.map((change) => change.factId)).toEqual(['again']);
  });

  it('runs every consolidateEveryTurns turns in a session, as consolidate events by the local manager', async () => {
    const fixture = testMemory({ consolidateEveryTurns: 3 });
    try {
      const session = await fixture.memory.sessions.create({ title: 'Hosting' });
      // Two keys for one thing: the second line says all the first says.
      await session.record({ user: 'Our database is PostgreSQL 16 on RDS, Multi-AZ.', assistant: 'Noted.' });
      await session.record({ user: 'The storage choice: PostgreSQL 16 on RDS, Multi-AZ.', assistant: 'Noted again.' });
      expect((await session.facts()).filter((item) => item.text.includes('PostgreSQL 16'))).toHaveLength(2);
      const third = await session.record({ user: 'Thanks, that is all for today.', assistant: 'Bye!' });
      const consolidated = third.factEvents.filter((event) => event.op === 'consolidate');
      expect(consolidated.map((event) => [event.actor, event.oldText, event.newText, event.turn])).toEqual([['local', 'database: PostgreSQL 16 on RDS, Multi-AZ', null, 3]]);
      expect(consolidated[0]?.reason).toBe('said again as "storage choice: PostgreSQL 16 on RDS, Multi-AZ" (turn 2)');
      expect((await session.facts()).map((item) => item.text)).toEqual(['storage choice: PostgreSQL 16 on RDS, Multi-AZ']);
    } finally {
      await fixture.cleanup();
    }
  });

  it('lets the event loop turn while it compares a large document, and merges what one uninterrupted pass would', async () => {
    // 1,500 lines of eight words drawn from thirty: every line shares words with hundreds of others, so
    // finding the pairs to compare is long work, and a few lines repeat others.
    const vocabulary = Array.from({ length: 30 }, (_, index) => `word${index}`);
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 30;
    const lines = Array.from({ length: 1500 }, (_, index) => fact(`f${index}`, `k${index}: ${Array.from({ length: 8 }, () => vocabulary[next()]).join(' ')}`, 1 + (index % 7)));
    const expected = consolidateLocally({ facts: lines, turn: 15 });
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const result = await createLocalMemoryManager({ sliceMs: 0 }).consolidate?.({ facts: lines, turn: 15 });
    expect(turned).toBe(true);
    expect(result).toEqual(expected);
    expect(expected.outcome === 'accepted' && expected.changes.length).toBeGreaterThan(0);
  });
});
