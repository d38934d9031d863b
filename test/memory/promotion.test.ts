/**
 * Promotion through the public API: standing facts recorded in one session become the tenant's long-term
 * memories, a change stated in another session is the memory's next version, a one-off stays in its
 * session, and `promote: false` leaves long-term memory alone.
 */
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/memory/create-memory.js';
import type { Memory } from '../../src/memory/memory-api.js';

async function twoSessions(memory: Memory): Promise<{ first: string; second: string }> {
  const first = await memory.sessions.create({ title: 'Proofs' });
  await first.record({ user: 'My rate is €65 an hour. Never schedule anything on a Saturday, ever.', assistant: 'Noted.' });
  await first.record({ user: 'Also, I prefer short paragraphs to bullet points.', assistant: 'Got it.' });
  await first.record({ user: 'Today I need an email to Margit about the proofs.', assistant: 'Sure.' });
  const second = await memory.sessions.create({ title: 'New client' });
  await second.record({ user: "Quick update: my rate changes, I'm charging €75 an hour now, not €65.", assistant: 'Noted: €75.' });
  return { first: first.id, second: second.id };
}

describe('promotion of session facts to long-term memory', () => {
  it('remembers standing facts across sessions, a change in another session as the next version with where it came from', async () => {
    const memory = createMemory({ path: ':memory:', env: {}, durability: 'normal' });
    try {
      const { first, second } = await twoSessions(memory);
      const memories = await memory.memories.list();
      expect(memories.map((held) => held.value).sort()).toEqual([
        "rate: I'm charging €75 an hour now",
        'schedule: Never schedule anything on a Saturday, ever',
        'short paragraphs: prefer short paragraphs to bullet points',
      ]);
      const rate = memories.find((held) => held.subject === 'rate');
      expect(rate?.sources.map((source) => source.sessionId)).toEqual([first, second]);
      const versions = await memory.memories.history(rate!.key);
      expect(versions.map((version) => [version.value, version.by])).toEqual([
        ['rate: €65 an hour', 'system'],
        ["rate: I'm charging €75 an hour now", 'system'],
      ]);
      expect(versions[0]?.reason).toBe(`promoted from session ${first}, turn 1: a fact about the user`);
      expect(versions[1]?.reason).toBe(`restated in session ${second}, turn 1`);
      expect(await memory.memories.tagsOf(rate!.key)).toEqual(['profile']);
      expect(await memory.memories.tags()).toEqual([
        { tag: 'preferences', memories: 1 },
        { tag: 'profile', memories: 1 },
        { tag: 'rules', memories: 1 },
      ]);
      // The one-off errand stays a fact of its session.
      expect((await (await memory.sessions.open(first)).facts()).some((fact) => fact.text.includes('email to Margit'))).toBe(true);
      // Undo goes back to the first session's rate.
      expect((await memory.memories.undo(rate!.key)).value).toBe('rate: €65 an hour');
    } finally {
      await memory.close();
    }
  });

  it('keeps what two conversations say under one key apart, linked, unless the later says it changes the earlier', async () => {
    const memory = createMemory({ path: ':memory:', env: {}, durability: 'normal' });
    try {
      const first = await memory.sessions.create({ title: 'Running' });
      await first.record({ user: 'Never schedule anything on a Saturday, ever.', assistant: 'Noted.' });
      const second = await memory.sessions.create({ title: 'Invoices' });
      await second.record({ user: 'Never send invoices on a Saturday.', assistant: 'Noted.' });
      const values = (await memory.memories.list()).map((held) => held.value.replace(/^[^:]*: /u, '')).sort();
      expect(values).toEqual(['Never schedule anything on a Saturday, ever', 'Never send invoices on a Saturday']);
      // One key, two goals in two conversations: two memories, linked.
      await first.record({ user: 'My goal is to run a marathon one day.', assistant: 'Great goal.' });
      await second.record({ user: 'My goal is to learn Spanish one day.', assistant: 'Nice.' });
      const goals = (await memory.memories.list({ tags: ['goals'] })).sort((left, right) => left.key.localeCompare(right.key));
      expect(goals.map((held) => [held.subject, held.value])).toEqual([
        ['goal', 'goal: to run a marathon one day'],
        ['goal-2', 'goal: to learn Spanish one day'],
      ]);
      expect((await memory.memories.edges(goals[1]!.key)).map((edge) => [edge.fromId, edge.toId, edge.type])).toEqual([[goals[1]!.id, goals[0]!.id, 'relates-to']]);
    } finally {
      await memory.close();
    }
  });

  it('leaves long-term memory alone with promote: false, or STRATA_PROMOTE=false', async () => {
    for (const options of [{ promote: false }, { env: { STRATA_PROMOTE: 'false' } }]) {
      const memory = createMemory({ path: ':memory:', env: {}, durability: 'normal', ...options });
      try {
        await twoSessions(memory);
        expect(await memory.memories.list()).toEqual([]);
      } finally {
        await memory.close();
      }
    }
  });
});
