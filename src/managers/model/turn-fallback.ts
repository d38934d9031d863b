import type { StrataError } from '../../core/errors.js';
import { limitWords } from '../../core/text.js';
import type { Role } from '../../core/types.js';
import type { ProcessTurnOptions, TurnFallback, TurnMemory } from '../memory-manager.js';
import { TURN_LIMITS } from './turn-limits.js';

/**
 * How a failed model call is reported for a turn: time-outs, unreachable endpoints, 5xx and 429 are
 * retried later (`pending-retry`), and so are malformed answers (a model that garbled one answer twice
 * often answers the next attempt well; the engine bounds those attempts); requests the endpoint
 * refuses for good (401, 403, 404, other 4xx) are final until its settings change.
 */
export function fallbackFor(error: StrataError): TurnFallback {
  const base = { code: error.code, message: error.message };
  switch (error.code) {
    case 'MODEL_OUTPUT_INVALID':
      return { reason: 'malformed', retry: true, ...base };
    case 'MODEL_TIMEOUT':
      return { reason: 'timeout', retry: true, ...base };
    case 'MODEL_RATE_LIMITED':
    case 'MODEL_ABORTED':
      return { reason: 'unavailable', retry: true, ...base };
    case 'MODEL_FAILURE':
      return error.details.retryable === true ? { reason: 'unavailable', retry: true, ...base } : { reason: 'rejected', retry: false, ...base };
    default:
      return { reason: 'rejected', retry: false, ...base };
  }
}

function rawSide(options: ProcessTurnOptions, role: Role, limit: number): string {
  const text = options.messages
    .filter((message) => message.role === role)
    .map((message) => message.content)
    .join('\n');
  return limitWords(text, limit);
}

/**
 * The memory of a turn the model could not summarise: the raw exchange as the summaries (cut to the
 * word limits), the local manager's tiers, required tiers and artifacts, no diff, and the fallback flag.
 */
export function fallbackMemory(options: ProcessTurnOptions, local: TurnMemory, fallback: TurnFallback): TurnMemory {
  return {
    messages: local.messages,
    userSummary: rawSide(options, 'user', TURN_LIMITS.userSummaryWords),
    assistantSummary: rawSide(options, 'assistant', TURN_LIMITS.assistantSummaryWords),
    depth: local.depth,
    windowExtension: local.windowExtension,
    diff: { add: [], update: [], remove: [] },
    artifacts: local.artifacts,
    fallback,
  };
}
