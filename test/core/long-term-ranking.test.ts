import { describe, expect, it } from 'vitest';
import type { LongTermMemory } from '../../src/core/long-term-memory.js';
import { byRelevance, isRelevant, namedTags, recallTerms, scoreByLink, scoreByWords, specificTerms } from '../../src/core/long-term-ranking.js';

function memory(key: string, value: string, fields: Partial<LongTermMemory> = {}): LongTermMemory {
  return { id: key.toLowerCase(), key, name: null, subject: null, value, version: 1, deprecated: false, sources: [], createdAt: '2026-05-01T10:00:00.000Z', modifiedAt: '2026-05-01T10:00:00.000Z', reviewedAt: null, tendedAt: null, accessedAt: null, ...fields };
}

describe('scoring recalled memories', () => {
  it('takes the query’s content words, singular, each once', () => {
    expect(recallTerms('Can we schedule the calls for Saturdays, or calls on Sunday?')).toEqual(['schedule', 'call', 'saturday', 'sunday']);
  });

  it('scores a memory by the share of the query’s words it holds, a word beginning another counting', () => {
    const rate = memory('M1', 'rate: €65 an hour');
    const scored = scoreByWords(rate, recallTerms('What hourly rate should I quote Rachel?'));
    expect(scored).toEqual({ memory: rate, score: 0.5, path: 'words', reason: 'shares "hourly", "rate" with the query', shared: ['hourly', 'rate'] });
    expect(scoreByWords(rate, recallTerms('weather tomorrow')).score).toBe(0);
    expect(scoreByWords(rate, []).score).toBe(0);
    // Short words must match whole: "an" does not begin "answer".
    expect(scoreByWords(memory('M2', 'an apple'), ['answer']).score).toBe(0);
  });

  it('counts a memory relevant by a quarter of the query, two of its words, or one specific word', () => {
    const query = 'Can you draft an email to Rachel proposing a call on Saturday? Keep it short, no bullet points.';
    const terms = recallTerms(query);
    const specific = specificTerms(query);
    expect([...specific].sort()).toEqual(['rachel', 'saturday']);
    expect(isRelevant(scoreByWords(memory('M1', "schedule: Don't schedule anything on a Saturday, ever"), terms), specific)).toBe(true);
    expect(isRelevant(scoreByWords(memory('M2', 'short paragraphs: prefer short paragraphs'), terms), specific)).toBe(false);
    expect(isRelevant(scoreByWords(memory('M3', 'Send the email draft by noon'), terms), specific)).toBe(true);
    expect(specificTerms('Order 12 V60 filters. Then call Kit.')).toEqual(new Set(['12', 'v60', 'kit']));
  });

  it('finds the tags whose level the query names, all its words', () => {
    expect(namedTags(['family/birthdays', 'work/tools', 'close-family', 'health'], ['family', 'birthday'])).toEqual(['family/birthdays']);
    expect(namedTags(['close-family'], ['close', 'family'])).toEqual(['close-family']);
    expect(namedTags(['work/tools'], ['birthday'])).toEqual([]);
  });

  it('gives a linked memory half its neighbour’s score and says how they are linked', () => {
    const from = scoreByWords(memory('M1', 'Moved to Lisbon'), ['lisbon']);
    expect(scoreByLink(memory('M2', 'Calls in WET'), from, 'caused-by', false)).toMatchObject({ score: 0.5, path: 'link', reason: 'linked: it caused-by M1' });
    expect(scoreByLink(memory('M3', 'Calls in CET'), from, 'relates-to', true).reason).toBe('linked: M1 relates-to it');
    expect(scoreByLink(memory('M4', 'x'), from, 'contradicts', true).reason).toBe('linked: contradicts M1: check which holds');
  });

  it('orders by score, then the most recently modified, then by key', () => {
    const older = { ...scoreByWords(memory('M2', 'lisbon'), ['lisbon']) };
    const newer = { ...scoreByWords(memory('M3', 'lisbon', { modifiedAt: '2026-06-01T00:00:00.000Z' }), ['lisbon']) };
    const weaker = { ...scoreByWords(memory('M1', 'lisbon x'), ['lisbon', 'porto']) };
    expect([weaker, older, newer].sort(byRelevance).map((entry) => entry.memory.key)).toEqual(['M3', 'M2', 'M1']);
  });
});
