/**
 * Messages' tokens, counted before their turns are stored, with pauses between: a long message a slice
 * at a time (a pasted document must not hold the event loop while it is counted), an import's many
 * messages one after another. The turns are then stored without counting them again.
 */
import { stepThrough, type Pause } from '../core/slices.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { CheckedMessage } from './message-input.js';

/** Messages longer than this are counted in slices when the tokenizer can (a shorter one takes well under a millisecond). */
const LONG_MESSAGE_CHARACTERS = 16_384;

/**
 * `checked`, each message with its content's tokens (`contentTokens`), `pause` awaited before each
 * message and between the slices of a long one (see `Tokenizer.countingInSlices`).
 */
export async function countedAhead(checked: readonly CheckedMessage[], tokenizer: Pick<Tokenizer, 'count' | 'countingInSlices'>, pause: Pause): Promise<CheckedMessage[]> {
  const counted: CheckedMessage[] = [];
  for (const message of checked) {
    await pause();
    if (message.contentTokens !== undefined) counted.push(message);
    else if (message.content.length <= LONG_MESSAGE_CHARACTERS || tokenizer.countingInSlices === undefined) counted.push({ ...message, contentTokens: tokenizer.count(message.content) });
    else counted.push({ ...message, contentTokens: await stepThrough(tokenizer.countingInSlices(message.content), pause) });
  }
  return counted;
}
