import { describe, expect, it } from 'vitest';
import { findByRef, messageRefs, parseMessageRef } from '../../src/core/message-ref.js';

describe('message refs', () => {
  const turn = [
    { id: 'q', turn: 12, role: 'user' as const },
    { id: 'call', turn: 12, role: 'assistant' as const },
    { id: 'result', turn: 12, role: 'tool' as const },
    { id: 'answer', turn: 12, role: 'assistant' as const },
  ];

  it('names each message of a turn by its turn and role, counting repeats', () => {
    expect(messageRefs(turn)).toEqual(['12u', '12a', '12t', '12a2']);
  });

  it('finds the message a ref names, and nothing for a ref that names none', () => {
    for (const [index, ref] of messageRefs(turn).entries()) expect(findByRef(turn, parseMessageRef(ref)!)?.id).toBe(turn[index]!.id);
    expect(findByRef(turn, parseMessageRef('12a3')!)).toBeUndefined();
    expect(findByRef(turn, parseMessageRef('13u')!)).toBeUndefined();
  });

  it('reads refs in either case and refuses what is not one', () => {
    expect(parseMessageRef('7A')).toEqual({ turn: 7, role: 'assistant', nth: 1 });
    for (const text of ['0u', 'u12', '12x', '12', '12u0', 'abc-123', '']) expect(parseMessageRef(text), text).toBeNull();
  });
});
