import type { ContextPackage, SectionName } from '../context/context-package.js';
import type { ChatMessage } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { FactTier, KeyFact, StaleFact } from './key-fact-conversation.js';
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
 *
 * Two more figures guard against a score that looks better than the memory is (§2b):
 * - the memory-only score: the same score on the package without its verbatim `window` section, so a
 *   recap in the chat tail earns nothing;
 * - stale facts: a claim that was later corrected, cancelled or declined is **asserted** when one item
 *   of the current-state sections (`pinned`, `facts`) satisfies all its groups and does not also
 *   satisfy all groups of the key fact that supersedes it ("budget $82k, was $95k" asserts nothing).
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

/** Sections whose items state what is true now: a stale claim there is believed. */
export const CURRENT_STATE_SECTIONS: readonly SectionName[] = ['pinned', 'facts'];

/** The section a memory-only score leaves out: the raw chat tail. */
export const VERBATIM_SECTION: SectionName = 'window';

/** Whether the package asserts one stale fact, and the first item that does. */
export interface StaleResult {
  id: string;
  supersededBy: string | null;
  text: string;
  asserted: boolean;
  /** The first current-state item asserting the claim, or null. */
  item: { section: SectionName; index: number; text: string } | null;
}

export interface RetentionScore {
  /** Σ(weight × fact score) / Σ weight, 0–1. */
  score: number;
  facts: FactResult[];
  /** The score on the package without its verbatim window, 0–1. */
  memoryOnlyScore: number;
  /** The facts scored on the package without its verbatim window. */
  memoryOnlyFacts: FactResult[];
  /** Every stale fact of the conversation, asserted or not (empty when the file lists none). */
  stale: StaleResult[];
  /** Asserted stale facts / stale facts (0 when there are none). */
  staleRate: number;
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

type PackageItem = ReturnType<typeof packageItems>[number];

/**
 * Whether the current-state items assert a stale fact: one item satisfies all of its groups and not all
 * groups of `current`, the key fact that supersedes it (when there is one).
 */
export function scoreStaleFact(fact: StaleFact, current: KeyFact | undefined, items: readonly PackageItem[]): StaleResult {
  const stale = new MustInclude(fact.mustInclude);
  const truth = current === undefined ? null : new MustInclude(current.mustInclude);
  for (const item of items) {
    if (!CURRENT_STATE_SECTIONS.includes(item.section)) continue;
    if (stale.count(item.text) < stale.groupCount) continue;
    if (truth !== null && truth.count(item.text) === truth.groupCount) continue;
    return { id: fact.id, supersededBy: fact.supersededBy, text: fact.text, asserted: true, item: { ...item } };
  }
  return { id: fact.id, supersededBy: fact.supersededBy, text: fact.text, asserted: false, item: null };
}

/** Asserted / all (0 when there are none). */
export function staleRate(stale: ReadonlyArray<Pick<StaleResult, 'asserted'>>): number {
  return stale.length === 0 ? 0 : stale.filter((entry) => entry.asserted).length / stale.length;
}

/**
 * Score a package: every fact, the weighted score (with and without the verbatim window), the stale
 * facts it asserts, the token reduction and budget compliance.
 */
export function scoreRetention(input: { facts: readonly KeyFact[]; staleFacts?: readonly StaleFact[]; pkg: ScoredPackage; originalTokens: number }): RetentionScore {
  const items = packageItems(input.pkg);
  const facts = input.facts.map((fact) => scoreFact(fact, items));
  const memoryItems = items.filter((item) => item.section !== VERBATIM_SECTION);
  const memoryOnlyFacts = input.facts.map((fact) => scoreFact(fact, memoryItems));
  const byId = new Map(input.facts.map((fact) => [fact.id, fact]));
  const stale = (input.staleFacts ?? []).map((fact) => scoreStaleFact(fact, fact.supersededBy === null ? undefined : byId.get(fact.supersededBy), items));
  return {
    score: weightedScore(facts),
    facts,
    memoryOnlyScore: weightedScore(memoryOnlyFacts),
    memoryOnlyFacts,
    stale,
    staleRate: staleRate(stale),
    budget: input.pkg.budget,
    contextTokens: input.pkg.tokens,
    originalTokens: input.originalTokens,
    tokenReduction: tokenReduction(input.pkg.tokens, input.originalTokens),
    budgetCompliant: input.pkg.tokens <= input.pkg.budget,
    fill: input.pkg.budget > 0 ? input.pkg.tokens / input.pkg.budget : 0,
  };
}
