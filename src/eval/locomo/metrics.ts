/**
 * Evidence recall at a budget (ER@B), answer containment and budget compliance, as defined in
 * `design/evaluation.md` §3.
 *
 * Credit rule: an item credits a message only if it carries that message's own content — a message item
 * (any tier), a turn-summary item, an artifact version (verbatim content of its message), or a fact with
 * exactly one source. Other items (facts with several
 * sources, session-level summaries) credit nothing for ER; what they point at is reported separately as
 * session-level recall.
 */
import { normalizeText } from '../../core/text.js';
import type { ContextItem } from '../../context/context-package.js';
import { CATEGORY_NAMES, type LocomoCategory } from './dataset.js';

/** Message ids an item credits for ER, and those it only points at (session level). */
export function itemCredit(item: Pick<ContextItem, 'kind' | 'sourceMessageIds'>): { credited: readonly string[]; sessionLevel: readonly string[] } {
  switch (item.kind) {
    case 'message':
    case 'turn-summary':
    case 'artifact': // an artifact version is verbatim content of the one message it came from
      return { credited: item.sourceMessageIds, sessionLevel: [] };
    case 'fact':
    case 'memory': // a long-term memory states what its messages said, as a fact does
      return item.sourceMessageIds.length === 1 ? { credited: item.sourceMessageIds, sessionLevel: [] } : { credited: [], sessionLevel: item.sourceMessageIds };
    case 'instructions':
      return { credited: [], sessionLevel: [] };
  }
}

/** The credited and session-level message ids of a package's items. */
export function packageCredit(sections: ReadonlyArray<{ items: ReadonlyArray<Pick<ContextItem, 'kind' | 'sourceMessageIds'>> }>): {
  credited: Set<string>;
  sessionLevel: Set<string>;
} {
  const credited = new Set<string>();
  const sessionLevel = new Set<string>();
  for (const section of sections) {
    for (const item of section.items) {
      const credit = itemCredit(item);
      for (const id of credit.credited) credited.add(id);
      for (const id of credit.sessionLevel) sessionLevel.add(id);
    }
  }
  return { credited, sessionLevel };
}

/** |E ∩ P| / |E|; null when there is no evidence. */
export function evidenceRecall(evidence: readonly string[], covered: ReadonlySet<string>): number | null {
  const distinct = new Set(evidence);
  if (distinct.size === 0) return null;
  let hits = 0;
  for (const id of distinct) if (covered.has(id)) hits += 1;
  return hits / distinct.size;
}

/** Whether `phrase` appears in `text` as whole words, both already normalised. */
export function containsPhrase(normalizedText: string, normalizedPhrase: string): boolean {
  if (normalizedPhrase === '') return false;
  return ` ${normalizedText} `.includes(` ${normalizedPhrase} `);
}

/** The normalised answer when it appears verbatim in the normalised transcript, else null (not scored). */
export function containableAnswer(answer: string | null, normalizedTranscript: string): string | null {
  if (answer === null) return null;
  const normalized = normalizeText(answer);
  return containsPhrase(normalizedTranscript, normalized) ? normalized : null;
}

/** One QA item scored on one package. */
export interface ItemScore {
  system: string;
  budget: number;
  category: LocomoCategory;
  /** ER of the item; null when it has no evidence (left out of the averages). */
  evidenceRecall: number | null;
  /** Share of the evidence that session-level items point at; null when it has no evidence. */
  sessionLevelRecall: number | null;
  /** Whether the answer is in the package; null when the answer is not in the transcript (not scored). */
  answerContained: boolean | null;
  /** Rendered tokens of the package. */
  tokens: number;
}

export type CategoryLabel = '1' | '2' | '3' | '4' | '5' | '1-4' | 'all';

export const CATEGORY_LABELS: readonly CategoryLabel[] = ['1', '2', '3', '4', '5', '1-4', 'all'];

/** The name of a category label in LoCoMo-paper numbering ("1" → "multi-hop", "1-4" → "categories 1–4"). */
export function categoryName(label: CategoryLabel): string {
  if (label === '1-4') return 'categories 1–4';
  if (label === 'all') return 'all categories';
  return CATEGORY_NAMES[Number(label) as LocomoCategory];
}

function inCategory(label: CategoryLabel, category: LocomoCategory): boolean {
  if (label === 'all') return true;
  if (label === '1-4') return category <= 4;
  return String(category) === label;
}

/** One row of the results: a system at a budget over a category. */
export interface ResultRow {
  system: string;
  budget: number;
  category: CategoryLabel;
  /** Items with evidence, over which `evidenceRecall` is averaged. */
  n: number;
  /** Mean ER (0–1); null when n is 0. */
  evidenceRecall: number | null;
  /** Share of scorable items whose answer is in the package (0–1); null when none is scorable. */
  answerContainment: number | null;
  /** Items whose answer appears in the transcript (the denominator of answerContainment). */
  answerItems: number;
  /** Mean share of the evidence that session-level items point at (0–1); null when n is 0. */
  sessionLevelRecall: number | null;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Average item scores per system, budget and category (1–5, "1-4" and "all"), in the order systems and budgets first appear. */
export function aggregate(scores: readonly ItemScore[]): ResultRow[] {
  const systems = [...new Set(scores.map((score) => score.system))];
  const budgets = [...new Set(scores.map((score) => score.budget))];
  const rows: ResultRow[] = [];
  for (const system of systems) {
    for (const budget of budgets) {
      const group = scores.filter((score) => score.system === system && score.budget === budget);
      if (group.length === 0) continue;
      for (const label of CATEGORY_LABELS) {
        const items = group.filter((score) => inCategory(label, score.category));
        const recalls = items.flatMap((score) => (score.evidenceRecall === null ? [] : [score.evidenceRecall]));
        const sessionLevel = items.flatMap((score) => (score.sessionLevelRecall === null ? [] : [score.sessionLevelRecall]));
        const answers = items.flatMap((score) => (score.answerContained === null ? [] : [score.answerContained ? 1 : 0]));
        rows.push({
          system,
          budget,
          category: label,
          n: recalls.length,
          evidenceRecall: mean(recalls),
          answerContainment: mean(answers),
          answerItems: answers.length,
          sessionLevelRecall: mean(sessionLevel),
        });
      }
    }
  }
  return rows;
}

/** Share of packages whose rendered tokens are within their budget, and their mean fill (tokens / budget). */
export function budgetCompliance(packages: ReadonlyArray<{ tokens: number; budget: number }>): { compliance: number; meanFill: number } {
  if (packages.length === 0) return { compliance: 1, meanFill: 0 };
  let within = 0;
  let fill = 0;
  for (const pkg of packages) {
    if (pkg.tokens <= pkg.budget) within += 1;
    fill += pkg.tokens / pkg.budget;
  }
  return { compliance: within / packages.length, meanFill: fill / packages.length };
}

/** Rendered tokens of a system's packages at one budget. */
export interface TokenUsage {
  system: string;
  budget: number;
  /** Packages measured (one per QA item); at least 1. */
  packages: number;
  /** Mean rendered tokens of a package, chat overhead included. */
  mean: number;
  /** Largest rendered tokens of a package. */
  max: number;
  /** Mean share of the budget a package fills: mean / budget. */
  meanFill: number;
}

/** Mean and largest package tokens per system and budget, in the order systems and budgets first appear. */
export function tokenUsage(packages: ReadonlyArray<Pick<ItemScore, 'system' | 'budget' | 'tokens'>>): TokenUsage[] {
  const groups = new Map<string, { system: string; budget: number; tokens: number[] }>();
  for (const pkg of packages) {
    const key = `${pkg.system}\u0000${pkg.budget}`;
    const group = groups.get(key) ?? { system: pkg.system, budget: pkg.budget, tokens: [] };
    group.tokens.push(pkg.tokens);
    groups.set(key, group);
  }
  const systems = [...new Set(packages.map((pkg) => pkg.system))];
  const budgets = [...new Set(packages.map((pkg) => pkg.budget))];
  const rows: TokenUsage[] = [];
  for (const system of systems) {
    for (const budget of budgets) {
      const group = groups.get(`${system}\u0000${budget}`);
      if (group === undefined) continue;
      const mean = group.tokens.reduce((sum, value) => sum + value, 0) / group.tokens.length;
      rows.push({ system, budget, packages: group.tokens.length, mean, max: group.tokens.reduce((largest, value) => Math.max(largest, value), 0), meanFill: mean / budget });
    }
  }
  return rows;
}
