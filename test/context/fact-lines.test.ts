import { describe, expect, it } from 'vitest';
import { factItem } from '../../src/context/fact-lines.js';
import { applyDiff, replayFactEvents, type DiffEntry } from '../../src/core/diff.js';
import { factDoubts } from '../../src/core/fact-doubts.js';
import type { Fact } from '../../src/core/types.js';
import { createGptTokenizer } from '../../src/providers/tokenizer/gpt-tokenizer.js';

const tokenizer = createGptTokenizer();
const NO_TIMES = new Map<number, string>();

/** Apply one turn's adds the way the engine does, returning the document after it and the events. */
function turn(facts: readonly Fact[], number: number, add: DiffEntry[], exchange: string, firstSequence: number) {
  let next = 0;
  return applyDiff({
    sessionId: 's1',
    facts,
    diff: { add, update: [], remove: [] },
    exchange,
    exchangeMessageIds: [`m${number}`],
    turn: number,
    actor: 'local',
    now: `2026-03-0${number}T00:00:00.000Z`,
    newId: () => `t${number}-${++next}`,
    firstSequence,
  });
}

describe('facts that may be superseded', () => {
  it('links a new line to the fact it may replace, keeps both, and replays the link', () => {
    const first = turn([], 1, [{ text: 'kickoff: 3 March', kind: 'fact', sourceMessageIds: [] }], 'kickoff 3 March', 1);
    const second = turn(
      first.facts,
      2,
      [
        { text: 'client workshop: now 10 March', kind: 'fact', sourceMessageIds: [], mayReplace: 'kickoff' },
        { text: 'venue: the Leeds office', kind: 'fact', sourceMessageIds: [], mayReplace: 'catering' },
      ],
      'the client workshop is now 10 March at the Leeds office',
      2,
    );
    expect(second.facts.map((fact) => [fact.text, fact.mayReplace])).toEqual([
      ['kickoff: 3 March', undefined],
      ['client workshop: now 10 March', 't1-1'],
      // A key that matches no fact marks nothing.
      ['venue: the Leeds office', undefined],
    ]);
    expect(second.events[0]).toMatchObject({ op: 'add', mayReplace: 't1-1', reason: 'added; it may replace "kickoff" (turn 1), which is kept' });
    expect(replayFactEvents([...first.events, ...second.events])).toEqual(second.facts);
  });

  it('an update may name another fact it may replace; the link replays and goes once the older fact is restated', () => {
    const first = turn(
      [],
      1,
      [
        { text: 'brightwater: my biggest client', kind: 'fact', sourceMessageIds: [] },
        { text: 'flat fee deadline: due 30 January', kind: 'fact', sourceMessageIds: [] },
      ],
      'brightwater my biggest client; flat fee due 30 January',
      1,
    );
    let next = 0;
    const second = applyDiff({
      sessionId: 's1',
      facts: first.facts,
      diff: { add: [], update: [{ key: 'brightwater', text: 'brightwater: due date moved to 23 January', kind: 'fact', sourceMessageIds: [], mayReplace: 'flat fee deadline' }], remove: [] },
      exchange: 'Rachel moved the Brightwater due date to 23 January',
      exchangeMessageIds: ['m2'],
      turn: 2,
      actor: 'local',
      now: '2026-03-02T00:00:00.000Z',
      newId: () => `t2-${++next}`,
      firstSequence: 3,
    });
    const deadline = second.facts.find((fact) => fact.key === 'flat fee deadline') as Fact;
    const client = second.facts.find((fact) => fact.key === 'brightwater') as Fact;
    expect(client.mayReplace).toBe(deadline.id);
    expect(second.events[0]?.reason).toBe('turn 2: "brightwater: due date moved to 23 January"; it may replace "flat fee deadline" (turn 1), which is kept');
    expect(replayFactEvents([...first.events, ...second.events])).toEqual(second.facts);
    expect(factDoubts(second.facts).folded.has(deadline.id)).toBe(true);
    // Said again at a later turn, the older fact holds again.
    const restated = second.facts.map((fact) => (fact.id === deadline.id ? { ...fact, updatedTurn: 3, updatedAt: '2026-03-03T00:00:00.000Z' } : fact));
    expect(factDoubts(restated).folded.size).toBe(0);
  });

  it('folds an unpinned older fact into the newer line, and names the newer line beside a pinned one', () => {
    const first = turn(
      [],
      1,
      [
        { text: 'kickoff: 3 March', kind: 'fact', sourceMessageIds: [] },
        { text: 'payment: never by card', kind: 'exception', sourceMessageIds: [] },
      ],
      'kickoff 3 March; payment never by card',
      1,
    );
    const second = turn(
      first.facts,
      2,
      [
        { text: 'workshop: 10 March', kind: 'fact', sourceMessageIds: [], mayReplace: 'kickoff' },
        { text: 'deposit: by card is fine now', kind: 'fact', sourceMessageIds: [], mayReplace: 'payment' },
      ],
      'workshop 10 March; deposit by card is fine now',
      3,
    );
    const doubts = factDoubts(second.facts);
    const byText = (text: string): Fact => second.facts.find((fact) => fact.text === text) as Fact;
    expect([...doubts.folded]).toEqual([byText('kickoff: 3 March').id]);
    expect(factItem(byText('workshop: 10 March'), tokenizer, NO_TIMES, doubts).text).toBe('- workshop: 10 March [may replace turn 1: "kickoff: 3 March"]');
    expect(factItem(byText('workshop: 10 March'), tokenizer, NO_TIMES, doubts).sourceMessageIds).toEqual(['m2', 'm1']);
    // A pinned exception keeps its own line, and says what may supersede it.
    expect(factItem(byText('payment: never by card'), tokenizer, NO_TIMES, doubts).text).toBe('- payment: never by card [possibly superseded at turn 2: "deposit: by card is fine now"]');
    expect(factItem(byText('deposit: by card is fine now'), tokenizer, NO_TIMES, doubts).text).toBe('- deposit: by card is fine now');
  });

  it('folds a chain, each older line inside the next', () => {
    const first = turn([], 1, [{ text: 'flight: 11 July', kind: 'fact', sourceMessageIds: [] }], 'flight 11 July', 1);
    const second = turn(first.facts, 2, [{ text: 'departure: 18 July', kind: 'fact', sourceMessageIds: [], mayReplace: 'flight' }], 'departure 18 July', 2);
    const third = turn(second.facts, 3, [{ text: 'flying: 25 July', kind: 'fact', sourceMessageIds: [], mayReplace: 'departure' }], 'flying 25 July', 3);
    const doubts = factDoubts(third.facts);
    const newest = third.facts.find((fact) => fact.text === 'flying: 25 July') as Fact;
    expect(factItem(newest, tokenizer, NO_TIMES, doubts).text).toBe('- flying: 25 July [may replace turn 2: "departure: 18 July [may replace turn 1: "flight: 11 July"]"]');
    expect(doubts.folded.size).toBe(2);
  });
});
