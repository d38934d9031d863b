import { describe, expect, it } from 'vitest';

import { isStrataError } from '../../src/core/errors.js';
import { parseIdList, toFact, toSummary, type FactRow } from '../../src/store/rows.js';

const FACT_ROW: FactRow = ['f1', 's1', 'budget', 'budget: $82,000', 'constraint', 1, '["m1","m2"]', 1, 3, '2026-03-01T10:00:00.000Z', '2026-03-02T10:00:00.000Z', null];

/** The row with some of its columns replaced (by index). */
function withColumns(changes: Record<number, unknown>): FactRow {
  return FACT_ROW.map((value, index) => (index in changes ? changes[index] : value)) as FactRow;
}

describe('rows shared by SQL adapters', () => {
  it('map a fact the same whether the database gives 0/1 and JSON text or a boolean and an array', () => {
    const fromText = toFact(FACT_ROW);
    const fromNative = toFact(withColumns({ 5: true, 6: ['m1', 'm2'] }));
    expect(fromNative).toEqual(fromText);
    expect(fromText).toMatchObject({ pinned: true, sourceMessageIds: ['m1', 'm2'], createdTurn: 1, updatedTurn: 3 });
    expect(toFact(withColumns({ 5: false, 11: 'f0' }))).toMatchObject({ pinned: false, mayReplace: 'f0' });
  });

  it('mark a turn answered on stale memory from 1 or true, and from nothing else', () => {
    const row = { session_id: 's1', turn: 2, message_ids: ['m3'], user_summary: 'u', assistant_summary: 'a', depth: 'short' as const, status: 'summarised' as const, window_extension: 0, tokens: 9, created_at: '2026-03-01T10:00:00.000Z' };
    expect(toSummary({ ...row, stale_memory: true }).staleMemory).toBe(true);
    expect(toSummary({ ...row, stale_memory: 1 }).staleMemory).toBe(true);
    expect(toSummary({ ...row, stale_memory: 0 })).not.toHaveProperty('staleMemory');
  });

  it('refuse a list column that is not a list of ids with STORE_FAILURE naming the column', () => {
    for (const stored of ['{"a":1}', '[1,2]', '["m1",', ['m1', 3] as unknown as string[]]) {
      let error: unknown;
      try {
        parseIdList(stored, 'facts.source_message_ids');
      } catch (caught) {
        error = caught;
      }
      expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
      expect((error as Error).message).toContain('facts.source_message_ids');
    }
  });
});
