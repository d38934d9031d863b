/**
 * The consolidation prompt: the memory model tidies the base-truth document, merging redundant facts
 * and removing superseded ones. Instructions go in the system message, the facts in the user message
 * as one delimited JSON document.
 */
import type { ChatMessage, FactKind } from '../../../core/types.js';
import { DATA_RULE, dataBlock } from '../prompt-data.js';

/** A fact as the consolidation sees it. */
export interface ConsolidationFact {
  id: string;
  key: string;
  kind: FactKind;
  text: string;
  pinned: boolean;
}

export interface ConsolidateFactsPromptInput {
  facts: readonly ConsolidationFact[];
  /** The turn the document stands at. */
  turn: number;
}

const RULES: readonly string[] = [
  'You tidy the base-truth document of a conversation: a list of facts, each with an id, key, kind, pinned flag and text. ' +
    'Return one JSON object with three lists: merge, remove and update.',
  'merge: facts that say the same thing or belong on one line, as one complete line: the ids of the two or more facts (the first keeps its id), the merged text, its kind and the reason.',
  'remove: a fact only when another fact supersedes it (an older value of the same thing, an inference a later fact contradicts): its id and a reason naming what supersedes it. Nothing is removed without a reason.',
  'update: a fact only to state it more clearly: its id and the complete replacement text, never a patch or a partial edit.',
  'Use only what the facts say: every number and name in a new text must appear in the facts it comes from. Do not invent, infer or add detail.',
  'Never remove a pinned fact (an exception); a merge or update that includes one keeps kind exception and its full meaning.',
  'Keep technical specifics exactly as written: names, versions, types, function signatures, numbers and units.',
  'Each fact id appears at most once across merge, remove and update. When in doubt, leave a fact alone; when nothing needs to change, return empty lists.',
  DATA_RULE,
];

/** The consolidation prompt for a base-truth document. */
export function consolidateFactsPrompt(input: ConsolidateFactsPromptInput): ChatMessage[] {
  const data = {
    turn: input.turn,
    facts: input.facts.map((fact) => ({ id: fact.id, key: fact.key, kind: fact.kind, pinned: fact.pinned, text: fact.text })),
  };
  return [
    { role: 'system', content: RULES.join('\n') },
    { role: 'user', content: `Consolidate these facts.\n${dataBlock(data)}` },
  ];
}
