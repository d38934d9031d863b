import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../support/memory-fixtures.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('why a fact changed', () => {
  it('gives every update and removal the turn and the words that changed it', async () => {
    const fixture = testMemory();
    cleanup = fixture.cleanup;
    const session = await fixture.memory.sessions.create({ title: 'Offsite' });
    await session.record({ user: 'The offsite budget is $95,000 for the whole team.', assistant: 'Noted: $95,000.' });
    await session.record({ user: 'We are booking the Lakeview lodge for the offsite dinner.', assistant: 'Lakeview it is.' });
    const cut = await session.record({ user: 'Bad news: the budget got cut to $82,000 this morning.', assistant: 'Understood, $82,000 now.' });
    const dropped = await session.record({ user: 'And the Lakeview dinner is off, they double-booked us.', assistant: 'Noted, no Lakeview dinner.' });

    const update = cut.factEvents.find((event) => event.op === 'update');
    expect(update?.oldText).toContain('$95,000');
    expect(update?.newText).toContain('$82,000');
    expect(update?.reason).toBe('turn 3: "Bad news: the budget got cut to $82,000 this morning."');
    const removal = dropped.factEvents.find((event) => event.op === 'remove');
    expect(removal?.oldText).toContain('Lakeview');
    expect(removal?.reason).toBe('turn 4: "And the Lakeview dinner is off, they double-booked us."');
    // The events say the same when read back later.
    const stored = await session.factEvents();
    expect(stored.filter((event) => event.op === 'update' || event.op === 'remove').every((event) => /^turn \d+: "/u.test(event.reason))).toBe(true);
  });
});
