/**
 * Recall from long-term memory, offline and deterministic: the paths run in turn and their finds are
 * reranked together. Words (the store's search, then the share of the query each memory holds), tags the
 * query names (the search finds memories by their tags' words too), edges from what was found (bounded depth, chosen types), and temporal filters: changed
 * since, not reviewed since, and the value as it stood at a time (from the versions). Recall can say
 * nothing is relevant; what it returns is marked as accessed.
 */
import { byRelevance, isRelevant, namedTags, recallTerms, scoreByLink, scoreByWords, specificTerms, type ScoredMemory } from '../core/long-term-ranking.js';
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { EDGE_TYPES, isEdgeType, normaliseTag, type EdgeType, type LongTermMemory } from '../core/long-term-memory.js';
import type { LongTermRepository } from '../store/long-term-store.js';
import type { RecallOptions } from './long-term-api.js';

export interface RecallRequest {
  query: string;
  limit: number;
  /** Only memories carrying every one of these (normalised) tags. */
  tags: readonly string[];
  /** Edges followed from what was found: 0 follows none. */
  depth: number;
  edgeTypes: readonly EdgeType[];
  changedSince: string | null;
  notReviewedSince: string | null;
  /** Show each memory as it stood then (memories made later are left out). */
  asOf: string | null;
  /** Whether tags the query names are a path (default true; a context package's recall leaves it out, for speed). */
  tagPath?: boolean;
  /** Whether what is returned is marked as accessed (default true; a package marks what it places). */
  markAccessed?: boolean;
  /** Leave out memories that came from this session alone (a package's own session: its facts hold them). */
  besidesSession?: string;
}

export interface RecallAnswer {
  memories: ScoredMemory[];
  /** True when no memory is relevant to the query (within the filters). */
  nothingRelevant: boolean;
}

const RECALL_SHAPE = 'recall() takes { query, limit?, tags?, depth?, edgeTypes?, changedSince?, notReviewedSince?, asOf? }';

function invalid(what: string): StrataError {
  return new StrataError('INVALID_INPUT', `${what} (${RECALL_SHAPE}).`);
}

function checkTime(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  const time = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/u.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) throw invalid(`${name} is an ISO-8601 time like "2026-05-01" or "2026-05-01T10:00:00Z"; got ${describeValue(value)}`);
  return new Date(time).toISOString();
}

function checkWhole(value: unknown, name: string, range: [number, number], fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range[0] || value > range[1]) {
    throw invalid(`${name} is a whole number from ${String(range[0])} to ${String(range[1])}; got ${describeValue(value)}`);
  }
  return value;
}

/** The request `recall()` was given, checked (INVALID_INPUT naming what is wrong) and with its defaults. */
export function checkRecallRequest(options: unknown): RecallRequest {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid(`Got ${describeValue(options)}`);
  const given = options as Partial<Record<keyof RecallOptions, unknown>>;
  if (typeof given.query !== 'string' || given.query.length > 10_000) throw invalid(`query is text of at most 10,000 characters; got ${describeValue(given.query)}`);
  if (given.tags !== undefined && !Array.isArray(given.tags)) throw invalid(`tags is a list of text; got ${describeValue(given.tags)}`);
  if (given.edgeTypes !== undefined) {
    const wrong = Array.isArray(given.edgeTypes) ? (given.edgeTypes as unknown[]).find((type) => !isEdgeType(type)) : given.edgeTypes;
    if (!Array.isArray(given.edgeTypes) || wrong !== undefined) throw invalid(`edgeTypes is a list of ${EDGE_TYPES.join(', ')}; got ${describeValue(wrong)}`);
  }
  return {
    query: given.query,
    limit: checkWhole(given.limit, 'limit', [1, 100], 8),
    tags: [...new Set(((given.tags as unknown[] | undefined) ?? []).map((tag) => normaliseTag(tag)))],
    depth: checkWhole(given.depth, 'depth', [0, 2], 1),
    edgeTypes: (given.edgeTypes as EdgeType[] | undefined) ?? [...EDGE_TYPES],
    changedSince: checkTime(given.changedSince, 'changedSince'),
    notReviewedSince: checkTime(given.notReviewedSince, 'notReviewedSince'),
    asOf: checkTime(given.asOf, 'asOf'),
  };
}

/** Candidates each path may bring before reranking. */
const CANDIDATES = 50;
/** Memories whose edges are followed, per level. */
const FOLLOWED = 5;

function passes(memory: LongTermMemory, request: RecallRequest, tagged: ReadonlySet<string> | null): boolean {
  if (memory.deprecated || (tagged !== null && !tagged.has(memory.id))) return false;
  const besides = request.besidesSession;
  if (besides !== undefined && memory.sources.length > 0 && memory.sources.every((source) => source.sessionId === besides)) return false;
  if (request.changedSince !== null && memory.modifiedAt < request.changedSince) return false;
  if (request.notReviewedSince !== null && memory.reviewedAt !== null && memory.reviewedAt >= request.notReviewedSince) return false;
  return request.asOf === null || memory.createdAt <= request.asOf;
}

/** Follow edges from the best finds, level by level, adding the memories they reach. */
async function follow(repository: LongTermRepository, found: Map<string, ScoredMemory>, request: RecallRequest, keep: (memory: LongTermMemory) => boolean): Promise<void> {
  let frontier = [...found.values()].sort(byRelevance).slice(0, FOLLOWED);
  for (let level = 0; level < request.depth && frontier.length > 0; level += 1) {
    const next: ScoredMemory[] = [];
    for (const from of frontier) {
      for (const edge of await repository.edges({ id: from.memory.id })) {
        if (!request.edgeTypes.includes(edge.type)) continue;
        const outgoing = edge.fromId === from.memory.id;
        const otherId = outgoing ? edge.toId : edge.fromId;
        if (found.has(otherId)) continue;
        const other = await repository.get({ id: otherId });
        if (other === null || !keep(other)) continue;
        const scored = scoreByLink(other, from, edge.type, outgoing);
        found.set(otherId, scored);
        next.push(scored);
      }
    }
    frontier = next.sort(byRelevance).slice(0, FOLLOWED);
  }
}

/** Each memory as it stood at `asOf`: the value of its last version made by then. */
async function asItStood(repository: LongTermRepository, scored: ScoredMemory[], asOf: string): Promise<ScoredMemory[]> {
  const shown: ScoredMemory[] = [];
  for (const entry of scored) {
    const versions = (await repository.versions({ id: entry.memory.id })).filter((version) => version.at <= asOf);
    const then = versions.at(-1);
    if (then === undefined || then.deprecated) continue;
    shown.push({ ...entry, memory: { ...entry.memory, value: then.value, version: then.version, deprecated: false, modifiedAt: then.at }, reason: `${entry.reason}; as it stood then (version ${String(then.version)})` });
  }
  return shown;
}

/** Run the paths for a request (see the module comment). */
export async function recallMemories(repository: LongTermRepository, request: RecallRequest, now: string): Promise<RecallAnswer> {
  const terms = recallTerms(request.query);
  const specific = specificTerms(request.query);
  const tagged = request.tags.length === 0 ? null : new Set((await repository.tagged({ tags: request.tags, limit: 10_000 })).map((memory) => memory.id));
  const keep = (memory: LongTermMemory): boolean => passes(memory, request, tagged);
  const found = new Map<string, ScoredMemory>();
  const consider = (scored: ScoredMemory): void => {
    const known = found.get(scored.memory.id);
    if (keep(scored.memory) && (known === undefined || known.score < scored.score)) found.set(scored.memory.id, scored);
  };
  if (terms.length > 0) {
    // The search finds memories by the words of their tags too; a tag the query names is a path of its own.
    for (const memory of await repository.search({ terms, limit: CANDIDATES })) {
      const { shared, ...scored } = scoreByWords(memory, terms);
      if (isRelevant({ ...scored, shared }, specific)) consider(scored);
      if (request.tagPath === false) continue;
      const tags = (await repository.tags({ id: memory.id })).map((tag) => tag.tag);
      const named = namedTags(tags, terms)[0];
      // Found by a tag: it answers the share of the query its value and its tags hold together.
      if (named !== undefined) consider({ memory, score: scoreByWords(memory, terms, tags).score, path: 'tag', reason: `tagged ${named}, which the query names` });
    }
    await follow(repository, found, request, keep);
  } else if (request.changedSince !== null || request.notReviewedSince !== null || request.asOf !== null || tagged !== null) {
    // No query: the filters alone choose, the most recently modified first.
    const listed = tagged === null ? await repository.list({ limit: 1_000 }) : await repository.tagged({ tags: request.tags, limit: 1_000 });
    for (const memory of listed) consider({ memory, score: 0.5, path: 'time', reason: timeReason(memory, request) });
  }
  let ranked = [...found.values()].sort(byRelevance).slice(0, request.limit);
  if (request.asOf !== null) ranked = await asItStood(repository, ranked, request.asOf);
  if (ranked.length > 0 && request.markAccessed !== false) await repository.mark({ ids: ranked.map((entry) => entry.memory.id), what: 'accessed', at: now });
  return { memories: ranked, nothingRelevant: ranked.length === 0 };
}

function timeReason(memory: LongTermMemory, request: RecallRequest): string {
  if (request.notReviewedSince !== null) return memory.reviewedAt === null ? 'never reviewed' : `last reviewed ${memory.reviewedAt.slice(0, 10)}`;
  if (request.changedSince !== null) return `changed ${memory.modifiedAt.slice(0, 10)}`;
  return request.asOf !== null ? 'held then' : 'carries the tags asked for';
}
