/**
 * The first source of a package: the pinned exceptions, measured exactly so each is present whenever it
 * fits at all, then the session's instructions. What does not fit is omitted with a warning.
 */
import type { Fact, Session } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { Assembly } from './assembly.js';
import type { ContextItem } from './context-package.js';
import type { FactView } from './fact-view.js';
import type { Line } from './turn-options.js';
import { measureSections } from './render.js';

export interface PinnedSourceOptions {
  /** The session's facts; the pinned ones are this source's. */
  view: FactView;
  session: Session;
  tokenizer: Tokenizer;
  warnings: string[];
}

/** Which lines are kept when each is taken while it fits with those before it (`measure` gives a rendering's exact tokens). */
type Choose = (lines: readonly Line[], budget: number, measure: (items: Line[]) => number) => { keep: boolean[]; tokens: number };

/** Measuring each line with those kept before it: exact whatever the tokenizer, but a rendering per line. */
const byMeasure: Choose = (lines, budget, measure) => {
  const kept: Line[] = [];
  let tokens = 0;
  const keep = lines.map((item) => {
    // (A line adds at least its own tokens: one that cannot fit is not measured.)
    const trial = tokens + item.tokens > budget ? Number.POSITIVE_INFINITY : measure([...kept, item]);
    if (trial > budget) return false;
    kept.push(item);
    tokens = trial;
    return true;
  });
  return { keep, tokens };
};

/**
 * By the lines' costs (their tokens and line break, see `Line.cost`) over what the section costs around
 * them: one rendering to learn that, one to check the sum. The encodings count a rendering as the sum of
 * its lines, so the check holds; when it does not, the lines are measured one by one.
 */
const byCost: Choose = (lines, budget, measure) => {
  const first = lines[0];
  if (first === undefined) return { keep: [], tokens: 0 };
  let tokens = measure([first]) - first.cost;
  const keep = lines.map((item) => {
    if (tokens + item.cost > budget) return false;
    tokens += item.cost;
    return true;
  });
  return measure(lines.filter((_, index) => keep[index])) === tokens ? { keep, tokens } : byMeasure(lines, budget, measure);
};

/** Each pinned line in turn while it fits with those before it; the others are omitted with a warning. */
function addWhatFits(assembly: Assembly, pinned: readonly Fact[], lines: readonly Line[], measure: (items: Line[]) => number, warnings: string[]): void {
  const budget = assembly.budget;
  const { keep, tokens } = byCost(lines, budget, measure);
  for (const [index, fact] of pinned.entries()) {
    if (keep[index] === true) continue;
    assembly.omit(fact.sourceMessageIds, `pinned exception "${fact.key}" does not fit the budget`);
    warnings.push(`Pinned exception "${fact.text}" did not fit a budget of ${budget} tokens; raise the budget.`);
  }
  const kept = lines.filter((_, index) => keep[index]);
  if (kept.length > 0) assembly.add('pinned', kept, tokens);
}

export function addPinned(assembly: Assembly, options: PinnedSourceOptions): void {
  const { tokenizer, view, warnings } = options;
  const budget = assembly.budget;
  const pinned = view.facts.filter((candidate) => candidate.pinned);
  const lines = pinned.map((fact) => view.line(fact));
  const measure = (items: Line[]): number => measureSections([{ name: 'pinned', tokens: 0, items }], tokenizer).tokens;
  if (lines.length > 0) {
    // All of them, measured once, is what fits most often (tokens only grow as lines are added, so each
    // would have fitted in its turn); otherwise they are taken one by one.
    const whole = measure(lines);
    if (whole <= budget) assembly.add('pinned', lines, whole);
    else addWhatFits(assembly, pinned, lines, measure, warnings);
  }
  const instructions = options.session.instructions;
  if (instructions.trim() === '') return;
  const tokens = tokenizer.count(instructions);
  const item: ContextItem = { text: instructions, tokens, sourceMessageIds: [], kind: 'instructions', turn: null, date: null, tier: null, factKind: null, role: null };
  if (!assembly.tryAdd('instructions', [item], tokens)) {
    assembly.omit([], 'the session instructions do not fit the budget');
    warnings.push(`The session instructions (${tokens} tokens) did not fit a budget of ${budget} tokens.`);
  }
}
