import type { ContextPackage, SectionName } from '../context/context-package.js';
import type { ChatMessage } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { FactTier, KeyFact } from './key-fact-conversation.js';
import { MustInclude } from './match.js';

/**
 * Weighted key-fact retention of one context package (`../shared/design/evaluation.md` §2).
 *
 * The items are every `ContextItem` of every section (instructions, pinned exceptions, facts, the raw
 * window, history lines, recalled messages), each on its own: a fact is
 * - preserved (1.0) when ONE item satisfies every `mustInclude` group,
 * - partial (0.5) when one item satisfies at least half of the groups, rounded up,
 * - missing (0.0) otherwise.
 * Groups satisfied by two different items do not add up.
 */

export type FactStatus = 'preserved' | 'partial' | 'missing';

export const TIER_WEIGHTS: Readonly<Record<FactTier, number>> = { 1: 3, 2: 2, 3: 1 };
export const STATUS_SCORES: Readonly<Record<FactStatus, number>> = { preserved: 1, partial: 0.5, missing: 0 };

/** The part of a package retention reads (a `ContextPackage` fits). */
export type ScoredPackage = Pick<ContextPackage, 'budget' | 'tokens' | 'sections'>;

/** The item that satisfied the most groups of a fact. */
export interface BestItem {
  section: SectionName;
  /** Index of the item within its section. */
  index: number;
  text: string;
  /** Groups this item satisfies. */
  groupsSatisfied: number;
}

export interface FactResult {
  id: string;
  tier: FactTier;
  text: string;
  status: FactStatus;
  /** 1, 0.5 or 0. */
  score: number;
  weight: number;
  groups: number;
  /** The first item satisfying the most groups, or null when no item satisfies any. */
  bestItem: BestItem | null;
}

export interface RetentionScore {
  /** Σ(weight × fact score) / Σ weight, 0–1. */
  score: number;
  facts: FactResult[];
  budget: number;
  /** Rendered tokens of the package. */
  contextTokens: number;
  /** Tokens of the whole conversation as chat messages, same tokenizer. */
  originalTokens: number;
  /** 1 − contextTokens / originalTokens (negative when the package is larger than the conversation). */
  tokenReduction: number;
  /** contextTokens ≤ budget. */
  budgetCompliant: boolean;
  /** contextTokens / budget. */
  fill: number;
}

/** The package's items, flattened in section order. */
export function packageItems(pkg: Pick<ContextPackage, 'sections'>): Array<{ section: SectionName; index: number; text: string }> {
  return pkg.sections.flatMap((section) => section.items.map((item, index) => ({ section: section.name, index, text: item.text })));
}

/** Groups an item must satisfy for a partial: half of them, rounded up. */
export function partialThreshold(groups: number): number {
  return Math.ceil(groups / 2);
}

/** Score one key fact against the items (their raw texts). */
export function scoreFact(fact: KeyFact, items: ReadonlyArray<{ section: SectionName; index: number; text: string }>): FactResult {
  const matcher = new MustInclude(fact.mustInclude);
  const groups = matcher.groupCount;
  let best: BestItem | null = null;
  for (const item of items) {
    const satisfied = matcher.count(item.text);
    if (satisfied > 0 && (best === null || satisfied > best.groupsSatisfied)) best = { ...item, groupsSatisfied: satisfied };
    if (satisfied === groups) break;
  }
  const reached = best?.groupsSatisfied ?? 0;
  const status: FactStatus = reached === groups ? 'preserved' : reached >= partialThreshold(groups) ? 'partial' : 'missing';
  return { id: fact.id, tier: fact.tier, text: fact.text, status, score: STATUS_SCORES[status], weight: TIER_WEIGHTS[fact.tier], groups, bestItem: best };
}

/** Σ(weight × score) / Σ weight over the fact results (0 when there are none). */
export function weightedScore(facts: ReadonlyArray<Pick<FactResult, 'score' | 'weight'>>): number {
  const total = facts.reduce((sum, fact) => sum + fact.weight, 0);
  return total === 0 ? 0 : facts.reduce((sum, fact) => sum + fact.weight * fact.score, 0) / total;
}

/** Tokens of the original conversation: the tokenizer's chat count of all its messages. */
export function originalTokenCount(tokenizer: Pick<Tokenizer, 'countMessages'>, messages: readonly ChatMessage[]): number {
  return tokenizer.countMessages(messages);
}

/** 1 − context / original; 0 when the original is empty. */
export function tokenReduction(contextTokens: number, originalTokens: number): number {
  return originalTokens <= 0 ? 0 : 1 - contextTokens / originalTokens;
}

/** Score a package: every fact, the weighted score, the token reduction and budget compliance. */
export function scoreRetention(input: { facts: readonly KeyFact[]; pkg: ScoredPackage; originalTokens: number }): RetentionScore {
  const items = packageItems(input.pkg);
  const facts = input.facts.map((fact) => scoreFact(fact, items));
  return {
    score: weightedScore(facts),
    facts,
    budget: input.pkg.budget,
    contextTokens: input.pkg.tokens,
    originalTokens: input.originalTokens,
    tokenReduction: tokenReduction(input.pkg.tokens, input.originalTokens),
    budgetCompliant: input.pkg.tokens <= input.pkg.budget,
    fill: input.pkg.budget > 0 ? input.pkg.tokens / input.pkg.budget : 0,
  };
}
