import { describe, expect, it } from 'vitest';
import { dayHeadings, dayOf, factMark, turnMark } from '../../src/context/provenance-marks.js';

describe('provenance marks', () => {
  it('marks facts with their turn (and day when no heading gives it), messages with their turn', () => {
    expect(factMark(14, '2026-03-03T09:00:00Z', true)).toBe(' (turn 14, 3 Mar 2026)');
    expect(factMark(14, '2026-03-03T09:00:00Z', false)).toBe(' (turn 14)');
    expect(factMark(14, null, true)).toBe(' (turn 14)');
    expect(turnMark(12)).toBe('[turn 12]');
  });

  it('puts a day heading wherever the day changes, and none for lines of unknown time', () => {
    const march3 = '2026-03-03T09:00:00Z';
    const march5 = '2026-03-05T23:59:00Z';
    expect([...dayHeadings([march3, march3, march5])]).toEqual([
      [0, '### 3 Mar 2026'],
      [2, '### 5 Mar 2026'],
    ]);
    // Undated lines neither start nor end a day's run.
    expect([...dayHeadings([null, march3, null, march3, march5])]).toEqual([
      [1, '### 3 Mar 2026'],
      [4, '### 5 Mar 2026'],
    ]);
    expect([...dayHeadings([null, null])]).toEqual([]);
    // Over fact lines, a level below their kind's heading.
    expect([...dayHeadings([march3, march5], 'facts')]).toEqual([
      [0, '#### 3 Mar 2026'],
      [1, '#### 5 Mar 2026'],
    ]);
  });

  it('reads the UTC day of any ISO time, stored times by their digits', () => {
    expect(dayOf('2026-03-03T09:00:00.000Z')).toBe('3 Mar 2026');
    expect(dayOf('2026-03-03T23:30:00+02:00')).toBe('3 Mar 2026');
    expect(dayOf('2026-03-04T01:30:00+02:00')).toBe('3 Mar 2026');
    expect(dayOf('2026-13-01T00:00:00Z')).toBeNull();
    expect(dayOf('2026-02-31T00:00:00Z')).toBeNull();
    expect(dayOf('2028-02-29T00:00:00Z')).toBe('29 Feb 2028');
    expect(dayOf('not a time')).toBeNull();
    expect(dayOf(null)).toBeNull();
    // Every stored time reads as its Date does.
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    for (let day = 0; day < 800; day += 7) {
      const date = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000 + (day % 24) * 3_600_000);
      expect(dayOf(date.toISOString())).toBe(`${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`);
    }
  });
});
