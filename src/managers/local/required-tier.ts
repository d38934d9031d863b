/**
 * The least detailed tier a message may be shown at once it leaves the raw window:
 * 1 for small talk, 3 for a short message whose exact wording matters (a hard rule), else 2.
 */
import type { Tier } from '../../core/types.js';
import type { AnalysedMessage } from './analysis.js';

export function requiredTier(message: AnalysedMessage, verbatimMaxWords: number): Tier {
  if (message.message.content.trim() === '' || message.smallTalk) return 1;
  if (message.codeBlocks.length > 0) return 2;
  const hardRule = message.sentences.some((sentence) =>
    sentence.cues.some((cue) => cue.kind === 'exception' || (cue.kind === 'constraint' && !cue.keyword)),
  );
  if (hardRule && message.words <= verbatimMaxWords) return 3;
  return 2;
}
