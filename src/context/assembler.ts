import { StrataError } from '../core/errors.js';
import { mapPacked } from '../core/packed-map.js';
import { compareText } from '../core/text.js';
import type { Fact, Message, Session } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantRepositories } from '../store/store.js';
import { addArtifactVersions } from './artifact-versions.js';
import { Assembly } from './assembly.js';
import type { ContextItem, ContextPackage } from './context-package.js';
import { factRelevance } from './fact-relevance.js';
import { measureSections } from './render.js';
import { factItem } from './fact-lines.js';
import { factDoubts } from '../core/fact-doubts.js';
import { storeTurnReader, turnsInOrder, type TurnCache, type TurnReader } from './turn-reader.js';
import { finish, KIND_RANK } from './package-finish.js';
import { addRecalled, type Recalled } from './recall.js';
import { keptTurnOptions, turnOptions, type ExcludedMessages, type Line, type TurnMaterial, type TurnOption } from './turn-options.js';

/** Tuning of the assembler; every field has a default. */
export interface AssemblerSettings {
  /** Turns kept verbatim at the end of the package (default 6). */
  rawWindowTurns?: number;
  /** Share of the budget left after layers 1–3 that recalled items may use when a query is given (default 1). */
  recallShare?: number;
  /** Archive hits considered per query (default 40, or one per 50 tokens of budget when that is more, at most 400). */
  recallLimit?: number;
  /**
   * With a query, the share of the budget the base-truth document may take ahead of recall (default 0.1):
   * the facts that share the query's words (constraints among them first), then the other constraints, then the rest. Facts that do not fit
   * the share fill whatever room recall leaves.
   */
  queryFactShare?: number;
  /**
   * With a query, the share of the budget the raw window may take beyond its newest turn (default 0.15);
   * older window turns that do not fit it are shown in their cheapest form.
   */
  queryWindowShare?: number;
  /**
   * Share of the recall room in which hits are shown in full (default 0.7); later hits get tier 1, so
   * the room covers more of them. Room left at the end upgrades those to richer tiers, best first.
   */
  recallDetailShare?: number;
  /** Share of the history budget spent first on covering as many turns as possible, cheapest form (default 0.5). */
  coverageShare?: number;
  /**
   * Share of the budget the newest turn may take ahead of the base-truth document (default 0.15), so a
   * small budget full of facts still shows the latest exchange.
   */
  windowFloorShare?: number;
  /**
   * Share of the budget the artifact versions the query refers to may take together, ahead of the
   * base-truth document (default 0.5); a version that does not fit is shown as a truncated head.
   */
  artifactShare?: number;
}

export interface AssembleContextOptions {
  repositories: TenantRepositories;
  session: Session;
  /** Hard limit on the rendered tokens, chat-format overhead included. */
  budget: number;
  /** Ranks older material by BM25 when given. */
  query?: string;
  tokenizer: Tokenizer;
  settings?: AssemblerSettings;
  /** Where older turns are read from: a memory's cache (default: the store, page by page). */
  turnReader?: TurnCache;
}

export const MAX_BUDGET = 10_000_000;
const PAGE_TURNS = 64;
const MAX_RECALL_HITS = 400;

export function validateBudget(budget: unknown): number {
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1 || budget > MAX_BUDGET) {
    throw new StrataError(
      'INVALID_INPUT',
      `The budget must be a whole number of tokens from 1 to ${MAX_BUDGET.toLocaleString('en-US')} (got ${String(budget)}).`,
    );
  }
  return budget;
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

function windowItem(message: Message, countShort: (text: string) => number): ContextItem {
  const prefix = message.speaker === null ? '' : `${message.speaker}: `;
  return {
    text: `${prefix}${message.content}`,
    tokens: message.tokens.tier3 + (prefix === '' ? 0 : countShort(prefix)),
    sourceMessageIds: [message.id],
    kind: 'message',
    turn: message.turn,
    date: message.sentAt,
    tier: 3,
    factKind: null,
    role: message.role,
  };
}

/**
 * Turns older than `fromTurn`, newest first, read page by page: a turn of a page already read is
 * returned at once, a new page as a promise (awaiting every turn would cost a microtask each).
 */
function olderTurns(reader: TurnReader, sessionId: string, fromTurn: number): () => TurnMaterial | null | Promise<TurnMaterial | null> {
  let cursor = fromTurn;
  let buffer: TurnMaterial[] = [];
  const load = async (): Promise<TurnMaterial | null> => {
    while (buffer.length === 0 && cursor >= 1) {
      const low = Math.max(1, cursor - PAGE_TURNS + 1);
      buffer = await reader.read({ sessionId, fromTurn: low, toTurn: cursor });
      cursor = low - 1;
    }
    // Oldest first in the page: the newest is the last.
    return buffer.pop() ?? null;
  };
  return () => buffer.pop() ?? load();
}

/**
 * Build a context package under a hard token budget, in priority order:
 * pinned exceptions and instructions, the base-truth document, the raw window, the older turns
 * (degrading to lower tiers before they are dropped) and, with a query, recalled archive hits.
 */
export async function assembleContext(options: AssembleContextOptions): Promise<ContextPackage> {
  const budget = validateBudget(options.budget);
  const { repositories, session, tokenizer } = options;
  const sessionId = session.id;
  const rawWindowTurns = Math.max(0, Math.floor(options.settings?.rawWindowTurns ?? 6));
  const recallShare = Math.min(1, Math.max(0, options.settings?.recallShare ?? 1));
  const recallLimit = Math.max(0, Math.floor(options.settings?.recallLimit ?? Math.min(MAX_RECALL_HITS, Math.max(40, Math.ceil(budget / 50)))));
  const queryFactShare = Math.min(1, Math.max(0, options.settings?.queryFactShare ?? 0.1));
  const queryWindowShare = Math.min(1, Math.max(0, options.settings?.queryWindowShare ?? 0.15));
  const recallDetailShare = Math.min(1, Math.max(0, options.settings?.recallDetailShare ?? 0.7));
  const query = options.query?.trim() ?? '';
  const turnReader = options.turnReader ?? storeTurnReader(repositories);
  const coverageShare = Math.min(1, Math.max(0, options.settings?.coverageShare ?? 0.5));
  const windowFloorShare = Math.min(1, Math.max(0, options.settings?.windowFloorShare ?? 0.15));
  const artifactShare = Math.min(1, Math.max(0, options.settings?.artifactShare ?? 0.5));

  const shortCounts = new Map<string, number>();
  const countShort = (text: string): number => {
    let tokens = shortCounts.get(text);
    if (tokens === undefined) {
      tokens = tokenizer.count(text);
      shortCounts.set(text, tokens);
    }
    return tokens;
  };
  const assembly = new Assembly(budget, countShort);
  const warnings: string[] = [];

  const [facts, last] = await Promise.all([
    repositories.facts.list({ sessionId }),
    repositories.messages.last({ sessionId }),
  ]);
  // When each fact's turn was said, for the `(turn N, date)` mark of its line.
  const times = facts.length === 0 ? new Map<number, string>() : await repositories.messages.sentTimes({ sessionId, turns: [...new Set(facts.map((fact) => fact.updatedTurn))] });
  // A fact a newer one may replace is shown inside the newer one's line (see `fact-lines.ts`).
  const doubts = factDoubts(facts);

  // Layer 1: pinned exceptions, measured exactly so they are present whenever they fit at all; then the instructions.
  const pinnedItems: ContextItem[] = [];
  let pinnedTokens = 0;
  for (const fact of facts.filter((candidate) => candidate.pinned)) {
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
  if (session.instructions.trim() !== '') {
    const tokens = tokenizer.count(session.instructions);
    const item: ContextItem = { text: session.instructions, tokens, sourceMessageIds: [], kind: 'instructions', turn: null, date: null, tier: null, factKind: null, role: null };
    if (!assembly.tryAdd('instructions', [item], tokens)) {
      assembly.omit([], 'the session instructions do not fit the budget');
      warnings.push(`The session instructions (${tokens} tokens) did not fit a budget of ${budget} tokens.`);
    }
  }

  // Artifact versions the query asks for ("the version from turn 3"), ahead of everything but layer 1.
  if (query !== '') await addArtifactVersions(assembly, { repositories, sessionId, query, tokenizer, share: artifactShare, warnings });

  // The raw window: newest turn first; a turn that does not fit verbatim degrades.
  const lastTurn = last.turn;
  const tail = lastTurn === 0 ? [] : await repositories.turns.listBefore({ sessionId, beforeTurn: lastTurn + 1, limit: rawWindowTurns + 2 });
  let windowStart = Math.max(1, lastTurn - rawWindowTurns + 1);
  for (const summary of tail) {
    if (summary.turn < windowStart && summary.turn + summary.windowExtension > lastTurn - rawWindowTurns) windowStart = summary.turn;
  }
  if (rawWindowTurns === 0) windowStart = lastTurn + 1;
  const windowMaterials =
    lastTurn === 0 || windowStart > lastTurn
      ? []
      : turnsInOrder(await repositories.messages.listByTurns({ sessionId, fromTurn: windowStart, toTurn: lastTurn }), tail).reverse();
  const verbatimOf = (material: TurnMaterial): { items: ContextItem[]; cost: number } => {
    const items = mapPacked(material.messages, (message) => windowItem(message, countShort));
    return { items, cost: items.reduce((sum, item) => sum + assembly.windowCost(item), 0) };
  };
  // Reserve room for the newest turn (up to its floor share) so facts cannot crowd out the latest exchange.
  const newest = windowMaterials[0];
  const reserved =
    newest === undefined ? 0 : Math.max(0, Math.min(Math.floor(budget * windowFloorShare), assembly.costOf('window', verbatimOf(newest).cost), assembly.remaining()));
  assembly.used += reserved;

  // Layer 2: the base-truth document, most important kinds and freshest facts first. With a query it may
  // take only its share ahead of recall, constraints and the facts the query names first.
  const unpinned = facts.filter((fact) => !fact.pinned && !doubts.folded.has(fact.id));
  const relevance = query === '' ? null : factRelevance(unpinned, query);
  const factLimit = relevance === null ? budget : assembly.used + Math.floor(budget * queryFactShare);
  const deferred: Array<Line> = [];
  for (const fact of rankFacts(unpinned, relevance)) {
    const item = factItem(fact, tokenizer, times, doubts);
    const cost = assembly.costOf('facts', item.cost, fact.kind);
    if (assembly.used + cost <= factLimit && assembly.fits(cost)) assembly.add('facts', [item], cost);
    else if (relevance !== null) deferred.push(item);
    else assembly.omit(fact.sourceMessageIds, 'budget: base-truth fact did not fit');
  }

  // Layer 3: the raw window, newest turn first. A turn that does not fit verbatim degrades, and so do
  // all older window turns, so the verbatim chat tail stays in order.
  assembly.used -= reserved;
  let degrading = false;
  // A window turn that does not fit verbatim moves to the history section, degraded; with a query it
  // waits for recall and then takes its cheapest form, since the room goes to the query first.
  const degraded: TurnMaterial[] = [];
  const addDegraded = (material: TurnMaterial): void => {
    const options = turnOptions(material, countShort, { excluded: new Set(), topTier: 2 });
    if (relevance !== null) options.reverse();
    if (!options.some((option) => assembly.tryAdd('history', option.items, option.cost))) {
      assembly.omit(mapPacked(material.messages, (message) => message.id), 'budget: raw window turn did not fit');
    }
  };
  const windowLimit = relevance === null ? budget : assembly.used + reserved + Math.floor(budget * queryWindowShare);
  for (const [index, material] of windowMaterials.entries()) {
    const verbatim = verbatimOf(material);
    if (!degrading && (index === 0 || assembly.used + assembly.costOf('window', verbatim.cost) <= windowLimit) && assembly.tryAdd('window', verbatim.items, verbatim.cost)) continue;
    degrading = true;
    if (relevance === null) addDegraded(material);
    else degraded.push(material);
  }

  // Layer 5 (reserved share): archive hits for the query, best first (see `recall.ts`).
  let recalled: Recalled = { ids: new Set(), turns: new Set() };
  if (query !== '' && windowStart > 1 && recallLimit > 0) {
    recalled = await addRecalled(assembly, {
      repositories,
      sessionId,
      query,
      limit: recallLimit,
      maxTurn: windowStart - 1,
      reserve: Math.floor(assembly.remaining() * recallShare),
      detailShare: recallDetailShare,
      countShort,
      turnReader: options.turnReader,
    });
  }
  const { ids: recalledIds, turns: recalledTurns } = recalled;
  // Facts the query share left out fill the room recall left, most important first; then the window
  // turns that did not fit, in their cheapest form.
  for (const item of deferred) {
    if (!assembly.tryAdd('facts', [item], item.cost)) assembly.omit(item.sourceMessageIds, 'budget: base-truth fact did not fit');
  }
  for (const material of degraded) addDegraded(material);

  // Layer 4: older turns, newest first. First cover as many turns as the coverage share allows in
  // their cheapest form, then upgrade the newest to richer tiers, then keep covering older turns.
  const next = olderTurns(turnReader, sessionId, windowStart - 1);
  const chosen: Array<{ options: TurnOption[]; index: number }> = [];
  // Recalled messages are shown in their own section, not again with their turns.
  const shownElsewhere: ExcludedMessages = { ids: recalledIds, turns: recalledTurns };
  const coverageLimit = assembly.used + Math.floor(assembly.remaining() * coverageShare);
  let pending: TurnMaterial | null = null;
  let oldestCovered = windowStart;
  const cover = async (limit: number): Promise<void> => {
    for (let found = pending ?? next(); ; found = next()) {
      const material = found instanceof Promise ? await found : found;
      if (material === null) break;
      pending = null;
      const options = keptTurnOptions(material, countShort, shownElsewhere);
      const cheapest = options[options.length - 1];
      if (cheapest === undefined) {
        oldestCovered = material.turn;
        continue;
      }
      const sentAt = cheapest.items[0]?.date ?? null;
      const cost = assembly.costOf('history', cheapest.cost) + assembly.dayCost('history', sentAt);
      if (assembly.used + cost > limit) {
        pending = material;
        return;
      }
      assembly.add('history', [], cost);
      assembly.noteDay('history', sentAt);
      chosen.push({ options, index: options.length - 1 });
      oldestCovered = material.turn;
    }
  };
  await cover(coverageLimit);
  for (const entry of chosen) {
    const current = entry.options[entry.index];
    if (current === undefined) continue;
    for (let index = 0; index < entry.index; index += 1) {
      const richer = entry.options[index];
      if (richer !== undefined && assembly.fits(richer.cost - current.cost)) {
        assembly.used += richer.cost - current.cost;
        entry.index = index;
        break;
      }
    }
  }
  await cover(budget);
  // Oldest turn first, as the section is shown (`chosen` runs newest first), so sorting it finds one
  // ordered run; then the window turns that degraded into the section.
  const history: ContextItem[] = [];
  for (let index = chosen.length - 1; index >= 0; index -= 1) {
    const entry = chosen[index];
    if (entry !== undefined) history.push(...(entry.options[entry.index]?.items ?? []));
  }
  history.push(...assembly.items('history'));
  assembly.sections.set('history', history);
  if (oldestCovered > 1) {
    const older = await repositories.messages.listIds({ sessionId, toTurn: oldestCovered - 1 });
    const ids = older.filter((id) => !recalledIds.has(id));
    if (ids.length > 0) assembly.omit(ids, `budget: turns 1–${oldestCovered - 1} did not fit`);
  }

  return finish(assembly, budget, tokenizer, warnings);
}
