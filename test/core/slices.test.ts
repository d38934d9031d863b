import { describe, expect, it } from 'vitest';
import { inSlices, stepThrough } from '../../src/core/slices.js';

describe('slices', () => {
  it('calls the work on every item in order, yielding after each slice, and runs with a pause after each', async () => {
    const seen: string[] = [];
    const steps = await stepThrough(
      (function* () {
        yield* inSlices([1, 2, 3, 4, 5], 2, (item) => seen.push(`item ${item}`));
        return 'done';
      })(),
      async () => {
        seen.push('pause');
      },
    );
    expect(steps).toBe('done');
    expect(seen).toEqual(['item 1', 'item 2', 'pause', 'item 3', 'item 4', 'pause', 'item 5', 'pause']);
    expect([...inSlices([], 2, () => undefined)]).toHaveLength(0);
  });
});
