import type { StrataError } from '../../core/errors.js';
import type { Fact } from '../../core/types.js';
import { consolidationProposalSchema, CONSOLIDATION_SCHEMA, type ConsolidationProposal } from './consolidation-schema.js';
import { parseJsonReply } from './json-reply.js';
import type { ModelManagerStats } from './model-stats.js';
import { consolidateFactsPrompt } from './prompts/consolidate-facts-prompt.js';
import { requestJson } from './request-json.js';
import type { ResolvedModelSettings } from './settings.js';
import { validateConsolidation, type ConsolidationChange } from './validate-consolidation.js';

export interface ConsolidateOptions {
  /** The base-truth document to consolidate. */
  facts: readonly Fact[];
  /** The turn the document stands at. */
  turn: number;
}

/**
 * What a consolidation came to: `accepted` (the changes to record as `consolidate` fact events, possibly
 * none), `rejected` (the proposal broke a rule: keep the document as it was and record the problems), or
 * `failed` (the model gave no usable answer: keep the document; the error says why).
 */
export type ConsolidationResult =
  | { outcome: 'accepted'; changes: ConsolidationChange[] }
  | { outcome: 'rejected'; problems: string[]; proposal: ConsolidationProposal }
  | { outcome: 'failed'; error: StrataError };

/** Ask the memory model to consolidate the facts and validate its proposal. Never throws for a model failure. */
export async function consolidateFacts(options: ConsolidateOptions, settings: ResolvedModelSettings, stats: ModelManagerStats): Promise<ConsolidationResult> {
  // One fact or none: nothing can be redundant, and no call is made.
  if (options.facts.length < 2) return { outcome: 'accepted', changes: [] };
  const answer = await requestJson({
    model: settings.model,
    messages: consolidateFactsPrompt({ facts: options.facts, turn: options.turn }),
    schema: CONSOLIDATION_SCHEMA,
    check: (text) => parseJsonReply(text, consolidationProposalSchema),
    timeoutMs: settings.timeoutMs,
    temperature: settings.temperature,
    stats,
    purpose: `the consolidation at turn ${options.turn}`,
  });
  if (!answer.ok) return { outcome: 'failed', error: answer.error };
  const validation = validateConsolidation({ facts: options.facts, proposal: answer.value });
  return validation.valid ? { outcome: 'accepted', changes: validation.changes } : { outcome: 'rejected', problems: validation.problems, proposal: answer.value };
}
