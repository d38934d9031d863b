/**
 * Long-term memories of the in-memory fake store: plain maps in the tenant's state, kept apart from the
 * SQL adapters (no shared code but the model's own rules, `mergeSources` and `memoryKey`).
 */
import { StrataError } from '../../../src/core/errors.js';
import { memoryKey, mergeSources, type LongTermMemory } from '../../../src/core/long-term-memory.js';
import type { LongTermRepository } from '../../../src/store/long-term-store.js';
import { compareText, page, type LongTermState, type StateAccess, type TenantState } from './state.js';

function byRecency(left: LongTermMemory, right: LongTermMemory): number {
  return compareText(right.modifiedAt, left.modifiedAt) || compareText(left.id, right.id);
}

function taken(what: string): StrataError {
  return new StrataError('MEMORY_EXISTS', `This tenant already has a long-term memory with ${what}; choose another.`);
}

const memoriesOf = (state: TenantState): LongTermState => state.longTerm;

/** Words folded enough for the contract's searches (case, plural and -ing/-ed endings), not a real stemmer. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((word) => word.replace(/(?:ing|ed|es|s)$/u, '') || word);
}

export function createLongTermRepository(access: StateAccess): LongTermRepository {
  const findName = (state: TenantState, name: string): LongTermMemory | undefined => [...memoriesOf(state).memories.values()].find((memory) => memory.name === name);
  const findSubject = (state: TenantState, subject: string): LongTermMemory | undefined =>
    [...memoriesOf(state).memories.values()].find((memory) => memory.subject === subject);
  return {
    create: ({ memory, by, reason }) =>
      access.write((draft) => {
        const longTerm = memoriesOf(draft);
        if (longTerm.memories.has(memory.id)) throw taken(`the id "${memory.id}"`);
        if (memory.name !== null && findName(draft, memory.name) !== undefined) throw taken(`the name "${memory.name}"`);
        if (memory.subject != null && findSubject(draft, memory.subject) !== undefined) throw taken(`the subject "${memory.subject}"`);
        longTerm.count += 1;
        const made: LongTermMemory = {
          id: memory.id,
          key: memoryKey(longTerm.count),
          name: memory.name,
          subject: memory.subject ?? null,
          value: memory.value,
          version: 1,
          deprecated: false,
          sources: mergeSources([], memory.sources),
          createdAt: memory.at,
          modifiedAt: memory.at,
          reviewedAt: null,
          tendedAt: null,
          accessedAt: null,
        };
        longTerm.memories.set(memory.id, made);
        longTerm.versions.set(memory.id, [{ memoryId: memory.id, version: 1, value: memory.value, deprecated: false, at: memory.at, by, reason }]);
        return made;
      }),
    get: ({ id }) => access.read((state) => memoriesOf(state).memories.get(id) ?? null),
    find: (options) =>
      access.read((state) => {
        if ('key' in options) return [...memoriesOf(state).memories.values()].find((memory) => memory.key === options.key) ?? null;
        return ('name' in options ? findName(state, options.name) : findSubject(state, options.subject)) ?? null;
      }),
    search: ({ terms, limit }) =>
      access.read((state) => {
        const wanted = new Set(terms.flatMap(wordsOf));
        const scored = [...memoriesOf(state).memories.values()]
          .filter((memory) => !memory.deprecated)
          .map((memory) => {
            const tags = (memoriesOf(state).tags.get(memory.id) ?? []).map((entry) => entry.tag).join(' ');
            return { memory, hits: new Set(wordsOf(`${memory.value} ${memory.name ?? ''} ${memory.subject ?? ''} ${tags}`).filter((word) => wanted.has(word))).size };
          })
          .filter((entry) => entry.hits > 0)
          .sort((left, right) => right.hits - left.hits || compareText(left.memory.id, right.memory.id));
        return scored.slice(0, Math.max(0, limit)).map((entry) => entry.memory);
      }),
    list: ({ limit, offset, deprecated }) =>
      access.read((state) =>
        page(
          [...memoriesOf(state).memories.values()].filter((memory) => deprecated === true || !memory.deprecated).sort(byRecency),
          Math.max(0, limit),
          Math.max(0, offset ?? 0),
        ),
      ),
    count: () => access.read((state) => memoriesOf(state).memories.size),
    revise: ({ id, value, deprecated, sources, by, reason, at }) =>
      access.write((draft) => {
        const longTerm = memoriesOf(draft);
        const current = longTerm.memories.get(id);
        if (current === undefined) return null;
        const next: LongTermMemory = {
          ...current,
          value: value ?? current.value,
          deprecated: deprecated ?? current.deprecated,
          version: current.version + 1,
          sources: mergeSources(current.sources, sources ?? []),
          modifiedAt: at,
        };
        longTerm.memories.set(id, next);
        longTerm.versions.get(id)?.push({ memoryId: id, version: next.version, value: next.value, deprecated: next.deprecated, at, by, reason });
        return next;
      }),
    versions: ({ id }) => access.read((state) => memoriesOf(state).versions.get(id) ?? []),
    rename: ({ id, name }) =>
      access.write((draft) => {
        const current = memoriesOf(draft).memories.get(id);
        if (current === undefined) return null;
        const holder = name === null ? undefined : findName(draft, name);
        if (holder !== undefined && holder.id !== id) throw taken(`the name "${String(name)}"`);
        current.name = name;
        return current;
      }),
    mark: ({ ids, what, at }) =>
      access.write((draft) => {
        for (const id of ids) {
          const memory = memoriesOf(draft).memories.get(id);
          if (memory === undefined) continue;
          if (what === 'reviewed') memory.reviewedAt = at;
          else if (what === 'tended') memory.tendedAt = at;
          else memory.accessedAt = at;
        }
      }),
    ...createLongTermLinks(access),
    ...createLongTermRuns(access),
  };
}

type Links = Pick<LongTermRepository, 'tag' | 'untag' | 'tags' | 'tagged' | 'tagCounts' | 'link' | 'unlink' | 'edges'>;

function createLongTermLinks(access: StateAccess): Links {
  const edgeOrder = (left: { at: string; fromId: string; toId: string; type: string }, right: typeof left): number =>
    compareText(left.at, right.at) || compareText(left.fromId, right.fromId) || compareText(left.toId, right.toId) || compareText(left.type, right.type);
  return {
    tag: ({ id, tags, by, at }) =>
      access.write((draft) => {
        const longTerm = memoriesOf(draft);
        if (!longTerm.memories.has(id)) return false;
        const held = longTerm.tags.get(id) ?? [];
        for (const tag of new Set(tags)) if (!held.some((entry) => entry.tag === tag)) held.push({ memoryId: id, tag, by, at });
        longTerm.tags.set(id, held);
        return true;
      }),
    untag: ({ id, tags }) =>
      access.write((draft) => {
        const longTerm = memoriesOf(draft);
        longTerm.tags.set(id, (longTerm.tags.get(id) ?? []).filter((entry) => !tags.includes(entry.tag)));
      }),
    tags: ({ id }) => access.read((state) => [...(memoriesOf(state).tags.get(id) ?? [])].sort((left, right) => compareText(left.tag, right.tag))),
    tagged: ({ tags, limit }) =>
      access.read((state) => {
        const longTerm = memoriesOf(state);
        if (tags.length === 0) return [];
        const holding = [...longTerm.memories.values()].filter((memory) => !memory.deprecated && tags.every((tag) => (longTerm.tags.get(memory.id) ?? []).some((entry) => entry.tag === tag)));
        return holding.sort(byRecency).slice(0, Math.max(0, limit));
      }),
    tagCounts: () =>
      access.read((state) => {
        const longTerm = memoriesOf(state);
        const counts = new Map<string, number>();
        for (const [id, held] of longTerm.tags) {
          if (longTerm.memories.get(id)?.deprecated !== false) continue;
          for (const entry of held) counts.set(entry.tag, (counts.get(entry.tag) ?? 0) + 1);
        }
        return [...counts].sort(([left], [right]) => compareText(left, right)).map(([tag, memories]) => ({ tag, memories }));
      }),
    link: ({ edge }) =>
      access.write((draft) => {
        const longTerm = memoriesOf(draft);
        if (edge.fromId === edge.toId || !longTerm.memories.has(edge.fromId) || !longTerm.memories.has(edge.toId)) return false;
        longTerm.edges = longTerm.edges.filter((entry) => !(entry.fromId === edge.fromId && entry.toId === edge.toId && entry.type === edge.type));
        longTerm.edges.push({ ...edge });
        return true;
      }),
    unlink: ({ fromId, toId, type }) =>
      access.write((draft) => {
        const longTerm = memoriesOf(draft);
        const before = longTerm.edges.length;
        longTerm.edges = longTerm.edges.filter((entry) => !(entry.fromId === fromId && entry.toId === toId && entry.type === type));
        return longTerm.edges.length < before;
      }),
    edges: ({ id }) => access.read((state) => memoriesOf(state).edges.filter((edge) => edge.fromId === id || edge.toId === id).sort(edgeOrder)),
  };
}

/** Which memories maintenance tends next (least recently tended first), and the runs kept. */
function createLongTermRuns(access: StateAccess): Pick<LongTermRepository, 'due' | 'saveRun' | 'getRun' | 'runs'> {
  return {
    due: ({ limit }) =>
      access.read((state) =>
        page(
          [...memoriesOf(state).memories.values()]
            .filter((memory) => !memory.deprecated)
            .sort((left, right) => (left.tendedAt === null ? (right.tendedAt === null ? 0 : -1) : right.tendedAt === null ? 1 : compareText(left.tendedAt, right.tendedAt)) || compareText(left.id, right.id)),
          Math.max(0, limit),
        ),
      ),
    saveRun: ({ run, keep }) =>
      access.write((draft) => {
        const longTerm = memoriesOf(draft);
        const others = longTerm.runs.filter((kept) => kept.id !== run.id);
        const newestFirst = [...others, structuredClone(run)].sort((left, right) => compareText(right.startedAt, left.startedAt) || compareText(right.id, left.id));
        const kept = new Set(newestFirst.slice(0, Math.max(0, keep)).map((entry) => entry.id));
        longTerm.runs = [...others, structuredClone(run)].filter((entry) => kept.has(entry.id));
      }),
    getRun: ({ id }) => access.read((state) => memoriesOf(state).runs.find((kept) => kept.id === id) ?? null),
    runs: ({ limit, offset }) =>
      access.read((state) =>
        page(
          [...memoriesOf(state).runs].sort((left, right) => compareText(right.startedAt, left.startedAt) || compareText(right.id, left.id)),
          Math.max(0, limit),
          Math.max(0, offset ?? 0),
        ),
      ),
  };
}
