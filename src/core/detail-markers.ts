/**
 * The chat model's requests for more detail, written as markers in its reply: `[REQUEST_TIER:3:12u]`
 * (show turn 12's user message at tier 3) and `[SEARCH_EPISODIC: florist deposit]` (search the archive).
 * `MarkerFilter` takes the reply as it streams and passes on only what the user may see: a marker is
 * taken out and kept as a request, and text that might be the start of one is held back only until it is
 * ruled out (or the reply ends). Only the model's own output goes through a filter, so a marker typed by
 * the user, quoted in a tool result or in an imported message is plain text and does nothing.
 */
import type { Tier } from './types.js';

export type DetailRequest = { kind: 'tier'; tier: Tier; ref: string } | { kind: 'search'; query: string };

const TIER_KEYWORD = 'REQUEST_TIER';
const SEARCH_KEYWORD = 'SEARCH_EPISODIC';
/** Longest marker considered: a longer bracket is text, shown as written. */
const LONGEST_MARKER = 600;

const TIER_MARKER = /^\[\s*REQUEST_TIER\s*:\s*([123])\s*:\s*([^\s\]]{1,256})\s*\]$/iu;
const SEARCH_MARKER = /^\[\s*SEARCH_EPISODIC\s*:\s*([^\]]{1,500})\]$/iu;

/** The request a whole bracket `[…]` makes, or null when it is not a marker. */
export function parseMarker(bracket: string): DetailRequest | null {
  const tier = TIER_MARKER.exec(bracket);
  if (tier?.[1] !== undefined && tier[2] !== undefined) return { kind: 'tier', tier: Number(tier[1]) as Tier, ref: tier[2] };
  const search = SEARCH_MARKER.exec(bracket);
  const query = search?.[1]?.trim();
  return query === undefined || query === '' ? null : { kind: 'search', query };
}

/** Whether `open` (a `[` and what follows it, no `]` yet) could still grow into a marker. */
function couldBeMarker(open: string): boolean {
  if (open.length > LONGEST_MARKER) return false;
  const body = open.slice(1).trimStart().toUpperCase();
  return [TIER_KEYWORD, SEARCH_KEYWORD].some((keyword) => {
    if (body.length <= keyword.length) return keyword.startsWith(body);
    if (!body.startsWith(keyword)) return false;
    const rest = body.slice(keyword.length).trimStart();
    if (rest === '') return true;
    if (!rest.startsWith(':')) return false;
    return keyword === SEARCH_KEYWORD || /^:\s*(?:[123]\s*(?::\s*\S*\s*)?)?$/u.test(rest);
  });
}

export class MarkerFilter {
  private held = '';
  private readonly found: DetailRequest[] = [];

  /** The requests found so far, in order. */
  get requests(): readonly DetailRequest[] {
    return this.found;
  }

  /** Take the next piece of the reply; returns what can be shown now. */
  push(piece: string): string {
    this.held += piece;
    let shown = '';
    for (;;) {
      const open = this.held.indexOf('[');
      if (open === -1) {
        shown += this.held;
        this.held = '';
        return shown;
      }
      shown += this.held.slice(0, open);
      this.held = this.held.slice(open);
      const close = this.held.indexOf(']');
      if (close === -1) {
        if (couldBeMarker(this.held)) return shown;
        shown += '[';
        this.held = this.held.slice(1);
        continue;
      }
      const request = parseMarker(this.held.slice(0, close + 1));
      if (request === null) {
        shown += '[';
        this.held = this.held.slice(1);
        continue;
      }
      this.found.push(request);
      this.held = this.held.slice(close + 1);
    }
  }

  /** The reply has ended: whatever was held back could not be a marker after all. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

/** A whole text's visible part and requests (for replies that come in one piece). */
export function extractMarkers(text: string): { text: string; requests: readonly DetailRequest[] } {
  const filter = new MarkerFilter();
  const shown = filter.push(text) + filter.end();
  return { text: shown, requests: filter.requests };
}
