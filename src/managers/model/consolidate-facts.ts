import type { ConsolidateOptions, ConsolidationResult } from '../consolidation.js';
import { consolidationProposalSchema, CONSOLIDATION_SCHEMA } from './consolidation-schema.js';
import { parseJsonReply } from './json-reply.js';
import type { ModelManagerStats } from './model-stats.js';
import { consolidateFactsPrompt } from './prompts/consolidate-facts-prompt.js';
import { requestWithSettings } from './request-json.js';
import type { ResolvedModelSettings } from './settings.js';
import { validateConsolidation } from './validate-consolidation.js';

/** Ask the memory model to consolidate the facts and validate its proposal. Never throws for a model failure. */
export async function consolidateFacts(options: ConsolidateOptions, settings: ResolvedModelSettings, stats: ModelManagerStats): Promise<ConsolidationResult> {
  // One fact or none: nothing can be redundant, and no call is made.
  if (options.facts.length < 2) return { outcome: 'accepted', changes: [] };
  const answer = await requestWithSettings(settings, stats, {
    messages: consolidateFactsPrompt({ facts: options.facts, turn: options.turn }),
    schema: CONSOLIDATION_SCHEMA,
    check: (text) => parseJsonReply(text, consolidationProposalSchema),
    purpose: `the consolidation at turn ${options.turn}`,
  });
  if (!answer.ok) return { outcome: 'failed', error: answer.error };
  const validation = validateConsolidation({ facts: options.facts, proposal: answer.value });
  return validation.valid ? { outcome: 'accepted', changes: validation.changes } : { outcome: 'rejected', problems: validation.problems, proposal: answer.value };
}
