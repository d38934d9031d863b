/**
 * The first source of a package: the pinned exceptions, measured exactly so each is present whenever it
 * fits at all, then the session's instructions. What does not fit is omitted with a warning.
 */
import type { Fact, Session } from '../core/types.js';
import type { FactDoubts } from '../core/fact-doubts.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { Assembly } from './assembly.js';
import type { ContextItem } from './context-package.js';
import { factItem } from './fact-lines.js';
import { measureSections } from './render.js';

export interface PinnedSourceOptions {
  facts: readonly Fact[];
  session: Session;
  tokenizer: Tokenizer;
  /** When each turn was said, for the facts' marks. */
  times: ReadonlyMap<number, string>;
  doubts: FactDoubts;
  warnings: string[];
}

export function addPinned(assembly: Assembly, options: PinnedSourceOptions): void {
  const { tokenizer, times, doubts, warnings } = options;
  const budget = assembly.budget;
  const pinnedItems: ContextItem[] = [];
  let pinnedTokens = 0;
  for (const fact of options.facts.filter((candidate) => candidate.pinned)) {
    const item = factItem(fact, tokenizer, times, doubts);
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
