/**
 * The assembler: a context package under a hard token budget, built from sources in priority order —
 * pinned exceptions and instructions, the artifact versions a query names, the base-truth document, the
 * raw window, recalled archive hits (with a query) and older turns, degrading to lower tiers before they
 * are dropped. One `Assembly` alone decides what fits and records what was left out.
 */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import type { Session } from '../core/types.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';
import type { TenantRepositories } from '../store/store.js';
import { addArtifactVersions } from './artifact-versions.js';
import { Assembly } from './assembly.js';
import type { ContextPackage } from './context-package.js';
import { addDeferredFacts, addFacts } from './fact-source.js';
import { storeFactReader, type FactReader } from './fact-view.js';
import { NO_PAUSE, type Pause } from '../core/slices.js';
import { addHistory, contextualTokens } from './history-source.js';
import { finish } from './package-finish.js';
import { addLongTerm, markShown, type LongTermSource } from './long-term-source.js';
import { addPinned } from './pinned-source.js';
import { addRecalled, type Recalled, type RecallSearch } from './recall.js';
import { searchArchive } from '../store/archive-query.js';
import { storeTurnReader, type TurnCache } from './turn-reader.js';
import { addDegraded, addWindow, readWindow, reserveNewest, type RawWindow } from './window-source.js';

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
   * Share of the budget the `long-term` section may take (default 0.1): memories from the tenant's
   * other conversations that bear on the query, or on the user's newest message without one.
   */
  longTermShare?: number;
  /**
   * Share of the budget the artifact versions the query refers to may take together, ahead of the
   * base-truth document (default 0.5); a version that does not fit is shown as a truncated head.
   */
  artifactShare?: number;
  /**
   * Raw tokens of the newest conversation that history may reach back over (default: no bound; a memory
   * passes its `contextWindowTokens` setting, 30,000): older turns are archived, shown only when recalled.
   */
  contextWindowTokens?: number;
}

export interface AssembleContextOptions {
  repositories: TenantRepositories;
  session: Session;
  /** Hard limit on the rendered tokens, chat-format overhead included. */
  budget: number;
  /** Ranks older material when given: BM25, or whatever `search` does. */
  query?: string;
  /** How the archive is searched for the query (default: BM25 over the store's index). */
  search?: RecallSearch;
  tokenizer: Tokenizer;
  settings?: AssemblerSettings;
  /** Where older turns are read from: a memory's cache (default: the store, page by page). */
  turnReader?: TurnCache;
  /** Where the base-truth document is read from: a memory's cache (default: the store, every call). */
  factReader?: FactReader;
  /** The tenant's long-term memories for the `long-term` section (default: none, no section). */
  longTerm?: LongTermSource;
  /**
   * Called between the steps of assembly (the document, long-term memory, the facts and the window,
   * recall, history), so a large session's package does not hold the event loop for the whole of it
   * (default: no pause). A memory passes one that lets the event loop turn once a read has run a while.
   */
  pause?: Pause;
}

export const MAX_BUDGET = 10_000_000;
const MAX_RECALL_HITS = 400;

export function validateBudget(budget: unknown): number {
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1 || budget > MAX_BUDGET) {
    throw new StrataError(
      'INVALID_INPUT',
      `The budget must be a whole number of tokens from 1 to ${MAX_BUDGET.toLocaleString('en-US')} (got ${describeValue(budget)}).`,
    );
  }
  return budget;
}

/** A share setting clamped to 0–1, or its default. */
function share(value: number | undefined, fallback: number): number {
  return Math.min(1, Math.max(0, value ?? fallback));
}

/** The settings with their defaults, for a budget. */
function resolved(settings: AssemblerSettings, budget: number): Required<AssemblerSettings> {
  return {
    rawWindowTurns: Math.max(0, Math.floor(settings.rawWindowTurns ?? 6)),
    recallShare: share(settings.recallShare, 1),
    recallLimit: Math.max(0, Math.floor(settings.recallLimit ?? Math.min(MAX_RECALL_HITS, Math.max(40, Math.ceil(budget / 50))))),
    queryFactShare: share(settings.queryFactShare, 0.1),
    queryWindowShare: share(settings.queryWindowShare, 0.15),
    recallDetailShare: share(settings.recallDetailShare, 0.7),
    coverageShare: share(settings.coverageShare, 0.5),
    windowFloorShare: share(settings.windowFloorShare, 0.15),
    artifactShare: share(settings.artifactShare, 0.5),
    longTermShare: share(settings.longTermShare, 0.1),
    contextWindowTokens: Math.max(0, settings.contextWindowTokens ?? Number.POSITIVE_INFINITY),
  };
}

/** What the user said last in the window: what long-term memory is searched for without a query. */
function newestUserText(window: RawWindow): string {
  for (const material of window.materials) {
    const said = material.messages.find((message) => message.role === 'user');
    if (said !== undefined) return said.content.slice(0, 2_000);
  }
  return '';
}

/** Build a context package under a hard token budget (see the module comment). */
export async function assembleContext(options: AssembleContextOptions): Promise<ContextPackage> {
  const budget = validateBudget(options.budget);
  const { repositories, session, tokenizer } = options;
  const sessionId = session.id;
  const settings = resolved(options.settings ?? {}, budget);
  const query = options.query?.trim() ?? '';
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
  const reader = options.turnReader ?? storeTurnReader(repositories);
  const lines = reader.lines;

  const factReader = options.factReader ?? storeFactReader(repositories, tokenizer);
  const pause = options.pause ?? NO_PAUSE;
  const [view, last] = await Promise.all([factReader.read(session, pause), repositories.messages.last({ sessionId })]);
  await pause();

  addPinned(assembly, { view, session, tokenizer, warnings });
  if (query !== '') await addArtifactVersions(assembly, { repositories, sessionId, query, tokenizer, share: settings.artifactShare, warnings });
  const window = await readWindow(repositories, sessionId, last.turn, settings.rawWindowTurns);
  const newest = reserveNewest(assembly, window, settings.windowFloorShare, countShort);
  const placed =
    options.longTerm === undefined
      ? new Map<string, string>()
      : await addLongTerm(assembly, { source: options.longTerm, query: query !== '' ? query : newestUserText(window), room: Math.floor(budget * settings.longTermShare), countShort });
  await pause();
  // (A large document's words are read for the query in slices, the event loop turning between them.)
  if (query !== '') await view.terms().prepare(query, pause);
  const { relevance, deferred } = addFacts(assembly, { query, view, share: settings.queryFactShare });
  await pause();
  newest.release();
  const queryFirst = relevance !== null;
  const waiting = addWindow(assembly, window, { countShort, lines, queryFirst, share: settings.queryWindowShare, reserved: newest.tokens });

  await pause();
  let recalled: Recalled = { ids: new Set(), turns: new Set(), messageTurns: [] };
  if (query !== '' && window.start > 1 && settings.recallLimit > 0) {
    recalled = await addRecalled(assembly, {
      repositories,
      search: options.search ?? ((archiveQuery) => searchArchive(repositories.search, archiveQuery)),
      sessionId,
      query,
      limit: settings.recallLimit,
      maxTurn: window.start - 1,
      reserve: Math.floor(assembly.remaining() * settings.recallShare),
      detailShare: settings.recallDetailShare,
      countShort,
      lines,
      turnReader: options.turnReader,
      pause,
    });
  }
  await pause();
  // Facts the query share left out fill the room recall left; then the window turns that did not fit.
  addDeferredFacts(assembly, view, deferred);
  for (const material of waiting) addDegraded(assembly, material, { countShort, lines, queryFirst });

  const windowTokens = window.materials.reduce((sum, material) => sum + contextualTokens(material, settings.contextWindowTokens), 0);
  const { oldestCovered, archived } = await addHistory(assembly, {
    reader,
    sessionId,
    windowStart: window.start,
    countShort,
    coverageShare: settings.coverageShare,
    shownElsewhere: recalled,
    reachTokens: Math.max(0, settings.contextWindowTokens - windowTokens),
    windowTokens: settings.contextWindowTokens,
  });
  if (oldestCovered > 1) {
    // The older turns as one range: in a long session, listing their ids would be most of the package.
    const to = oldestCovered - 1;
    const stored = await repositories.messages.countUpToTurn({ sessionId, toTurn: to });
    // (Recalled messages of those turns are shown: they are not left out.)
    const count = stored - recalled.messageTurns.filter((turn) => turn <= to).length;
    const reason = archived
      ? `archived: turns 1–${to} lie beyond the contextual window (${settings.contextWindowTokens.toLocaleString('en-US')} tokens of raw conversation); recall finds them for a query`
      : `budget: turns 1–${to} did not fit`;
    if (count > 0) assembly.omitTurns({ from: 1, to }, count, reason);
  }
  const finished = finish(assembly, budget, tokenizer, warnings);
  // (The package's sections are copied when first read: only when a memory was placed.)
  if (options.longTerm !== undefined && placed.size > 0) await markShown(options.longTerm, finished.sections, placed);
  return finished;
}
