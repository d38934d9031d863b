import { describe, expect, it } from 'vitest';
import { pacedPause } from '../../src/core/event-loop.js';

describe('pacedPause', () => {
  it('lets the event loop turn only once the slice has run its time, then counts the next slice from there', async () => {
    let clock = 0;
    const pause = pacedPause(25, () => clock);
    const turned: number[] = [];
    const pauseAt = async (time: number): Promise<boolean> => {
      clock = time;
      let other = false;
      setImmediate(() => {
        other = true;
        turned.push(time);
      });
      await pause();
      return other;
    };
    // Within the first 25 ms: straight through.
    expect(await pauseAt(10)).toBe(false);
    expect(await pauseAt(24)).toBe(false);
    // Past it: other work runs before the operation goes on.
    expect(await pauseAt(25)).toBe(true);
    // The next slice counts from the turn (25 ms).
    expect(await pauseAt(40)).toBe(false);
    expect(await pauseAt(60)).toBe(true);
    expect(turned).toContain(25);
    expect(turned).toContain(60);
  });
});
