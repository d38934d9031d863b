import { describe, expect, it } from 'vitest';
import { planImport } from '../../src/memory/session-import.js';
import { mostTurns } from '../../src/memory/import-size.js';

const plan = (value: unknown): number => {
  const planned = planImport(value, { now: '2025-01-01T00:00:00.000Z', maxBytes: 10_000, source: 'test' });
  return planned.kind === 'messages' ? planned.turns.length : 0;
};

describe('mostTurns', () => {
  it('is never fewer than the turns the import is planned as', () => {
    const conversations: unknown[] = [
      [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }],
      [{ role: 'assistant', content: 'a' }, { role: 'user', content: 'b' }, { role: 'assistant', content: 'c' }],
      { messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }, { role: 'system', content: 'c' }, { role: 'assistant', content: 'd' }] },
      [{ role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }],
    ];
    for (const conversation of conversations) expect(mostTurns(conversation)).toBeGreaterThanOrEqual(plan(conversation));
  });

  it('is 0 for a Strata export and for anything that is not a list of messages', () => {
    expect(mostTurns({ format: 'strata-session', messages: [{ role: 'user', content: 'a' }] })).toBe(0);
    expect(mostTurns({ messages: 'none' })).toBe(0);
    expect(mostTurns([])).toBe(0);
    expect(mostTurns(null)).toBe(0);
    expect(mostTurns('text')).toBe(0);
  });
});
