/**
 * The store contract for long-term memory's subjects and search, called by `describeLongTermContract`
 * (`long-term-contract.ts`): a promoted memory is found by its subject, no two memories of a tenant share
 * one, and a search finds current memories of the tenant by their words.
 */
import { describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { storePerTest, type OpenStore } from './store-contract.js';
import { at, remember } from './long-term-links-contract.js';

export function describeLongTermSearchContract(openStore: OpenStore): void {
  describe('subjects and search', () => {
    const store = storePerTest(openStore);

    it('finds a memory by its subject, and refuses a second memory with the same subject, changing nothing', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      const rate = await remember(memories, 'mem-rate', { subject: 'hourly-rate', value: 'rate: €65 an hour' }, 'system');
      expect(rate.subject).toBe('hourly-rate');
      expect(await memories.find({ subject: 'hourly-rate' })).toEqual(rate);
      expect(await memories.find({ subject: 'daily-rate' })).toBeNull();
      const failure = await remember(memories, 'mem-rate-2', { subject: 'hourly-rate' }).catch((error: unknown) => error);
      expect(isStrataError(failure, 'MEMORY_EXISTS')).toBe(true);
      expect(await memories.get({ id: 'mem-rate-2' })).toBeNull();
      expect(await memories.count()).toBe(1);
      // Another tenant may use the subject.
      const other = await remember(store().tenant('tenant-beta').longTerm, 'mem-rate', { subject: 'hourly-rate' });
      expect(other.subject).toBe('hourly-rate');
      // A memory made by hand has none.
      expect((await remember(memories, 'mem-hand')).subject).toBeNull();
    });

    it('finds current memories by their words, stemmed, the better match first, within the tenant and the limit', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      await remember(memories, 'mem-saturday', { value: 'Never schedule anything on Saturdays: family day.' });
      await remember(memories, 'mem-spelling', { value: 'Use British spelling in every draft.' });
      await remember(memories, 'mem-both', { value: 'Drafts for Saturday events use American spelling too.', at: at(3) });
      await remember(memories, 'mem-named', { value: 'May 4.', name: 'mom-birthday' });
      await remember(store().tenant('tenant-beta').longTerm, 'mem-beta', { value: 'Saturday drafts are fine here.' });

      const ids = async (terms: string[], limit = 10): Promise<string[]> => (await memories.search({ terms, limit })).map((memory) => memory.id);
      expect(new Set(await ids(['saturday']))).toEqual(new Set(['mem-saturday', 'mem-both']));
      expect(await ids(['saturday', 'spelling', 'american'])).toEqual(expect.arrayContaining(['mem-both', 'mem-saturday', 'mem-spelling']));
      expect((await ids(['saturday', 'spelling', 'american']))[0]).toBe('mem-both');
      expect(await ids(['saturday', 'spelling', 'american'], 1)).toEqual(['mem-both']);
      expect(await ids(['birthday'])).toEqual(['mem-named']);
      expect(await ids(['drafting'])).toEqual(expect.arrayContaining(['mem-both', 'mem-spelling']));
      expect(await ids(['"; DROP TABLE x; --', 'OR', '*'])).toEqual([]);
      expect(await ids([])).toEqual([]);
      expect(await ids(['saturday'], 0)).toEqual([]);
    });

    it('puts a long memory holding every word before many short ones holding one', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      await remember(memories, 'mem-both', {
        value: 'At the zoo on Saturday the children fed the giraffe first, then watched the zebra herd by the lake, then had lunch by the penguins and bought a guide.',
      });
      for (let index = 0; index < 40; index += 1) {
        await remember(memories, `mem-zebra-${String(index)}`, { value: `Zebra ${String(index)}.` });
        await remember(memories, `mem-giraffe-${String(index)}`, { value: `Giraffe ${String(index)}.` });
      }
      expect((await memories.search({ terms: ['zebra', 'giraffe'], limit: 5 }))[0]?.id).toBe('mem-both');
    });

    it('finds a memory by the words of its tags while it holds them', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      await remember(memories, 'mem-mom', { value: 'May 4.' });
      expect(await memories.search({ terms: ['birthdays'], limit: 5 })).toEqual([]);
      await memories.tag({ id: 'mem-mom', tags: ['family/birthdays', 'close-family'], by: 'user', at: at(1) });
      expect((await memories.search({ terms: ['birthdays'], limit: 5 })).map((memory) => memory.id)).toEqual(['mem-mom']);
      expect((await memories.search({ terms: ['close'], limit: 5 })).map((memory) => memory.id)).toEqual(['mem-mom']);
      await memories.untag({ id: 'mem-mom', tags: ['family/birthdays'] });
      expect(await memories.search({ terms: ['birthdays'], limit: 5 })).toEqual([]);
      expect((await memories.search({ terms: ['family'], limit: 5 })).map((memory) => memory.id)).toEqual(['mem-mom']);
    });

    it('finds a memory by its new value once revised, and not once deprecated', async () => {
      const memories = store().tenant('tenant-alpha').longTerm;
      await remember(memories, 'mem-city', { value: 'Lives in Amsterdam.' });
      await memories.revise({ id: 'mem-city', value: 'Lives in Lisbon since November.', by: 'system', reason: 'moved', at: at(5) });
      expect(await memories.search({ terms: ['amsterdam'], limit: 5 })).toEqual([]);
      expect((await memories.search({ terms: ['lisbon'], limit: 5 })).map((memory) => memory.value)).toEqual(['Lives in Lisbon since November.']);
      await memories.revise({ id: 'mem-city', deprecated: true, by: 'user', reason: 'not true', at: at(6) });
      expect(await memories.search({ terms: ['lisbon'], limit: 5 })).toEqual([]);
      await memories.revise({ id: 'mem-city', deprecated: false, by: 'user', reason: 'true after all', at: at(7) });
      expect(await memories.search({ terms: ['lisbon'], limit: 5 })).toHaveLength(1);
    });
  });
}
