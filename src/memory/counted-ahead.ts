/**
 * Messages' tokens, counted before their turns are stored, with pauses between: a long message a slice
 * at a time (a pasted document must not hold the event loop while it is counted), an import's many
 * messages one after another. The turns are then stored without counting them again.
 */
import { stepThrough, type Pause } from '../core/slices.js';
import { toolUseParts, type Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { CheckedMessage } from './message-input.js';

/** Texts longer than this are counted in slices when the tokenizer can (a shorter one takes well under a millisecond). */
const LONG_TEXT_CHARACTERS = 16_384;

/**
 * `checked`, each message with its tokens as stored (`tier3Tokens`: its content and its tool use), `pause`
 * awaited before each message and between the slices of a long text (see `Tokenizer.countingInSlices`).
 */
export async function countedAhead(checked: readonly CheckedMessage[], tokenizer: Pick<Tokenizer, 'count' | 'countingInSlices'>, pause: Pause): Promise<CheckedMessage[]> {
  const count = async (text: string): Promise<number> =>
    text.length <= LONG_TEXT_CHARACTERS || tokenizer.countingInSlices === undefined ? tokenizer.count(text) : stepThrough(tokenizer.countingInSlices(text), pause);
  const counted: CheckedMessage[] = [];
  for (const message of checked) {
    await pause();
    if (message.tier3Tokens !== undefined) {
      counted.push(message);
      continue;
    }
    const { texts, framing } = toolUseParts(message);
    let tokens = framing + (await count(message.content));
    for (const text of texts) tokens += await count(text);
    counted.push({ ...message, tier3Tokens: tokens });
  }
  return counted;
}
