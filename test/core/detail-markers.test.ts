import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractMarkers, MarkerFilter, parseMarker } from '../../src/core/detail-markers.js';

/** Feeds `text` to a filter in the pieces given; returns what was shown and the requests. */
function stream(pieces: readonly string[]): { shown: string; requests: unknown[] } {
  const filter = new MarkerFilter();
  let shown = '';
  for (const piece of pieces) shown += filter.push(piece);
  shown += filter.end();
  return { shown, requests: [...filter.requests] };
}

describe('detail markers', () => {
  it('reads a tier request and a search request, in any case and spacing', () => {
    expect(parseMarker('[REQUEST_TIER:3:12u]')).toEqual({ kind: 'tier', tier: 3, ref: '12u' });
    expect(parseMarker('[ request_tier : 2 : 01a2-b3 ]')).toEqual({ kind: 'tier', tier: 2, ref: '01a2-b3' });
    expect(parseMarker('[SEARCH_EPISODIC: florist deposit ]')).toEqual({ kind: 'search', query: 'florist deposit' });
    for (const text of ['[REQUEST_TIER:4:12u]', '[REQUEST_TIER:3:]', '[SEARCH_EPISODIC:  ]', '[SEARCH_EPISODIC florist]', '[1]', '[REQUEST_TIER:3:12u extra]']) {
      expect(parseMarker(text), text).toBeNull();
    }
  });

  it('takes markers out of the reply and keeps the text around them', () => {
    expect(extractMarkers('Let me look. [REQUEST_TIER:3:12u]')).toEqual({ text: 'Let me look. ', requests: [{ kind: 'tier', tier: 3, ref: '12u' }] });
    expect(extractMarkers('[SEARCH_EPISODIC: deposit][SEARCH_EPISODIC: florist]').requests).toHaveLength(2);
    expect(extractMarkers('See note [1], array[0] and [REQUEST_TIER: soon].')).toEqual({ text: 'See note [1], array[0] and [REQUEST_TIER: soon].', requests: [] });
  });

  it('holds back a possible marker split across pieces, and only until it is ruled out', () => {
    const filter = new MarkerFilter();
    expect(filter.push('The deposit [REQ')).toBe('The deposit ');
    expect(filter.push('UEST_TIER:3')).toBe('');
    expect(filter.push(':7a]')).toBe('');
    expect(filter.requests).toEqual([{ kind: 'tier', tier: 3, ref: '7a' }]);
    expect(filter.push(' [Note')).toBe(' [Note');
    expect(filter.push(' [SEARCH')).toBe(' ');
    expect(filter.end()).toBe('[SEARCH');
  });

  it('lets a bracket that grows too long to be a marker through', () => {
    const filter = new MarkerFilter();
    expect(filter.push('[SEARCH_EPISODIC: ')).toBe('');
    expect(filter.push('x'.repeat(700))).toBe(`[SEARCH_EPISODIC: ${'x'.repeat(700)}`);
  });

  it('shows the same text and finds the same requests however the reply is split', () => {
    const parts = fc.constantFrom('Hello ', '[REQUEST_TIER:3:12u]', '[SEARCH_EPISODIC: van hire]', '[1]', ' [REQ', 'UEST', ']', 'a[b', ' tail.', '[', ':');
    fc.assert(
      fc.property(fc.array(parts, { maxLength: 12 }), fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 6 }), (chosen, cuts) => {
        const text = chosen.join('');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...points, text.length].slice(1).map((end, index, all) => text.slice(index === 0 ? 0 : (all[index - 1] ?? 0), end));
        const whole = extractMarkers(text);
        const streamed = stream(pieces);
        expect(streamed.shown).toBe(whole.text);
        expect(streamed.requests).toEqual(whole.requests);
      }),
    );
  });
});
