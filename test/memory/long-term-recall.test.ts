/**
 * Recall from long-term memory through `memory.memories.recall`: words, tags the query names, edges,
 * temporal filters and the value as it stood, each memory with its reason; "nothing relevant"; and what
 * is returned is marked as accessed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { createMemory } from '../../src/memory/create-memory.js';
import type { Memory } from '../../src/memory/memory-api.js';

/** A clock that moves one minute a call, from 2026-03-01. */
function minuteClock(): () => Date {
  let minutes = 0;
  return () => new Date(Date.UTC(2026, 2, 1) + (minutes += 1) * 60_000);
}

describe('recall from long-term memory', () => {
  let memory: Memory;
  beforeEach(() => {
    memory = createMemory({ path: ':memory:', env: {}, durability: 'normal', clock: minuteClock() });
  });
  afterEach(async () => {
    await memory.close();
  });

  it('finds memories by their words and by the tags the query names, best first, each with a reason', async () => {
    await memory.memories.add({ value: 'Never schedule anything on a Saturday: family day.', tags: ['rules'] });
    await memory.memories.add({ value: 'Use American spelling in every draft.', tags: ['preferences/writing'] });
    await memory.memories.add({ value: "Mom's birthday is May 4.", name: 'mom-birthday', tags: ['family/birthdays'] });
    await memory.memories.add({ value: 'Allergic to tree nuts.', tags: ['health'] });

    const saturday = await memory.memories.recall({ query: 'Can we schedule the call for Saturday?' });
    expect(saturday.nothingRelevant).toBe(false);
    expect(saturday.memories[0]?.memory.value).toBe('Never schedule anything on a Saturday: family day.');
    expect(saturday.memories[0]?.reason).toBe('shares "schedule", "saturday" with the query');
    expect(saturday.memories.map((found) => found.memory.value)).not.toContain('Allergic to tree nuts.');

    const birthdays = await memory.memories.recall({ query: 'which family birthdays are coming up?' });
    // The birthday by its tag first (two of the three words, with its tags'); the family-day rule shares one, a lesser match.
    expect(birthdays.memories.map((found) => [found.memory.name, found.path, found.score])).toEqual([
      ['mom-birthday', 'tag', 2 / 3],
      [null, 'words', 1 / 3],
    ]);
    const writing = await memory.memories.recall({ query: 'any writing rules for me?' });
    expect(writing.memories.map((found) => found.reason)).toContain('tagged preferences/writing, which the query names');
  });

  it('says when nothing is relevant, and marks only what it returns as accessed', async () => {
    const nuts = await memory.memories.add({ value: 'Allergic to tree nuts.' });
    const answer = await memory.memories.recall({ query: 'What is the weather in Lisbon tomorrow?' });
    expect(answer).toEqual({ memories: [], nothingRelevant: true });
    expect((await memory.memories.get(nuts.key)).accessedAt).toBeNull();
    const found = await memory.memories.recall({ query: 'any nuts in this recipe?' });
    expect(found.memories.map((entry) => entry.memory.key)).toEqual([nuts.key]);
    expect((await memory.memories.get(nuts.key)).accessedAt).not.toBeNull();
  });

  it('follows edges from what it found, within the depth and edge types asked for', async () => {
    const move = await memory.memories.add({ value: 'Moved to Lisbon in November.' });
    const timezone = await memory.memories.add({ value: 'Schedule calls in Western European Time.' });
    const old = await memory.memories.add({ value: 'Calls are booked in Central European Time.' });
    await memory.memories.link(timezone.key, move.key, 'caused-by');
    await memory.memories.link(timezone.key, old.key, 'contradicts');

    const answer = await memory.memories.recall({ query: 'where does she live, Lisbon?' });
    expect(answer.memories.map((entry) => [entry.memory.key, entry.path])).toEqual([
      [move.key, 'words'],
      [timezone.key, 'link'],
    ]);
    expect(answer.memories[1]?.reason).toBe(`linked: it caused-by ${move.key}`);
    const deeper = await memory.memories.recall({ query: 'Lisbon', depth: 2 });
    expect(deeper.memories.map((entry) => entry.memory.key)).toEqual([move.key, timezone.key, old.key]);
    expect(deeper.memories[2]?.reason).toBe(`linked: contradicts ${timezone.key}: check which holds`);
    expect((await memory.memories.recall({ query: 'Lisbon', depth: 0 })).memories).toHaveLength(1);
    expect((await memory.memories.recall({ query: 'Lisbon', depth: 2, edgeTypes: ['relates-to'] })).memories).toHaveLength(1);
  });

  it('filters by time and tags, and shows a memory as it stood at a time', async () => {
    const rate = await memory.memories.add({ value: 'Charges €65 an hour.', tags: ['work'] });
    const reviewedBefore = new Date(Date.UTC(2026, 2, 1, 0, 30)).toISOString();
    const before = (await memory.memories.get(rate.key)).modifiedAt;
    await memory.memories.add({ value: 'Prefers short paragraphs.', tags: ['writing'] });
    await memory.memories.change(rate.key, { value: 'Charges €75 an hour.', reason: 'new rate from January' });

    const then = await memory.memories.recall({ query: 'what rate per hour?', asOf: before });
    expect(then.memories.map((entry) => entry.memory.value)).toEqual(['Charges €65 an hour.']);
    expect(then.memories[0]?.reason).toMatch(/as it stood then \(version 1\)$/u);
    const changed = await memory.memories.recall({ query: '', changedSince: before });
    expect(changed.memories.map((entry) => entry.memory.value).sort()).toEqual(['Charges €75 an hour.', 'Prefers short paragraphs.']);
    expect((await memory.memories.recall({ query: '', tags: ['writing'] })).memories.map((entry) => entry.memory.value)).toEqual(['Prefers short paragraphs.']);
    expect((await memory.memories.recall({ query: 'rate', tags: ['writing'] })).nothingRelevant).toBe(true);
    const unreviewed = await memory.memories.recall({ query: '', notReviewedSince: reviewedBefore });
    expect(unreviewed.memories.map((entry) => entry.reason)).toEqual(['never reviewed', 'never reviewed']);
  });

  it('refuses what is not a request, naming it', async () => {
    for (const bad of [null, 'rate', { query: 42 }, { query: 'x', limit: 0 }, { query: 'x', depth: 3 }, { query: 'x', edgeTypes: ['likes'] }, { query: 'x', asOf: 'yesterday' }, { query: 'x', tags: 'work' }]) {
      const failure = await memory.memories.recall(bad as never).catch((error: unknown) => error);
      expect(isStrataError(failure, 'INVALID_INPUT'), JSON.stringify(bad)).toBe(true);
    }
  });
});
