import type { AnalysedMessage } from './analysis.js';
import type { ResolvedSettings } from './settings.js';

/** Whether a message may add facts: a user message always, an assistant one as `assistantFacts` says. */
export function allowsFacts(message: AnalysedMessage, policy: ResolvedSettings['assistantFacts']): boolean {
  if (message.message.role === 'user') return true;
  if (policy === 'always') return true;
  if (policy === 'never') return false;
  return message.message.speaker !== null;
}
