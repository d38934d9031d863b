import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { StrataError } from '../../core/errors.js';
import type { ChatMessage } from '../../core/types.js';
import { cachedLineCounter } from './line-count-cache.js';
import { boundedCounter, MAX_RUN, piecesOfLongRuns } from './long-runs.js';
import { countingInSlices } from './sliced-count.js';
import { TOKENS_PER_MESSAGE, TOKENS_PER_REPLY, toolUseTokens, type Tokenizer, type TokenizerName } from './tokenizer.js';

const ENCODINGS = { o200k_base: o200k, cl100k_base: cl100k } as const;
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export interface GptTokenizerSettings {
  /** Encoding (default `o200k_base`, the GPT-4o family; `cl100k_base` for GPT-4 and GPT-3.5). */
  encoding?: TokenizerName;
  /** Bytes the cache of line counts may hold (default 8 MiB); past it the oldest counts go. */
  cacheBytes?: number;
}

/** Tokenizer over gpt-tokenizer's bundled encodings (no download). */
export function createGptTokenizer(settings: GptTokenizerSettings = {}): Tokenizer {
  const name = settings.encoding ?? 'o200k_base';
  const encoding = ENCODINGS[name];
  if (encoding === undefined) {
    throw new StrataError('TOKENIZER_UNKNOWN', `Unknown tokenizer "${String(name)}"; use "o200k_base" or "cl100k_base".`);
  }
  // (Long runs without spaces are counted in pieces: see long-runs.ts.)
  const countPlain = (text: string): number => (text === '' ? 0 : encoding.countTokens(text, PLAIN_TEXT));
  const countDirectly = boundedCounter(countPlain);
  // Long texts (a rendered package) are counted line by line with cached counts; the total is exact
  // for text without long runs.
  const count = cachedLineCounter(countDirectly, settings.cacheBytes);
  /** The longest prefix of `text` with at most `maxTokens` tokens, by encoding it (for text without long runs). */
  const truncateExactly = (text: string, maxTokens: number): string => {
    const tokens = encoding.encode(text, PLAIN_TEXT);
    if (tokens.length <= maxTokens) return text;
    let cut = encoding.decode(tokens.slice(0, maxTokens));
    // A cut inside a multi-byte character decodes to U+FFFD; drop it and re-check the bound.
    // Counted directly: a one-off cut is not worth a place in the cache.
    while (cut !== '' && (cut.endsWith('\uFFFD') || countDirectly(cut) > maxTokens)) cut = cut.slice(0, -1);
    return cut;
  };
  return {
    name,
    count,
    countingInSlices: (text) => countingInSlices(text, countPlain),
    countMessages(messages: readonly ChatMessage[]): number {
      if (messages.length === 0) return 0;
      let total = TOKENS_PER_REPLY;
      for (const message of messages) total += TOKENS_PER_MESSAGE + count(message.role) + count(message.content) + toolUseTokens(message, count);
      return total;
    },
    truncate(text: string, maxTokens: number): string {
      if (maxTokens <= 0) return '';
      const pieces = piecesOfLongRuns(text);
      if (pieces === null) return truncateExactly(text, maxTokens);
      // Piece by piece, as such a text is counted: whole pieces while they fit, then a cut of the next.
      let taken = '';
      let used = 0;
      for (const [index, piece] of pieces.entries()) {
        const cut = index === 0 ? 0 : 1;
        const cost = countDirectly(piece) + cut;
        if (used + cost <= maxTokens) {
          taken += piece;
          used += cost;
          continue;
        }
        const room = maxTokens - used - cut;
        taken += room > 0 ? truncateExactly(piece, room) : '';
        break;
      }
      // (Counted as a whole, the prefix may be cut elsewhere: shorten it until its count fits.)
      while (taken !== '' && countDirectly(taken) > maxTokens) taken = taken.slice(0, Math.max(0, taken.length - MAX_RUN));
      return taken;
    },
  };
}
