import { z } from 'zod';
import type { ConsolidationProposal } from '../consolidation.js';
import { outputSchema } from './json-schema.js';
import { factKindSchema } from './turn-output-schema.js';

const reasonSchema = z.string().describe('Why: what makes the change safe');

/** What the memory model proposes for the base-truth document; `validateConsolidation` decides whether it is applied. */
export const consolidationProposalSchema = z.strictObject({
  merge: z
    .array(
      z.strictObject({
        ids: z.array(z.string()).describe('Ids of the two or more facts merged; the first keeps its id'),
        text: z.string().describe('The merged fact line, "key: value", using only what the merged facts say'),
        kind: factKindSchema,
        reason: reasonSchema,
      }),
    )
    .describe('Redundant facts merged into one line'),
  remove: z
    .array(z.strictObject({ id: z.string().describe('Id of the fact to remove'), reason: reasonSchema }))
    .describe('Facts another fact supersedes'),
  update: z
    .array(
      z.strictObject({
        id: z.string().describe('Id of the fact to rewrite'),
        text: z.string().describe('Its complete replacement line, using only what the fact says'),
        kind: factKindSchema,
        reason: reasonSchema,
      }),
    )
    .describe('Facts stated more clearly'),
});

export type { ConsolidationProposal } from '../consolidation.js';

/** The schema's answers are the port's proposals. */
const _sameShape: z.ZodType<ConsolidationProposal> = consolidationProposalSchema;
void _sameShape;

/** The proposal as a structured-output schema (`fact_consolidation`). */
export const CONSOLIDATION_SCHEMA = outputSchema('fact_consolidation', consolidationProposalSchema);
