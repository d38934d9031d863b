import { quoted } from './text.js';
import type { Fact } from './types.js';

/** `turn 14: "the budget got cut to 82k"`: why a fact changed, with the turn that changed it. */
export function turnReason(turn: number, reason: string | undefined, line: string): string {
  const given = reason?.trim() ?? '';
  const text = given !== '' ? given : quoted(line, 160);
  return /^turn \d+:/u.test(text) ? text : `turn ${turn}: ${text}`;
}

/** `; it may replace "kickoff" (turn 3), which is kept`: what an event's reason adds for a doubted fact. */
export function mayReplaceNote(doubted: Fact): string {
  return `; it may replace "${doubted.key}" (turn ${doubted.updatedTurn}), which is kept`;
}
