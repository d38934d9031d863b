/**
 * The base-truth document as a source: facts in the order they claim room. Without a query, the most
 * important kinds and the freshest first; with one, the facts the query names (constraints first) may
 * take only their share ahead of recall, and the rest wait to fill the room recall leaves.
 */
import type { Fact } from '../core/types.js';
import type { Assembly } from './assembly.js';
import type { FactView } from './fact-view.js';
import { KIND_RANK } from './package-finish.js';

/**
 * Lines tried in a row without one fitting, after which a fill stops building lines: the room left is
 * then smaller than the lines that compete for it, and a long document would otherwise build (and count)
 * thousands of lines that cannot fit. The rest are left out (or wait, with a query) without being built.
 */
export const MAX_MISSES_IN_A_ROW = 64;

export interface FactSourceOptions {
  query: string;
  /** The document; its listed facts are this source's. */
  view: FactView;
  /** With a query, the share of the budget the facts may take ahead of recall. */
  share: number;
}

export interface AddedFacts {
  /** How well each fact matches the query; null without one. */
  relevance: ReadonlyMap<string, number> | null;
  /** Facts waiting for the room recall leaves (with a query), most important first. */
  deferred: Fact[];
}

/** Constraints and the kinds ranked above them bind; the rest inform. */
const binds = (fact: Fact): boolean => KIND_RANK[fact.kind] <= KIND_RANK.constraint;

/** A listed document's facts by id with their places, and the binding facts first (the view's order otherwise). */
interface ListedOrder {
  placed: ReadonlyMap<string, { fact: Fact; place: number }>;
  bindingFirst: readonly Fact[];
}

/**
 * Worked out once per document (a view's `listed` never changes): ranking a 10,000-fact document for each
 * query walked and grouped every fact, about 5.7 ms a read; now a query sorts only the facts it names.
 */
const orders = new WeakMap<readonly Fact[], ListedOrder>();

function orderOf(listed: readonly Fact[]): ListedOrder {
  let order = orders.get(listed);
  if (order === undefined) {
    const placed = new Map(listed.map((fact, place) => [fact.id, { fact, place }]));
    order = { placed, bindingFirst: [...listed.filter(binds), ...listed.filter((fact) => !binds(fact))] };
    orders.set(listed, order);
  }
  return order;
}

/**
 * Facts in the order they claim room: without a query, the most important kinds and the freshest first
 * (the view's order); with one, the facts the query names (constraints first, then best match first),
 * then the other constraints, then the rest, each group in the view's order otherwise.
 */
function* rankFacts(listed: readonly Fact[], relevance: ReadonlyMap<string, number> | null): Iterable<Fact> {
  if (relevance === null) {
    yield* listed;
    return;
  }
  const { placed, bindingFirst } = orderOf(listed);
  // Each named fact's keys are looked up once, not in every comparison (a chat message as the query can
  // name thousands of a large document's facts).
  const named: Array<{ fact: Fact; binding: number; score: number; place: number }> = [];
  for (const [id, score] of relevance) {
    const found = placed.get(id);
    if (found !== undefined) named.push({ fact: found.fact, binding: Number(binds(found.fact)), score, place: found.place });
  }
  named.sort((a, b) => b.binding - a.binding || b.score - a.score || a.place - b.place);
  for (const entry of named) yield entry.fact;
  for (const fact of bindingFirst) if (!relevance.has(fact.id)) yield fact;
}

export function addFacts(assembly: Assembly, options: FactSourceOptions): AddedFacts {
  const { view } = options;
  const relevance = options.query === '' ? null : view.terms().relevance(options.query);
  const limit = relevance === null ? assembly.budget : assembly.used + Math.floor(assembly.budget * options.share);
  const deferred: Fact[] = [];
  const fits = (cost: number): boolean => assembly.used + cost <= limit && assembly.fits(cost);
  const leaveOut = (fact: Fact): void => {
    if (relevance !== null) deferred.push(fact);
    else assembly.omit(fact.sourceMessageIds, 'budget: base-truth fact did not fit');
  };
  let misses = 0;
  for (const fact of rankFacts(view.listed, relevance)) {
    // A line that cannot fit even at its floor is not built: a long document's lines are counted only
    // while there is room for them.
    if (misses >= MAX_MISSES_IN_A_ROW || !fits(view.floor(fact))) {
      leaveOut(fact);
      continue;
    }
    const item = view.line(fact);
    const lineCost = assembly.costOf('facts', item.cost, fact.kind);
    // (A line that does not fit without its day's heading is not charged for one.)
    const cost = fits(lineCost) ? lineCost + assembly.dayCost('facts', item.date, fact.kind) : lineCost;
    misses = fits(cost) ? 0 : misses + 1;
    if (misses === 0) assembly.add('facts', [item], cost);
    else leaveOut(fact);
  }
  return { relevance, deferred };
}

/** The deferred facts' lines, in the room recall left, most important first. */
export function addDeferredFacts(assembly: Assembly, view: FactView, deferred: readonly Fact[]): void {
  let misses = 0;
  for (const fact of deferred) {
    // (A line whose floor does not fit is never built.)
    const line = misses < MAX_MISSES_IN_A_ROW && assembly.fits(view.floor(fact)) ? view.line(fact) : null;
    if (line !== null && assembly.tryAdd('facts', [line], line.cost)) {
      misses = 0;
      continue;
    }
    if (line !== null) misses += 1;
    assembly.omit(() => view.sources(fact), 'budget: base-truth fact did not fit');
  }
}
