/** Checks of what a person gives a session: its options, its title and its instructions. */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { loneSurrogateIndex } from '../core/text.js';

/** Whether `value` is an options object (not null, not an array). */
export function isOptions(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A session title: non-empty text of at most 300 characters, trimmed. */
export function checkTitle(title: unknown): string {
  if (typeof title !== 'string' || title.trim() === '' || title.length > 300 || loneSurrogateIndex(title) >= 0) {
    throw new StrataError('INVALID_INPUT', 'A session title must be non-empty text of at most 300 characters.');
  }
  return title.trim();
}

/** Session instructions: text of at most 100,000 characters, trimmed. */
export function checkInstructions(instructions: unknown): string {
  if (typeof instructions !== 'string' || loneSurrogateIndex(instructions) >= 0 || instructions.length > 100_000) {
    throw new StrataError('INVALID_INPUT', 'Session instructions must be text of at most 100,000 characters.');
  }
  return instructions.trim();
}

/** The longest session id a caller may choose. */
export const MAX_SESSION_ID_LENGTH = 256;

/**
 * A session id a caller chose: 1 to 256 visible ASCII characters (letters, digits and punctuation, no
 * spaces), so it can travel in an HTTP header such as the proxy's `X-Strata-Session` as it is.
 */
export function checkSessionId(id: unknown): string {
  if (typeof id !== 'string' || id.length > MAX_SESSION_ID_LENGTH || !/^[\x21-\x7e]+$/u.test(id)) {
    throw new StrataError('INVALID_INPUT', `A session id is 1 to ${MAX_SESSION_ID_LENGTH} visible ASCII characters (letters, digits, punctuation; no spaces) (got ${describeValue(id)}).`);
  }
  return id;
}
