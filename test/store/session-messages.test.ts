import { describe, expect, it } from 'vitest';
import { SessionMessages } from '../../src/store/sqlite/session-messages.js';

function session(seqs: number[]): SessionMessages {
  const messages = new SessionMessages();
  seqs.forEach((seq, index) => messages.append({ seq, id: `m${index}`, turn: Math.floor(index / 2) + 1, position: index }));
  return messages;
}

describe('SessionMessages', () => {
  it('finds a message by its search-index rowid, and says when the rowid is another session’s', () => {
    // Rowids rise with the position but skip the rows of other sessions.
    const messages = session([3, 4, 9, 10, 27, 28, 30]);
    expect([3, 4, 9, 10, 27, 28, 30].map((seq) => messages.indexOfSeq(seq))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([1, 5, 11, 29, 31].map((seq) => messages.indexOfSeq(seq))).toEqual([-1, -1, -1, -1, -1]);
    expect(messages.ids[messages.indexOfSeq(27)]).toBe('m4');
    expect(messages.turns[messages.indexOfSeq(27)]).toBe(3);
    expect(messages.lastPosition).toBe(6);
  });

  it('still finds every message when rowids stop rising with the position (a database rewritten elsewhere)', () => {
    const messages = session([10, 11, 5, 12, 2]);
    expect([10, 11, 5, 12, 2].map((seq) => messages.indexOfSeq(seq))).toEqual([0, 1, 2, 3, 4]);
    expect([1, 3, 13].map((seq) => messages.indexOfSeq(seq))).toEqual([-1, -1, -1]);
    messages.append({ seq: 40, id: 'm5', turn: 3, position: 5 });
    expect(messages.indexOfSeq(40)).toBe(5);
  });

  it('is empty for a session without messages', () => {
    const messages = new SessionMessages();
    expect(messages.indexOfSeq(1)).toBe(-1);
    expect(messages.lastPosition).toBe(-1);
  });
});
