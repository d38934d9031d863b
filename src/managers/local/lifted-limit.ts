/**
 * A limit lifted: "Ravi cleared me to go above 35 km" ends the line that caps running at 35 km. A
 * sentence that allows going past a value removes the one limit the document holds on that value.
 */
import { escapeRegExp } from '../../core/text.js';
import type { Claim } from './claims.js';
import type { Known } from './known-line.js';

/** "cleared me to go above 35 km", "we're allowed over 120 guests now", "fine to exceed 8 hours". */
const ALLOWED_PAST = /\b(?:cleared|allowed|okayed|permitted|free|fine|ok|okay|can now|may now)\b(?:\s+\S+){0,5}?\s+(?:above|over|beyond|past|more than|exceed|exceeding)\s+(?:the\s+)?([$£€]?\d[\d,.]*)/iu;

/** Words of a limit in a fact line. */
const LIMIT = /\b(?:cap|caps|capped|limit|limited|max|maximum|at or under|or under|no more than|ceiling|at most|up to)\b/iu;

/** The one known limit the claim's sentence lifts, or null. */
export function liftedLimit(known: Iterable<Known>, claim: Claim): Known | null {
  const value = ALLOWED_PAST.exec(claim.sentence.text)?.[1]?.replace(/[.,]$/u, '');
  if (value === undefined) return null;
  const number = new RegExp(`(?:^|[^\\d.,])${escapeRegExp(value.replace(/[$£€]/u, ''))}(?![\\d])`, 'u');
  const limits = [...known].filter((entry) => LIMIT.test(entry.text) && number.test(entry.text));
  return limits.length === 1 ? (limits[0] ?? null) : null;
}
