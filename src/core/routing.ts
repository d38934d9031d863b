import { countWords } from './text.js';
import type { TurnDepth } from './types.js';

/** Word thresholds of the size routing: short < 40 ≤ medium < 200 ≤ long. */
export const SHORT_WORDS = 40;
export const LONG_WORDS = 200;
/** Words past which a long turn's window extension no longer changes. */
const LONGEST_ROUTED = 600;

const FENCE = /^\s*(```|~~~)/mu;

/** Whether a text contains a fenced code block. */
export function hasCodeBlock(text: string): boolean {
  return FENCE.test(text);
}

export interface RouteTurnResult {
  depth: TurnDepth;
  /** Whether the turn gets a base-truth diff (every depth but short). */
  wantsDiff: boolean;
  /** Extra turns the turn stays verbatim in the raw window. */
  windowExtension: number;
}

/**
 * Size routing of the write path: short exchanges get a summary only; medium get a diff too;
 * long ones also stay in the raw window 1–2 extra turns; code-heavy ones always get a diff.
 */
export function routeTurn(contents: readonly string[]): RouteTurnResult {
  let longest = 0;
  // (Past the last threshold the exact count does not matter: a pasted document is not read to its end.)
  for (const content of contents) longest = Math.max(longest, countWords(content, 0, content.length, LONGEST_ROUTED + 1));
  if (contents.some(hasCodeBlock)) return { depth: 'code', wantsDiff: true, windowExtension: 1 };
  if (longest >= LONG_WORDS) return { depth: 'long', wantsDiff: true, windowExtension: longest > LONGEST_ROUTED ? 1 : 2 };
  if (longest >= SHORT_WORDS) return { depth: 'medium', wantsDiff: true, windowExtension: 0 };
  return { depth: 'short', wantsDiff: false, windowExtension: 0 };
}
