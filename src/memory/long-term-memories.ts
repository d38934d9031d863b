/**
 * A tenant's long-term memory over its repository: input checked at the boundary (StrataError naming
 * what is wrong), references resolved by id, key or name, every change attributed and versioned.
 */
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { checkAuthor, checkMemoryName, checkMemoryValue, isEdgeType, normaliseTag, EDGE_TYPES, type EdgeType, type LongTermMemory, type MemoryAuthor, type MemorySource } from '../core/long-term-memory.js';
import type { LongTermRepository } from '../store/long-term-store.js';
import type { ChangeOptions, LongTermMemories } from './long-term-api.js';
import { checkRecallRequest, recallMemories } from './long-term-recall.js';

export interface LongTermParts {
  repository: LongTermRepository;
  /** Runs `work` as one transaction of the tenant's store. */
  atomically: <T>(work: (repository: LongTermRepository) => Promise<T>) => Promise<T>;
  now: () => string;
  newId: () => string;
}

/** A key as the store gives them: `M` and capitals or digits (names are lower case, so never one). */
const KEY_SHAPE = /^M[0-9A-Z]+$/u;
/** Control characters (C0 and DEL), which no id holds. */
const hasControl = (text: string): boolean => [...text].some((character) => (character.codePointAt(0) ?? 0) < 0x20 || character === '\u007f');

function checkReference(reference: unknown): string {
  if (typeof reference !== 'string' || reference.trim() === '') throw new StrataError('INVALID_INPUT', `A memory is named by its id, key or name as text; got ${describeValue(reference)}.`);
  return reference;
}

const isId = (id: unknown): boolean => typeof id === 'string' && id !== '' && id.length <= 256 && !hasControl(id);

function checkSources(sources: unknown): MemorySource[] {
  if (sources === undefined) return [];
  const valid =
    Array.isArray(sources) &&
    sources.length <= 100 &&
    sources.every((source: unknown) => {
      const entry = source as Partial<MemorySource> | null;
      return typeof entry === 'object' && entry !== null && isId(entry.sessionId) && Array.isArray(entry.messageIds) && entry.messageIds.length <= 1000 && entry.messageIds.every(isId);
    });
  if (!valid) throw new StrataError('INVALID_INPUT', 'sources is a list of at most 100 { sessionId, messageIds: [id, …] } (ids of 1 to 256 characters without control characters, at most 1,000 a session).');
  return (sources as MemorySource[]).map((source) => ({ sessionId: source.sessionId, messageIds: [...source.messageIds] }));
}

function checkTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) throw new StrataError('INVALID_INPUT', `tags is a list of text; got ${describeValue(tags)}.`);
  return [...new Set(tags.map((tag: unknown) => normaliseTag(tag)))];
}

function change(options: ChangeOptions | undefined, reason: string): { by: MemoryAuthor; reason: string } {
  const given = options?.reason;
  if (given !== undefined && (typeof given !== 'string' || given.length > 500 || given.includes('\u0000'))) throw new StrataError('INVALID_INPUT', 'A reason is text of at most 500 characters.');
  return { by: checkAuthor(options?.by ?? 'user'), reason: given?.trim() || reason };
}

/** The API over `parts`, with the maintenance methods made apart (`maintenance/maintenance-api.ts`). */
export function longTermMemories(parts: LongTermParts, maintenance: Pick<LongTermMemories, 'tend' | 'runs' | 'run' | 'approve' | 'reject'>): LongTermMemories {
  const { repository } = parts;
  const resolve = async (reference: unknown): Promise<LongTermMemory> => {
    const text = checkReference(reference);
    // A key-shaped reference is a key (or an id); anything else an id or a name.
    const found = KEY_SHAPE.test(text)
      ? ((await repository.find({ key: text })) ?? (await repository.get({ id: text })))
      : ((await repository.get({ id: text })) ?? (await repository.find({ name: text })));
    if (found === null) throw new StrataError('MEMORY_NOT_FOUND', `No long-term memory "${text}" in this tenant (by id, key or name); list them with \`strata memories\` or memory.memories.list().`, { details: { memory: text } });
    return found;
  };
  const revised = (memory: LongTermMemory | null, reference: string): LongTermMemory => {
    if (memory === null) throw new StrataError('MEMORY_NOT_FOUND', `The long-term memory "${reference}" was removed meanwhile.`);
    return memory;
  };

  return {
    ...maintenance,
    recall: async (options) => recallMemories(repository, checkRecallRequest(options), parts.now()),
    add: async (input) => {
      if (typeof input !== 'object' || input === null) throw new StrataError('INVALID_INPUT', 'add() takes { value, name?, tags?, sources?, by?, reason? }.');
      const value = checkMemoryValue(input.value);
      const name = input.name === undefined ? null : checkMemoryName(input.name);
      const tags = input.tags === undefined ? [] : checkTags(input.tags);
      const sources = checkSources(input.sources);
      const attributed = change(input, 'remembered');
      const at = parts.now();
      // The memory and its tags are one write: never a memory without the tags it was given.
      return parts.atomically(async (store) => {
        const made = await store.create({ memory: { id: parts.newId(), name, value, sources, at }, ...attributed });
        if (tags.length > 0) await store.tag({ id: made.id, tags, by: attributed.by, at });
        return made;
      });
    },
    get: resolve,
    list: async (given = {}) => {
      if (typeof given !== 'object' || given === null) throw new StrataError('INVALID_INPUT', 'list() takes { limit?, offset?, tags?, deprecated? }.');
      const options = given;
      if (options.deprecated !== undefined && typeof options.deprecated !== 'boolean') throw new StrataError('INVALID_INPUT', `deprecated is true or false; got ${describeValue(options.deprecated)}.`);
      const tags = options.tags === undefined ? [] : checkTags(options.tags);
      const limit = options.limit ?? 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new StrataError('INVALID_INPUT', `limit is a whole number from 1 to 10,000; got ${describeValue(options.limit)}.`);
      const offset = options.offset ?? 0;
      if (!Number.isInteger(offset) || offset < 0) throw new StrataError('INVALID_INPUT', `offset is a whole number of 0 or more; got ${describeValue(options.offset)}.`);
      if (tags.length > 0 && options.deprecated === true) {
        throw new StrataError('INVALID_INPUT', 'A list by tags holds current memories only; leave out deprecated, or list deprecated ones without tags.');
      }
      if (tags.length > 0) return (await repository.tagged({ tags, limit: limit + offset })).slice(offset);
      return repository.list({ limit, offset, deprecated: options.deprecated === true });
    },
    change: async (reference, input) => {
      const memory = await resolve(reference);
      const value = checkMemoryValue(input?.value);
      return revised(await repository.revise({ id: memory.id, value, ...change(input, 'changed'), at: parts.now() }), reference);
    },
    history: async (reference) => repository.versions({ id: (await resolve(reference)).id }),
    undo: async (reference, options) => {
      const { id } = await resolve(reference);
      const attributed = change(options, '');
      // Read and revise in one transaction: a change landing between them is never undone unseen.
      return parts.atomically(async (store) => {
        const versions = await store.versions({ id });
        const [previous, last] = versions.slice(-2);
        if (previous === undefined || last === undefined) throw new StrataError('INVALID_INPUT', `The memory "${reference}" has not changed since it was made: there is nothing to undo.`);
        const reason = attributed.reason === '' ? `undo of version ${String(last.version)}` : attributed.reason;
        return revised(await store.revise({ id, value: previous.value, deprecated: previous.deprecated, by: attributed.by, reason, at: parts.now() }), reference);
      });
    },
    deprecate: async (reference, options) => {
      const memory = await resolve(reference);
      const deprecated = options?.deprecated ?? true;
      if (typeof deprecated !== 'boolean') throw new StrataError('INVALID_INPUT', `deprecated is true or false; got ${describeValue(deprecated)}.`);
      return revised(await repository.revise({ id: memory.id, deprecated, ...change(options, deprecated ? 'deprecated' : 'current again'), at: parts.now() }), reference);
    },
    rename: async (reference, name) => {
      const memory = await resolve(reference);
      return revised(await repository.rename({ id: memory.id, name: name === null ? null : checkMemoryName(name) }), reference);
    },
    tag: async (reference, tags, options) => {
      const memory = await resolve(reference);
      await repository.tag({ id: memory.id, tags: checkTags(tags), by: checkAuthor(options?.by ?? 'user'), at: parts.now() });
      return (await repository.tags({ id: memory.id })).map((entry) => entry.tag);
    },
    untag: async (reference, tags) => {
      const memory = await resolve(reference);
      await repository.untag({ id: memory.id, tags: checkTags(tags) });
      return (await repository.tags({ id: memory.id })).map((entry) => entry.tag);
    },
    tagsOf: async (reference) => (await repository.tags({ id: (await resolve(reference)).id })).map((entry) => entry.tag),
    tags: () => repository.tagCounts(),
    link: async (from, to, type, options) => {
      if (!isEdgeType(type)) throw new StrataError('INVALID_INPUT', `An edge's type is one of ${EDGE_TYPES.join(', ')}; got ${describeValue(type)}.`);
      const [source, target] = await Promise.all([resolve(from), resolve(to)]);
      if (source.id === target.id) throw new StrataError('INVALID_INPUT', 'A memory is not linked to itself.');
      const edge = { fromId: source.id, toId: target.id, type: type as EdgeType, ...change(options, 'linked'), at: parts.now() };
      if (!(await repository.link({ edge }))) throw new StrataError('MEMORY_NOT_FOUND', `"${from}" or "${to}" was removed meanwhile.`);
      return edge;
    },
    unlink: async (from, to, type) => {
      if (!isEdgeType(type)) throw new StrataError('INVALID_INPUT', `An edge's type is one of ${EDGE_TYPES.join(', ')}; got ${describeValue(type)}.`);
      const [source, target] = await Promise.all([resolve(from), resolve(to)]);
      return repository.unlink({ fromId: source.id, toId: target.id, type });
    },
    edges: async (reference) => repository.edges({ id: (await resolve(reference)).id }),
  };
}
