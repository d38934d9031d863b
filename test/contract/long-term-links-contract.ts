/**
 * The store contract for long-term memory's tags and edges, called by `describeLongTermContract`
 * (`long-term-contract.ts`), with the fixtures both files use.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LongTermMemory, MemoryAuthor, MemoryEdge } from '../../src/core/long-term-memory.js';
import type { LongTermRepository, NewMemory } from '../../src/store/long-term-store.js';
import { tenantPerTest, type OpenStore } from './store-contract.js';

const BASE_TIME = Date.parse('2026-05-01T10:00:00.000Z');

/** An ISO-8601 time `minutes` after 2026-05-01 10:00 UTC. */
export function at(minutes: number): string {
  return new Date(BASE_TIME + minutes * 60_000).toISOString();
}

/** A memory to make, as the engine hands it over: no name, made at(0) from message m-1 of session s1. */
export function newMemory(id: string, fields: Partial<NewMemory> = {}): NewMemory {
  return { id, name: null, value: `What ${id} remembers.`, sources: [{ sessionId: 's1', messageIds: ['m-1'] }], at: at(0), ...fields };
}

/** Make `newMemory(id, fields)`, by the user unless told, for the reason `remember <id>`. */
export function remember(memories: LongTermRepository, id: string, fields: Partial<NewMemory> = {}, by: MemoryAuthor = 'user'): Promise<LongTermMemory> {
  return memories.create({ memory: newMemory(id, fields), by, reason: `remember ${id}` });
}

function edge(fromId: string, toId: string, type: MemoryEdge['type'], minutes: number, fields: Partial<MemoryEdge> = {}): MemoryEdge {
  return { fromId, toId, type, by: 'user', at: at(minutes), reason: `${fromId} ${type} ${toId}`, ...fields };
}

export function describeLongTermLinksContract(openStore: OpenStore): void {
  describe('tags and edges of one tenant', () => {
    const current = tenantPerTest(openStore);
    let memories: LongTermRepository;
    beforeEach(() => {
      memories = current().longTerm;
    });

    it('puts tags on a memory, a tag it has keeping its first author and time, and lists them in tag order', async () => {
      const first = await remember(memories, 'mem-1');
      expect(await memories.tag({ id: 'mem-1', tags: ['health', 'family'], by: 'user', at: at(10) })).toBe(true);
      expect(await memories.tag({ id: 'mem-1', tags: ['family/birthdays', 'family'], by: 'agent:linker', at: at(20) })).toBe(true);
      expect(await memories.tags({ id: 'mem-1' })).toEqual([
        { memoryId: 'mem-1', tag: 'family', by: 'user', at: at(10) },
        { memoryId: 'mem-1', tag: 'family/birthdays', by: 'agent:linker', at: at(20) },
        { memoryId: 'mem-1', tag: 'health', by: 'user', at: at(10) },
      ]);
      expect(await memories.tag({ id: 'no-such-memory', tags: ['family'], by: 'user', at: at(30) })).toBe(false);
      expect(await memories.tags({ id: 'no-such-memory' })).toEqual([]);
      // Tags are no change of the memory: no version, the same modified time.
      expect(await memories.get({ id: 'mem-1' })).toEqual(first);
      expect(await memories.versions({ id: 'mem-1' })).toHaveLength(1);
    });

    it('takes off only the tags named, ignoring those the memory does not have', async () => {
      await remember(memories, 'mem-1');
      await remember(memories, 'mem-2', { at: at(1) });
      await memories.tag({ id: 'mem-1', tags: ['family', 'family/birthdays', 'health'], by: 'user', at: at(10) });
      await memories.tag({ id: 'mem-2', tags: ['health'], by: 'system', at: at(11) });
      await memories.untag({ id: 'mem-1', tags: ['health', 'travel'] });
      await memories.untag({ id: 'no-such-memory', tags: ['family'] });
      expect(await memories.tags({ id: 'mem-1' })).toEqual([
        { memoryId: 'mem-1', tag: 'family', by: 'user', at: at(10) },
        { memoryId: 'mem-1', tag: 'family/birthdays', by: 'user', at: at(10) },
      ]);
      expect(await memories.tags({ id: 'mem-2' })).toEqual([{ memoryId: 'mem-2', tag: 'health', by: 'system', at: at(11) }]);
      await memories.untag({ id: 'mem-1', tags: ['family', 'family/birthdays'] });
      expect(await memories.tags({ id: 'mem-1' })).toEqual([]);
      expect(await memories.tagCounts()).toEqual([{ tag: 'health', memories: 1 }]);
    });

    it('finds the memories carrying every tag asked for, most recently modified first, and counts each tag, deprecated ones left out', async () => {
      const tagging: ReadonlyArray<readonly [string, number, readonly string[]]> = [
        ['mem-1', 0, ['family', 'family/birthdays']],
        ['mem-2', 10, ['family', 'family/birthdays', 'health']],
        ['mem-3', 20, ['family']],
        ['mem-4', 30, ['family/birthdays', 'family']],
        ['mem-5', 10, ['family/birthdays', 'family']],
        ['mem-6', 40, ['travel']],
      ];
      for (const [id, minutes, tags] of tagging) {
        await remember(memories, id, { at: at(minutes) });
        await memories.tag({ id, tags, by: 'user', at: at(minutes) });
      }
      await memories.revise({ id: 'mem-4', deprecated: true, by: 'system', reason: 'archived', at: at(50) });
      const gotten = async (ids: readonly string[]): Promise<Array<LongTermMemory | null>> => Promise.all(ids.map((id) => memories.get({ id })));
      const ids = async (tags: readonly string[], limit: number): Promise<string[]> => (await memories.tagged({ tags, limit })).map((memory) => memory.id);

      expect(await memories.tagged({ tags: ['family', 'family/birthdays'], limit: 10 })).toEqual(await gotten(['mem-2', 'mem-5', 'mem-1']));
      expect(await ids(['family/birthdays', 'family'], 2)).toEqual(['mem-2', 'mem-5']);
      expect(await ids(['family'], 10)).toEqual(['mem-3', 'mem-2', 'mem-5', 'mem-1']);
      expect(await ids(['family'], 1)).toEqual(['mem-3']);
      expect(await ids(['health', 'family/birthdays', 'family'], 10)).toEqual(['mem-2']);
      expect(await ids(['family', 'travel'], 10)).toEqual([]);
      expect(await ids(['unused'], 10)).toEqual([]);
      expect(await memories.tagCounts()).toEqual([
        { tag: 'family', memories: 4 },
        { tag: 'family/birthdays', memories: 3 },
        { tag: 'health', memories: 1 },
        { tag: 'travel', memories: 1 },
      ]);
      // Deprecated, it keeps its tags; it is only left out of tagged and the counts.
      expect((await memories.tags({ id: 'mem-4' })).map((tag) => tag.tag)).toEqual(['family', 'family/birthdays']);
      await memories.revise({ id: 'mem-6', deprecated: true, by: 'system', reason: 'archived', at: at(60) });
      expect((await memories.tagCounts()).map((count) => count.tag)).toEqual(['family', 'family/birthdays', 'health']);
    });

    it('links two memories, replacing the edge of the same two memories and type, keeping one of another type beside it', async () => {
      for (const id of ['mem-1', 'mem-2', 'mem-3']) await remember(memories, id);
      expect(await memories.link({ edge: edge('mem-1', 'mem-2', 'relates-to', 10) })).toBe(true);
      const replacement = edge('mem-1', 'mem-2', 'relates-to', 20, { by: 'agent:linker', reason: 'seen together again' });
      expect(await memories.link({ edge: replacement })).toBe(true);
      expect(await memories.edges({ id: 'mem-1' })).toEqual([replacement]);
      expect(await memories.edges({ id: 'mem-2' })).toEqual([replacement]);
      const contradiction = edge('mem-1', 'mem-2', 'contradicts', 30, { by: 'system' });
      expect(await memories.link({ edge: contradiction })).toBe(true);
      expect(await memories.edges({ id: 'mem-1' })).toEqual([replacement, contradiction]);
      expect(await memories.edges({ id: 'mem-2' })).toEqual([replacement, contradiction]);
      expect(await memories.edges({ id: 'mem-3' })).toEqual([]);
    });

    it('refuses an edge to or from an unknown memory, or from a memory to itself, storing nothing', async () => {
      await remember(memories, 'mem-1');
      await remember(memories, 'mem-2');
      expect(await memories.link({ edge: edge('mem-1', 'no-such-memory', 'relates-to', 10) })).toBe(false);
      expect(await memories.link({ edge: edge('no-such-memory', 'mem-1', 'caused-by', 10) })).toBe(false);
      expect(await memories.link({ edge: edge('mem-1', 'mem-1', 'supersedes', 10) })).toBe(false);
      expect(await memories.edges({ id: 'mem-1' })).toEqual([]);
      expect(await memories.edges({ id: 'no-such-memory' })).toEqual([]);
      expect(await memories.unlink({ fromId: 'mem-1', toId: 'mem-1', type: 'supersedes' })).toBe(false);
    });

    it("lists a memory's edges in both directions, oldest first, then by from id, to id and type", async () => {
      for (const id of ['mem-1', 'mem-2', 'mem-3', 'mem-4']) await remember(memories, id);
      const fromThird = edge('mem-3', 'mem-1', 'relates-to', 10);
      const earliest = edge('mem-1', 'mem-4', 'part-of', 5);
      const superseding = edge('mem-1', 'mem-2', 'supersedes', 10);
      const contradicting = edge('mem-1', 'mem-2', 'contradicts', 10);
      const caused = edge('mem-2', 'mem-1', 'caused-by', 10);
      const elsewhere = edge('mem-2', 'mem-3', 'relates-to', 1);
      for (const link of [fromThird, earliest, superseding, contradicting, caused, elsewhere]) expect(await memories.link({ edge: link })).toBe(true);
      expect(await memories.edges({ id: 'mem-1' })).toEqual([earliest, contradicting, superseding, caused, fromThird]);
      expect(await memories.edges({ id: 'mem-2' })).toEqual([elsewhere, contradicting, superseding, caused]);
      expect(await memories.edges({ id: 'mem-4' })).toEqual([earliest]);
    });

    it('unlinks an edge once, leaving the others', async () => {
      for (const id of ['mem-1', 'mem-2']) await remember(memories, id);
      const relation = edge('mem-1', 'mem-2', 'relates-to', 10);
      const part = edge('mem-1', 'mem-2', 'part-of', 20);
      await memories.link({ edge: relation });
      await memories.link({ edge: part });
      expect(await memories.unlink({ fromId: 'mem-1', toId: 'mem-2', type: 'relates-to' })).toBe(true);
      expect(await memories.unlink({ fromId: 'mem-1', toId: 'mem-2', type: 'relates-to' })).toBe(false);
      expect(await memories.unlink({ fromId: 'mem-1', toId: 'mem-2', type: 'supersedes' })).toBe(false);
      expect(await memories.edges({ id: 'mem-1' })).toEqual([part]);
      expect(await memories.edges({ id: 'mem-2' })).toEqual([part]);
    });
  });
}
