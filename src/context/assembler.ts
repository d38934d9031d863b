import { StrataError } from '../core/errors.js';
import { mapPacked } from '../core/packed-map.js';
import { compareText } from '../core/text.js';
import type { Fact, FactKind, Message, Session } from '../core/types.js';
import { lineBreakTokens } from '../providers/tokenizer/separator-tokens.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantRepositories } from '../store/store.js';
import { addArtifactVersions } from './artifact-versions.js';
import { Assembly } from './assembly.js';
import type { ContextItem, ContextPackage, ContextSection, SectionName } from './context-package.js';
import { factRelevance } from './fact-relevance.js';
import { factLine, measureSections } from './render.js';
import { storeTurnReader, turnsInOrder, type TurnCache, type TurnReader } from './turn-reader.js';
import { keptTurnOptions, messageLine, turnOptions, type ExcludedMessages, type Line, type TurnMaterial, type TurnOption } from './turn-options.js';

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
   * constraints first, then the facts that share the query's words, then the rest. Facts that do not fit
   * the share fill whatever room recall leaves.
   */
  queryFactShare?: number;
  /**
   * With a query, the share of the budget the raw window may take beyond its newest turn (default 0.15);
   * older window turns that do not fit it are shown in their cheapest form.
   */
  queryWindowShare?: number;
  /**
   * Share of the recall room in which hits are shown at tier 2 (default 0.7); later hits get tier 1, so
   * the room covers more of them. Room left at the end upgrades the best hits to richer tiers.
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
const KIND_RANK: Readonly<Record<FactKind, number>> = { exception: 0, constraint: 1, goal: 2, preference: 3, fact: 4 };
/** Sections in the order items are dropped when the exact count is over budget. */
const DROP_ORDER: readonly SectionName[] = ['recalled', 'history', 'window', 'facts', 'artifacts', 'instructions', 'pinned'];

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
 * with one, exceptions and constraints first, then the facts the query names (best match first), then the rest.
 */
function rankFacts(facts: readonly Fact[], relevance: ReadonlyMap<string, number> | null): Fact[] {
  const byKind = (a: Fact, b: Fact): number => KIND_RANK[a.kind] - KIND_RANK[b.kind] || b.updatedTurn - a.updatedTurn || compareText(a.id, b.id);
  if (relevance === null) return [...facts].sort(byKind);
  const group = (fact: Fact): number => (KIND_RANK[fact.kind] <= KIND_RANK.constraint ? 0 : relevance.has(fact.id) ? 1 : 2);
  return [...facts].sort((a, b) => group(a) - group(b) || (relevance.get(b.id) ?? 0) - (relevance.get(a.id) ?? 0) || byKind(a, b));
}

/** A fact's line, with the time its turn was said (when known) for its `(turn N, date)` mark. */
function factItem(fact: Fact, tokenizer: Tokenizer, times: ReadonlyMap<number, string>): Line {
  const fields = { text: `- ${fact.text}`, turn: fact.updatedTurn, date: times.get(fact.updatedTurn) ?? null };
  const rendered = factLine(fields);
  const tokens = tokenizer.count(rendered);
  return {
    ...fields,
    tokens,
    sourceMessageIds: fact.sourceMessageIds,
    kind: 'fact',
    tier: null,
    factKind: fact.kind,
    role: null,
    cost: tokens + lineBreakTokens(rendered, tokenizer.count),
  };
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

  // Layer 1: pinned exceptions, measured exactly so they are present whenever they fit at all; then the instructions.
  const pinnedItems: ContextItem[] = [];
  let pinnedTokens = 0;
  for (const fact of facts.filter((candidate) => candidate.pinned)) {
    const item = factItem(fact, tokenizer, times);
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
  const unpinned = facts.filter((fact) => !fact.pinned);
  const relevance = query === '' ? null : factRelevance(unpinned, query);
  const factLimit = relevance === null ? budget : assembly.used + Math.floor(budget * queryFactShare);
  const deferred: Array<Line> = [];
  for (const fact of rankFacts(unpinned, relevance)) {
    const item = factItem(fact, tokenizer, times);
    const cost = assembly.costOf('facts', item.cost, fact.kind);
    if (assembly.used + cost <= factLimit && assembly.fits(cost)) assembly.add('facts', [item], cost);
    else if (relevance !== null) deferred.push(item);
    else assembly.omit(fact.sourceMessageIds, 'budget: base-truth fact did not fit');
  }

  // Layer 3: the raw window, newest turn first. A turn that does not fit verbatim degrades, and so do
  // all older window turns, so the verbatim chat tail stays in order.
  assembly.used -= reserved;
  let degrading = false;
  const windowLimit = relevance === null ? budget : assembly.used + reserved + Math.floor(budget * queryWindowShare);
  for (const [index, material] of windowMaterials.entries()) {
    const verbatim = verbatimOf(material);
    if (!degrading && (index === 0 || assembly.used + assembly.costOf('window', verbatim.cost) <= windowLimit) && assembly.tryAdd('window', verbatim.items, verbatim.cost)) continue;
    degrading = true;
    const options = turnOptions(material, countShort, { excluded: new Set(), topTier: 2 });
    // With a query the room goes to recall: a degraded window turn takes its cheapest form.
    if (relevance !== null) options.reverse();
    if (!options.some((option) => assembly.tryAdd('history', option.items, option.cost))) {
      assembly.omit(mapPacked(material.messages, (message) => message.id), 'budget: raw window turn did not fit');
    }
  }

  // Layer 5 (reserved share): archive hits for the query, best first. Hits first get a brief form (tier 2,
  // then tier 1 once the detail share is spent), so the room covers as many hits as it can; room left
  // afterwards upgrades the best hits, tier by tier.
  const recalledIds = new Set<string>();
  const recalledTurns = new Set<number>();
  if (query !== '' && windowStart > 1 && recallLimit > 0) {
    const reserve = Math.floor(assembly.remaining() * recallShare);
    const hits = await repositories.search.messages({ sessionId, query, limit: recallLimit, maxTurn: windowStart - 1 });
    // A memory's turn reader keeps the hits' turns warm between calls; without one, read just the hits.
    const messages = new Map<string, Message>();
    const cache = options.turnReader;
    if (hits.length > 0 && cache !== undefined) {
      // Turns by number, and only the hits' messages from them: hashing every id costs more.
      const turns = await cache.readTurns({ sessionId, turns: mapPacked(hits, (hit) => hit.turn) });
      for (const hit of hits) {
        const message = turns.get(hit.turn)?.messages.find((candidate) => candidate.id === hit.messageId);
        if (message !== undefined) messages.set(message.id, message);
      }
    } else if (hits.length > 0) {
      for (const message of await repositories.messages.getMany({ sessionId, messageIds: mapPacked(hits, (hit) => hit.messageId) })) messages.set(message.id, message);
    }
    const recalled: Array<{ message: Message; line: Line }> = [];
    let spent = 0;
    for (const hit of hits) {
      const message = messages.get(hit.messageId);
      if (message === undefined) continue;
      const line = messageLine(message, spent < reserve * recallDetailShare ? 2 : 1, countShort);
      const cost = assembly.costOf('recalled', line.cost);
      if (spent + cost > reserve || !assembly.fits(cost)) {
        assembly.omit([message.id], 'budget: recall share full');
        continue;
      }
      assembly.add('recalled', [], cost);
      spent += cost;
      recalled.push({ message, line });
      recalledIds.add(message.id);
      recalledTurns.add(message.turn);
    }
    for (const tier of [2, 3] as const) {
      for (const entry of recalled) {
        if ((entry.line.tier ?? 3) >= tier) continue;
        const richer = messageLine(entry.message, tier, countShort);
        const extra = richer.cost - entry.line.cost;
        if (spent + extra > reserve || !assembly.fits(extra)) continue;
        assembly.used += extra;
        spent += extra;
        entry.line = richer;
      }
    }
    assembly.sections.set('recalled', mapPacked(recalled, (entry) => entry.line));
  }

  // Facts the query share left out fill the room recall left, most important first.
  for (const item of deferred) {
    if (!assembly.tryAdd('facts', [item], item.cost)) assembly.omit(item.sourceMessageIds, 'budget: base-truth fact did not fit');
  }

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
      const cost = assembly.costOf('history', cheapest.cost);
      if (assembly.used + cost > limit) {
        pending = material;
        return;
      }
      assembly.add('history', [], cost);
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

/** A copy of an item with its own source list, without the assembler's working fields (such as `cost`). */
function copyItem(item: ContextItem): ContextItem {
  return {
    text: item.text,
    tokens: item.tokens,
    sourceMessageIds: [...item.sourceMessageIds],
    kind: item.kind,
    turn: item.turn,
    date: item.date,
    tier: item.tier,
    factKind: item.factKind,
    role: item.role,
  };
}

function sortSections(assembly: Assembly): ContextSection[] {
  const order: SectionName[] = ['instructions', 'pinned', 'artifacts', 'facts', 'history', 'recalled', 'window'];
  // Stable sort: items of one turn keep their message order.
  const byTurn = (a: ContextItem, b: ContextItem): number => (a.turn ?? 0) - (b.turn ?? 0);
  // The artifacts section is listed only when the query referred to a version that made it in.
  return mapPacked(order.filter((name) => name !== 'artifacts' || assembly.items(name).length > 0), (name) => {
    // The assembly's own items, which cached turn options may share: the caller gets copies (see finish).
    const items = assembly.items(name).slice();
    // Facts were chosen freshest first; they read better in the order they were established.
    if (name === 'history' || name === 'recalled' || name === 'facts') items.sort(byTurn);
    if (name === 'window') items.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
    return { name, tokens: items.reduce((sum, item) => sum + item.tokens, 0), items };
  });
}

/** Which item of a section goes first when trimming: the weakest fact, else the oldest item. */
function dropIndex(section: ContextSection): number {
  if (section.name !== 'facts') return 0;
  let weakest = 0;
  section.items.forEach((item, index) => {
    const current = section.items[weakest];
    if (current === undefined || item.factKind === null || current.factKind === null) return;
    const rank = KIND_RANK[item.factKind] - KIND_RANK[current.factKind] || (current.turn ?? 0) - (item.turn ?? 0);
    if (rank > 0) weakest = index;
  });
  return weakest;
}

/** Measure the rendering exactly and drop lowest-priority items until it fits. */
function finish(assembly: Assembly, budget: number, tokenizer: Tokenizer, warnings: string[]): ContextPackage {
  const sections = sortSections(assembly);
  let { messages: rendered, tokens } = measureSections(sections, tokenizer);
  while (tokens > budget) {
    // Drop from the least important non-empty section only, then measure again.
    const section = DROP_ORDER.map((name) => sections.find((candidate) => candidate.name === name)).find(
      (candidate) => candidate !== undefined && candidate.items.length > 0,
    );
    if (section === undefined) break;
    let excess = tokens - budget;
    while (excess > 0 && section.items.length > 0) {
      const [item] = section.items.splice(dropIndex(section), 1);
      if (item === undefined) break;
      assembly.omit(item.sourceMessageIds, 'budget: trimmed to fit the exact token count');
      if (section.name === 'pinned') warnings.push(`Pinned item "${item.text}" was dropped to fit a budget of ${budget} tokens.`);
      excess -= item.tokens + (section.name === 'window' ? 4 : 1);
    }
    section.tokens = section.items.reduce((sum, item) => sum + item.tokens, 0);
    ({ messages: rendered, tokens } = measureSections(sections, tokenizer));
  }
  const messages = rendered;
  const omitted = assembly.omitted();
  // The caller owns the sections it reads, so they are copies, made when first read: a chat turn only renders.
  let owned: ContextSection[] | undefined;
  const ownSections = (): ContextSection[] =>
    (owned ??= mapPacked(sections, (section) => ({ name: section.name, tokens: section.tokens, items: mapPacked(section.items, copyItem) })));
  return {
    budget,
    tokens,
    tokenizer: tokenizer.name,
    get sections() {
      return ownSections();
    },
    omitted,
    warnings,
    render: () => messages.map((message) => ({ ...message })),
    toJSON: () => ({
      budget,
      tokens,
      messages: messages.map((message) => ({ ...message })),
      // The caller's copies once made (they may have changed them), else the assembly's items, copied here.
      sections: (owned ?? sections).map((section) => ({
        name: section.name,
        tokens: section.tokens,
        items: section.items.map((item) => ({ text: item.text, tokens: item.tokens, sourceMessageIds: [...item.sourceMessageIds] })),
      })),
      omitted: omitted.map((omission) => ({ sourceMessageIds: [...omission.sourceMessageIds], reason: omission.reason })),
    }),
  };
}
