/**
 * The store contract for long-term memory (`LongTermRepository` in `src/store/long-term-store.ts`): a
 * tenant's memories, their keys, names, versions and sources. Run by every adapter's test file beside
 * `describeStoreContract`; tags and edges are in `long-term-links-contract.ts`, called from here.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { memoryKey, type LongTermMemory, type MemoryAuthor, type MemoryVersion } from '../../src/core/long-term-memory.js';
import type { LongTermRepository, NewMemory } from '../../src/store/long-term-store.js';
import type { Store } from '../../src/store/store.js';
import { storePerTest, tenantPerTest, type OpenStore } from './store-contract.js';
import { at, describeLongTermLinksContract, newMemory, remember } from './long-term-links-contract.js';
import { describeLongTermSearchContract } from './long-term-search-contract.js';
import { describeLongTermRunsContract } from './long-term-runs-contract.js';

/** The memory `create` should give back for `memory` with `key`. */
function made(memory: NewMemory, key: string): LongTermMemory {
  return {
    id: memory.id,
    key,
    name: memory.name,
    subject: memory.subject ?? null,
    value: memory.value,
    version: 1,
    deprecated: false,
    sources: memory.sources.map((source) => ({ sessionId: source.sessionId, messageIds: [...source.messageIds] })),
    createdAt: memory.at,
    modifiedAt: memory.at,
    reviewedAt: null,
    tendedAt: null,
    accessedAt: null,
  };
}

/** The first version of a memory made by `remember`. */
function firstVersion(memory: LongTermMemory, by: MemoryAuthor = 'user'): MemoryVersion {
  return { memoryId: memory.id, version: 1, value: memory.value, deprecated: false, at: memory.createdAt, by, reason: `remember ${memory.id}` };
}

async function expectMemoryExists(attempt: Promise<unknown>): Promise<void> {
  const failure = await attempt.then(
    () => 'no error',
    (error: unknown) => error,
  );
  expect(isStrataError(failure, 'MEMORY_EXISTS'), `expected MEMORY_EXISTS, got ${String(failure)}`).toBe(true);
}

export function describeLongTermContract(name: string, openStore: OpenStore): void {
  describe(`Store contract, long-term memory: ${name}`, () => {
    describe('memories of one tenant', () => {
      const current = tenantPerTest(openStore);
      let memories: LongTermRepository;
      beforeEach(() => {
        memories = current().longTerm;
      });

      it('makes memories at version 1 with the next key, and gives them back with their first version', async () => {
        const birthday = newMemory('mem-1', { name: 'mom-birthday', value: "Mom's birthday is on 12 March.", sources: [{ sessionId: 's1', messageIds: ['m-1', 'm-2'] }] });
        const first = await memories.create({ memory: birthday, by: 'user', reason: 'the user said so' });
        expect(first).toEqual(made(birthday, memoryKey(1)));
        const second = await remember(memories, 'mem-2', { at: at(5), sources: [] }, 'agent:linker');
        expect(second).toEqual(made(newMemory('mem-2', { at: at(5), sources: [] }), memoryKey(2)));
        // Two memories without a name are fine.
        expect(await remember(memories, 'mem-3', { at: at(6) }, 'system')).toEqual(made(newMemory('mem-3', { at: at(6) }), memoryKey(3)));

        expect(await memories.get({ id: 'mem-1' })).toEqual(first);
        expect(await memories.get({ id: 'mem-2' })).toEqual(second);
        expect(await memories.get({ id: 'no-such-memory' })).toBeNull();
        expect(await memories.versions({ id: 'mem-1' })).toEqual([
          { memoryId: 'mem-1', version: 1, value: "Mom's birthday is on 12 March.", deprecated: false, at: at(0), by: 'user', reason: 'the user said so' },
        ]);
        expect(await memories.versions({ id: 'mem-2' })).toEqual([firstVersion(second, 'agent:linker')]);
        expect(await memories.count()).toBe(3);
      });

      it('gives the n-th memory memoryKey(n), past the ninth and the thirty-fifth (base 36)', async () => {
        const keys: string[] = [];
        for (let count = 1; count <= 37; count += 1) keys.push((await remember(memories, `mem-${String(count)}`, { at: at(count) })).key);
        expect(keys).toEqual(Array.from({ length: 37 }, (_, index) => memoryKey(index + 1)));
        expect(new Set(keys).size).toBe(37);
        expect((await memories.find({ key: memoryKey(36) }))?.id).toBe('mem-36');
        expect((await memories.find({ key: memoryKey(10) }))?.id).toBe('mem-10');
      });

      it('refuses a memory with an id or a name the tenant has, with MEMORY_EXISTS, changing nothing', async () => {
        const first = await remember(memories, 'mem-1', { name: 'mom-birthday' });
        const second = await remember(memories, 'mem-2', { name: 'dentist', at: at(1) });
        await expectMemoryExists(remember(memories, 'mem-1', { name: 'another-name', value: 'Something else.' }));
        await expectMemoryExists(remember(memories, 'mem-1'));
        await expectMemoryExists(remember(memories, 'mem-3', { name: 'mom-birthday', value: 'Something else.' }));
        expect(await memories.count()).toBe(2);
        expect(await memories.get({ id: 'mem-1' })).toEqual(first);
        expect(await memories.versions({ id: 'mem-1' })).toEqual([firstVersion(first)]);
        expect(await memories.get({ id: 'mem-3' })).toBeNull();
        expect(await memories.find({ name: 'another-name' })).toBeNull();
        expect(await memories.find({ name: 'mom-birthday' })).toEqual(first);

        // A failed create may or may not use up a key, but never hands out one already given.
        const third = await remember(memories, 'mem-3', { name: 'flight', at: at(2) });
        expect(third).toEqual(made(newMemory('mem-3', { name: 'flight', at: at(2) }), third.key));
        expect([first.key, second.key]).not.toContain(third.key);
        expect(await memories.find({ key: third.key })).toEqual(third);
        const fourth = await remember(memories, 'mem-4', { at: at(3) });
        expect(new Set([first.key, second.key, third.key, fourth.key]).size).toBe(4);
        expect(await memories.count()).toBe(4);
      });

      it('finds a memory by its key or its name, and null for an unknown one', async () => {
        const first = await remember(memories, 'mem-1', { name: 'mom-birthday' });
        const second = await remember(memories, 'mem-2', { at: at(1) });
        expect(await memories.find({ key: memoryKey(1) })).toEqual(first);
        expect(await memories.find({ key: memoryKey(2) })).toEqual(second);
        expect(await memories.find({ name: 'mom-birthday' })).toEqual(first);
        expect(await memories.find({ key: memoryKey(3) })).toBeNull();
        expect(await memories.find({ key: 'mem-1' })).toBeNull();
        expect(await memories.find({ name: 'nobody-named-this' })).toBeNull();
      });

      it('renames a memory: found by its new name only, a taken name refused, a name renamed to null freed', async () => {
        const first = await remember(memories, 'mem-1', { name: 'mom-birthday' });
        const second = await remember(memories, 'mem-2', { name: 'dentist', at: at(5) });
        const renamed = await memories.rename({ id: 'mem-1', name: 'mother-birthday' });
        expect(renamed).toEqual({ ...first, name: 'mother-birthday' });
        expect(await memories.get({ id: 'mem-1' })).toEqual(renamed);
        expect(await memories.find({ name: 'mother-birthday' })).toEqual(renamed);
        expect(await memories.find({ name: 'mom-birthday' })).toBeNull();
        expect(await memories.versions({ id: 'mem-1' })).toEqual([firstVersion(first)]);
        // Its own name again is no clash.
        expect(await memories.rename({ id: 'mem-1', name: 'mother-birthday' })).toEqual(renamed);

        await expectMemoryExists(memories.rename({ id: 'mem-2', name: 'mother-birthday' }));
        expect(await memories.get({ id: 'mem-2' })).toEqual(second);
        expect(await memories.find({ name: 'mother-birthday' })).toEqual(renamed);

        expect(await memories.rename({ id: 'mem-1', name: null })).toEqual({ ...first, name: null });
        expect(await memories.find({ name: 'mother-birthday' })).toBeNull();
        expect(await memories.rename({ id: 'mem-2', name: 'mother-birthday' })).toEqual({ ...second, name: 'mother-birthday' });
        expect((await remember(memories, 'mem-3', { name: 'mom-birthday', at: at(9) })).name).toBe('mom-birthday');

        expect(await memories.rename({ id: 'no-such-memory', name: 'ghost' })).toBeNull();
        expect(await memories.find({ name: 'ghost' })).toBeNull();
        expect(await memories.count()).toBe(3);
      });

      it("revises a memory's value into its next version, with the change's author, reason and time", async () => {
        const first = await remember(memories, 'mem-1', { name: 'staging-region', value: 'Staging runs in eu-west.' });
        const revised = await memories.revise({ id: 'mem-1', value: 'Staging runs in eu-central.', by: 'agent:linker', reason: 'the user corrected it', at: at(30) });
        expect(revised).toEqual({ ...first, value: 'Staging runs in eu-central.', version: 2, modifiedAt: at(30) });
        expect(await memories.get({ id: 'mem-1' })).toEqual(revised);
        expect(await memories.find({ name: 'staging-region' })).toEqual(revised);
        expect(await memories.versions({ id: 'mem-1' })).toEqual([
          firstVersion(first),
          { memoryId: 'mem-1', version: 2, value: 'Staging runs in eu-central.', deprecated: false, at: at(30), by: 'agent:linker', reason: 'the user corrected it' },
        ]);
        expect(await memories.count()).toBe(1);
      });

      it('keeps a version for a deprecation and for a revision that changes nothing, each with its value and state', async () => {
        const first = await remember(memories, 'mem-1', { value: 'The office is on floor 3.' });
        const deprecated = await memories.revise({ id: 'mem-1', deprecated: true, by: 'system', reason: 'archived: not seen in a year', at: at(10) });
        expect(deprecated).toEqual({ ...first, version: 2, deprecated: true, modifiedAt: at(10) });
        const confirmed = await memories.revise({ id: 'mem-1', by: 'user', reason: 'confirmed', at: at(20) });
        expect(confirmed).toEqual({ ...first, version: 3, deprecated: true, modifiedAt: at(20) });
        const restored = await memories.revise({ id: 'mem-1', value: 'The office is on floor 4.', deprecated: false, by: 'user', reason: 'moved', at: at(30) });
        expect(restored).toEqual({ ...first, value: 'The office is on floor 4.', version: 4, modifiedAt: at(30) });
        expect(await memories.get({ id: 'mem-1' })).toEqual(restored);
        expect(await memories.versions({ id: 'mem-1' })).toEqual([
          firstVersion(first),
          { memoryId: 'mem-1', version: 2, value: 'The office is on floor 3.', deprecated: true, at: at(10), by: 'system', reason: 'archived: not seen in a year' },
          { memoryId: 'mem-1', version: 3, value: 'The office is on floor 3.', deprecated: true, at: at(20), by: 'user', reason: 'confirmed' },
          { memoryId: 'mem-1', version: 4, value: 'The office is on floor 4.', deprecated: false, at: at(30), by: 'user', reason: 'moved' },
        ]);
      });

      it('adds sources: a listed session gets the message ids it lacks after its own, a new session goes last', async () => {
        const first = await remember(memories, 'mem-1', { sources: [{ sessionId: 's1', messageIds: ['m-1', 'm-2'] }, { sessionId: 's2', messageIds: ['m-5'] }] });
        const sources = [
          { sessionId: 's2', messageIds: ['m-6', 'm-5'] },
          { sessionId: 's3', messageIds: ['m-9'] },
          { sessionId: 's1', messageIds: ['m-2', 'm-3'] },
          { sessionId: 's4', messageIds: ['m-12', 'm-11'] },
        ];
        const merged = [
          { sessionId: 's1', messageIds: ['m-1', 'm-2', 'm-3'] },
          { sessionId: 's2', messageIds: ['m-5', 'm-6'] },
          { sessionId: 's3', messageIds: ['m-9'] },
          { sessionId: 's4', messageIds: ['m-12', 'm-11'] },
        ];
        const revised = await memories.revise({ id: 'mem-1', sources, by: 'user', reason: 'said again', at: at(10) });
        expect(revised).toEqual({ ...first, sources: merged, version: 2, modifiedAt: at(10) });
        // Sources already held, or none given: the sources stay as they are.
        expect((await memories.revise({ id: 'mem-1', sources: [{ sessionId: 's3', messageIds: ['m-9'] }], by: 'user', reason: 'again', at: at(20) }))?.sources).toEqual(merged);
        expect((await memories.revise({ id: 'mem-1', value: 'Changed.', by: 'user', reason: 'changed', at: at(30) }))?.sources).toEqual(merged);
        expect(await memories.get({ id: 'mem-1' })).toEqual({ ...first, value: 'Changed.', sources: merged, version: 4, modifiedAt: at(30) });

        const bare = await remember(memories, 'mem-2', { sources: [], at: at(40) });
        expect(await memories.revise({ id: 'mem-2', sources: [{ sessionId: 's9', messageIds: ['m-90'] }], by: 'user', reason: 'found', at: at(50) })).toEqual({
          ...bare,
          sources: [{ sessionId: 's9', messageIds: ['m-90'] }],
          version: 2,
          modifiedAt: at(50),
        });
      });

      it('revises nothing for an unknown id, and keeps no version of it', async () => {
        const first = await remember(memories, 'mem-1');
        expect(await memories.revise({ id: 'no-such-memory', value: 'Ghost.', deprecated: true, by: 'user', reason: 'none', at: at(10) })).toBeNull();
        expect(await memories.versions({ id: 'no-such-memory' })).toEqual([]);
        expect(await memories.get({ id: 'no-such-memory' })).toBeNull();
        expect(await memories.versions({ id: 'mem-1' })).toEqual([firstVersion(first)]);
        expect(await memories.get({ id: 'mem-1' })).toEqual(first);
        expect(await memories.count()).toBe(1);
      });

      it('lists the most recently modified first, then by id, page by page, deprecated ones only when asked', async () => {
        for (const [id, minutes] of [['mem-1', 0], ['mem-2', 10], ['mem-3', 10], ['mem-4', 5], ['mem-5', 20]] as const) await remember(memories, id, { at: at(minutes) });
        await memories.revise({ id: 'mem-1', value: 'Newer.', by: 'user', reason: 'changed', at: at(30) });
        await memories.revise({ id: 'mem-5', deprecated: true, by: 'system', reason: 'archived', at: at(40) });
        const gotten = async (ids: readonly string[]): Promise<Array<LongTermMemory | null>> => Promise.all(ids.map((id) => memories.get({ id })));

        expect(await memories.list({ limit: 10 })).toEqual(await gotten(['mem-1', 'mem-2', 'mem-3', 'mem-4']));
        expect(await memories.list({ limit: 10, deprecated: false })).toEqual(await gotten(['mem-1', 'mem-2', 'mem-3', 'mem-4']));
        expect(await memories.list({ limit: 10, deprecated: true })).toEqual(await gotten(['mem-5', 'mem-1', 'mem-2', 'mem-3', 'mem-4']));
        const ids = async (options: Parameters<LongTermRepository['list']>[0]): Promise<string[]> => (await memories.list(options)).map((memory) => memory.id);
        expect(await ids({ limit: 2 })).toEqual(['mem-1', 'mem-2']);
        expect(await ids({ limit: 2, offset: 2 })).toEqual(['mem-3', 'mem-4']);
        expect(await ids({ limit: 2, offset: 4 })).toEqual([]);
        expect(await ids({ limit: 2, offset: 1, deprecated: true })).toEqual(['mem-1', 'mem-2']);
        expect(await ids({ limit: 3, offset: 3, deprecated: true })).toEqual(['mem-3', 'mem-4']);
        expect(await memories.count()).toBe(5);
      });

      it('keeps a deprecated memory: got, found by key and name, listed when deprecated ones are asked for', async () => {
        await remember(memories, 'mem-1', { name: 'old-address', value: 'We live on Elm Street.' });
        const deprecated = await memories.revise({ id: 'mem-1', deprecated: true, by: 'system', reason: 'archived', at: at(10) });
        expect(deprecated?.deprecated).toBe(true);
        expect(await memories.get({ id: 'mem-1' })).toEqual(deprecated);
        expect(await memories.find({ key: memoryKey(1) })).toEqual(deprecated);
        expect(await memories.find({ name: 'old-address' })).toEqual(deprecated);
        expect(await memories.list({ limit: 10 })).toEqual([]);
        expect(await memories.list({ limit: 10, deprecated: true })).toEqual([deprecated]);
        expect(await memories.count()).toBe(1);
        await expectMemoryExists(remember(memories, 'mem-2', { name: 'old-address' }));
      });

      it('marks when memories were reviewed, tended or accessed, ignoring unknown ids, with no version and no change of modified time', async () => {
        const first = await remember(memories, 'mem-1');
        const second = await remember(memories, 'mem-2', { at: at(1) });
        const third = await remember(memories, 'mem-3', { at: at(2) });
        await memories.mark({ ids: ['mem-1', 'mem-2', 'no-such-memory'], what: 'reviewed', at: at(50) });
        await memories.mark({ ids: ['mem-2'], what: 'tended', at: at(60) });
        await memories.mark({ ids: ['mem-3'], what: 'accessed', at: at(70) });
        await memories.mark({ ids: ['mem-1'], what: 'reviewed', at: at(80) });
        await memories.mark({ ids: [], what: 'accessed', at: at(90) });
        await memories.mark({ ids: ['no-such-memory'], what: 'tended', at: at(90) });

        expect(await memories.get({ id: 'mem-1' })).toEqual({ ...first, reviewedAt: at(80) });
        expect(await memories.get({ id: 'mem-2' })).toEqual({ ...second, reviewedAt: at(50), tendedAt: at(60) });
        expect(await memories.get({ id: 'mem-3' })).toEqual({ ...third, accessedAt: at(70) });
        for (const memory of [first, second, third]) expect(await memories.versions({ id: memory.id })).toEqual([firstVersion(memory)]);
        expect(await memories.get({ id: 'no-such-memory' })).toBeNull();
        expect(await memories.count()).toBe(3);
      });
    });

    describeLongTermLinksContract(openStore);
    describeLongTermSearchContract(openStore);
    describeLongTermRunsContract(openStore);

    describe('memories of two tenants', () => {
      const current = storePerTest(openStore);
      let store: Store;
      beforeEach(() => {
        store = current();
      });

      it("keeps each tenant's memories, keys, names, versions, tags and edges to itself", async () => {
        const alpha = store.tenant('tenant-alpha').longTerm;
        const beta = store.tenant('tenant-beta').longTerm;
        const first = await remember(alpha, 'mem-1', { name: 'mom-birthday', value: "Alpha's mom: 12 March." });
        const second = await remember(alpha, 'mem-2', { at: at(1) });
        await alpha.tag({ id: 'mem-1', tags: ['family'], by: 'user', at: at(2) });
        await alpha.link({ edge: { fromId: 'mem-1', toId: 'mem-2', type: 'relates-to', by: 'user', at: at(3), reason: 'both family' } });
        const alphaTags = await alpha.tags({ id: 'mem-1' });
        const alphaEdges = await alpha.edges({ id: 'mem-1' });

        expect(await beta.count()).toBe(0);
        expect(await beta.get({ id: 'mem-1' })).toBeNull();
        expect(await beta.find({ key: memoryKey(1) })).toBeNull();
        expect(await beta.find({ name: 'mom-birthday' })).toBeNull();
        expect(await beta.list({ limit: 10, deprecated: true })).toEqual([]);
        expect(await beta.versions({ id: 'mem-1' })).toEqual([]);
        expect(await beta.tags({ id: 'mem-1' })).toEqual([]);
        expect(await beta.tagged({ tags: ['family'], limit: 10 })).toEqual([]);
        expect(await beta.tagCounts()).toEqual([]);
        expect(await beta.edges({ id: 'mem-1' })).toEqual([]);
        expect(await beta.tag({ id: 'mem-2', tags: ['intruder'], by: 'user', at: at(4) })).toBe(false);
        expect(await beta.revise({ id: 'mem-2', value: 'Intruder.', by: 'user', reason: 'intrusion', at: at(4) })).toBeNull();
        expect(await beta.rename({ id: 'mem-2', name: 'intruder' })).toBeNull();
        expect(await beta.unlink({ fromId: 'mem-1', toId: 'mem-2', type: 'relates-to' })).toBe(false);

        // Beta's keys start again at m1, and the same id and name live in both tenants.
        const betaFirst = await remember(beta, 'mem-1', { name: 'mom-birthday', value: "Beta's mom: 3 June.", at: at(5) });
        expect(betaFirst).toEqual(made(newMemory('mem-1', { name: 'mom-birthday', value: "Beta's mom: 3 June.", at: at(5) }), memoryKey(1)));
        const betaOnly = await remember(beta, 'mem-beta', { at: at(6) });
        expect(betaOnly.key).toBe(memoryKey(2));
        await beta.revise({ id: 'mem-1', value: "Beta's mom: 4 June.", by: 'user', reason: 'corrected', at: at(7) });
        await beta.tag({ id: 'mem-1', tags: ['relatives'], by: 'user', at: at(8) });
        await beta.mark({ ids: ['mem-1', 'mem-2'], what: 'accessed', at: at(9) });
        // A link to a memory only the other tenant has is refused, in either direction.
        expect(await beta.link({ edge: { fromId: 'mem-1', toId: 'mem-2', type: 'relates-to', by: 'user', at: at(10), reason: 'across' } })).toBe(false);
        expect(await alpha.link({ edge: { fromId: 'mem-beta', toId: 'mem-1', type: 'relates-to', by: 'user', at: at(10), reason: 'across' } })).toBe(false);
        expect(await alpha.link({ edge: { fromId: 'mem-2', toId: 'mem-beta', type: 'part-of', by: 'user', at: at(10), reason: 'across' } })).toBe(false);

        expect(await alpha.get({ id: 'mem-1' })).toEqual(first);
        expect(await alpha.get({ id: 'mem-2' })).toEqual(second);
        expect(await alpha.get({ id: 'mem-beta' })).toBeNull();
        expect(await alpha.find({ name: 'mom-birthday' })).toEqual(first);
        expect(await alpha.versions({ id: 'mem-1' })).toEqual([firstVersion(first)]);
        expect(await alpha.tags({ id: 'mem-1' })).toEqual(alphaTags);
        expect(await alpha.tagCounts()).toEqual([{ tag: 'family', memories: 1 }]);
        expect(await alpha.edges({ id: 'mem-1' })).toEqual(alphaEdges);
        expect(await alpha.edges({ id: 'mem-2' })).toEqual(alphaEdges);
        expect(await beta.edges({ id: 'mem-1' })).toEqual([]);
        expect(await alpha.count()).toBe(2);
        expect((await remember(alpha, 'mem-3', { at: at(11) })).key).toBe(memoryKey(3));
        expect(await beta.count()).toBe(2);
      });
    });
  });
}
