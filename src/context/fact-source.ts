/**
 * The base-truth document as a source: facts in the order they claim room. Without a query, the most
 * important kinds and the freshest first; with one, the facts the query names (constraints first) may
 * take only their share ahead of recall, and the rest wait to fill the room recall leaves.
 */
import { compareText } from '../core/text.js';
import type { Fact } from '../core/types.js';
import type { FactDoubts } from '../core/fact-doubts.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { Assembly } from './assembly.js';
import { factItem } from './fact-lines.js';
import { factRelevance } from './fact-relevance.js';
import { KIND_RANK } from './package-finish.js';
import type { Line } from './turn-options.js';

export interface FactSourceOptions {
  /** The facts shown in the facts section: not pinned, not folded into a newer line. */
  facts: readonly Fact[];
  query: string;
  tokenizer: Tokenizer;
  times: ReadonlyMap<number, string>;
  doubts: FactDoubts;
  /** With a query, the share of the budget the facts may take ahead of recall. */
  share: number;
}

export interface AddedFacts {
  /** How well each fact matches the query; null without one. */
  relevance: ReadonlyMap<string, number> | null;
  /** Fact lines waiting for the room recall leaves (with a query), most important first. */
  deferred: Line[];
}

/**
 * Facts in the order they claim room: without a query, the most important kinds and the freshest first;
 * with one, the facts the query names (constraints first, then best match first), then the other
 * constraints, then the rest.
 */
function rankFacts(facts: readonly Fact[], relevance: ReadonlyMap<string, number> | null): Fact[] {
  const byKind = (a: Fact, b: Fact): number => KIND_RANK[a.kind] - KIND_RANK[b.kind] || b.updatedTurn - a.updatedTurn || compareText(a.id, b.id);
  if (relevance === null) return [...facts].sort(byKind);
  const binding = (fact: Fact): boolean => KIND_RANK[fact.kind] <= KIND_RANK.constraint;
  const group = (fact: Fact): number => (relevance.has(fact.id) ? (binding(fact) ? 0 : 1) : binding(fact) ? 2 : 3);
  return [...facts].sort((a, b) => group(a) - group(b) || (relevance.get(b.id) ?? 0) - (relevance.get(a.id) ?? 0) || byKind(a, b));
}

export function addFacts(assembly: Assembly, options: FactSourceOptions): AddedFacts {
  const relevance = options.query === '' ? null : factRelevance(options.facts, options.query);
  const limit = relevance === null ? assembly.budget : assembly.used + Math.floor(assembly.budget * options.share);
  const deferred: Line[] = [];
  for (const fact of rankFacts(options.facts, relevance)) {
    const item = factItem(fact, options.tokenizer, options.times, options.doubts);
    const cost = assembly.costOf('facts', item.cost, fact.kind);
    if (assembly.used + cost <= limit && assembly.fits(cost)) assembly.add('facts', [item], cost);
    else if (relevance !== null) deferred.push(item);
    else assembly.omit(fact.sourceMessageIds, 'budget: base-truth fact did not fit');
  }
  return { relevance, deferred };
}

/** The deferred fact lines, in the room recall left, most important first. */
export function addDeferredFacts(assembly: Assembly, deferred: readonly Line[]): void {
  for (const item of deferred) {
    if (!assembly.tryAdd('facts', [item], item.cost)) assembly.omit(item.sourceMessageIds, 'budget: base-truth fact did not fit');
  }
}
