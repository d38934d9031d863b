/**
 * The first source of a package: the pinned exceptions, measured exactly so each is present whenever it
 * fits at all, then the session's instructions. What does not fit is omitted with a warning.
 */
import type { Session } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { Assembly } from './assembly.js';
import type { ContextItem } from './context-package.js';
import type { FactView } from './fact-view.js';
import { measureSections } from './render.js';

export interface PinnedSourceOptions {
  /** The session's facts; the pinned ones are this source's. */
  view: FactView;
  session: Session;
  tokenizer: Tokenizer;
  warnings: string[];
}

export function addPinned(assembly: Assembly, options: PinnedSourceOptions): void {
  const { tokenizer, view, warnings } = options;
  const budget = assembly.budget;
  const pinnedItems: ContextItem[] = [];
  let pinnedTokens = 0;
  for (const fact of view.facts.filter((candidate) => candidate.pinned)) {
    const item = view.line(fact);
    const trial = measureSections([{ name: 'pinned', tokens: 0, items: [...pinnedItems, item] }], tokenizer).tokens;
    if (trial <= budget) {
      pinnedItems.push(item);
      pinnedTokens = trial;
    } else {
      assembly.omit(fact.sourceMessageIds, `pinned exception "${fact.key}" does not fit the budget`);
      warnings.push(`Pinned exception "${fact.text}" did not fit a budget of ${budget} tokens; raise the budget.`);
    }
  }
  if (pinnedItems.length > 0) assembly.add('pinned', pinnedItems, pinnedTokens);
  const instructions = options.session.instructions;
  if (instructions.trim() === '') return;
  const tokens = tokenizer.count(instructions);
  const item: ContextItem = { text: instructions, tokens, sourceMessageIds: [], kind: 'instructions', turn: null, date: null, tier: null, factKind: null, role: null };
  if (!assembly.tryAdd('instructions', [item], tokens)) {
    assembly.omit([], 'the session instructions do not fit the budget');
    warnings.push(`The session instructions (${tokens} tokens) did not fit a budget of ${budget} tokens.`);
  }
}
