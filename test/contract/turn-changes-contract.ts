/**
 * The store contract for `TurnRepository.changes`: which turns' memory was written since a revision,
 * whoever wrote it. Run by every adapter's test file beside `describeStoreContract`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantStore } from '../../src/store/store.js';
import { makeTurnSummary, seedSession, tenantPerTest, type OpenStore } from './store-contract.js';

const EXCHANGES: ReadonlyArray<readonly [string, string]> = [
  ['Our landlord wants two months of rent up front.', 'Two months up front, noted.'],
  ['The van is booked for the 14th.', 'Van on the 14th.'],
  ['The piano needs a specialist mover.', 'A specialist for the piano.'],
  ['Internet gets switched on the 16th.', 'Internet on the 16th.'],
];

export function describeTurnChangesContract(name: string, openStore: OpenStore): void {
  describe(`Store contract, turn changes: ${name}`, () => {
    const current = tenantPerTest(openStore);
    let tenant: TenantStore;
    beforeEach(() => {
      tenant = current();
    });

    it('starts at revision 0, and a summary written raises the revision and lists its turn as changed', async () => {
      await seedSession(tenant, 's-sum', EXCHANGES);
      expect(await tenant.turns.changes({ sessionId: 's-sum' })).toEqual({ revision: 0, turns: [] });
      await tenant.turns.upsert({ summary: makeTurnSummary('s-sum', 2) });
      const after = await tenant.turns.changes({ sessionId: 's-sum', after: 0 });
      expect(after.revision).toBeGreaterThan(0);
      expect(after.turns).toEqual([2]);
      // Nothing written since: nothing changed; without a revision, only the latest.
      expect(await tenant.turns.changes({ sessionId: 's-sum', after: after.revision })).toEqual({ revision: after.revision, turns: [] });
      expect(await tenant.turns.changes({ sessionId: 's-sum' })).toEqual({ revision: after.revision, turns: [] });
      await tenant.turns.upsert({ summary: makeTurnSummary('s-sum', 2, { userSummary: 'Rent: two months up front.' }) });
      await tenant.turns.upsert({ summary: makeTurnSummary('s-sum', 4) });
      const later = await tenant.turns.changes({ sessionId: 's-sum', after: after.revision });
      expect(later.revision).toBeGreaterThan(after.revision);
      expect(later.turns).toEqual([2, 4]);
    });

    it("lists the turns whose messages' tiers were written, raised or lowered", async () => {
      const messages = await seedSession(tenant, 's-tiers', EXCHANGES);
      const start = (await tenant.turns.changes({ sessionId: 's-tiers' })).revision;
      const [, , third, , fifth] = messages;
      await tenant.messages.updateTiers({
        sessionId: 's-tiers',
        updates: [{ messageId: third!.id, tier1: 'van = 14th', tier2: 'The van is booked for the 14th.', tokens: { tier1: 4, tier2: 9, tier3: third!.tokens.tier3 }, requiredTier: 1 }],
      });
      const updated = await tenant.turns.changes({ sessionId: 's-tiers', after: start });
      expect(updated.turns).toEqual([2]);
      await tenant.messages.raiseTier({ sessionId: 's-tiers', messageId: fifth!.id, tier: 3, turn: 5 });
      const raised = await tenant.turns.changes({ sessionId: 's-tiers', after: updated.revision });
      expect(raised.turns).toEqual([3]);
      expect(await tenant.messages.lowerTiers({ sessionId: 's-tiers', raisedBefore: 9 })).toEqual([3]);
      const lowered = await tenant.turns.changes({ sessionId: 's-tiers', after: raised.revision });
      expect(lowered.revision).toBeGreaterThan(raised.revision);
      expect(lowered.turns).toEqual([3]);
      // A message of another session, or none: nothing changes.
      await tenant.messages.raiseTier({ sessionId: 's-tiers', messageId: 'no-such-message', tier: 3, turn: 6 });
      expect(await tenant.turns.changes({ sessionId: 's-tiers', after: lowered.revision })).toEqual({ revision: lowered.revision, turns: [] });
    });

    it("keeps each session's revisions to itself, and a deleted session's with it", async () => {
      await seedSession(tenant, 's-one', EXCHANGES);
      await seedSession(tenant, 's-two', EXCHANGES);
      await tenant.turns.upsert({ summary: makeTurnSummary('s-one', 1) });
      expect(await tenant.turns.changes({ sessionId: 's-two', after: 0 })).toEqual({ revision: 0, turns: [] });
      await tenant.sessions.delete({ sessionId: 's-one' });
      expect(await tenant.turns.changes({ sessionId: 's-one', after: 0 })).toEqual({ revision: 0, turns: [] });
      expect(await tenant.turns.changes({ sessionId: 'never-made', after: 0 })).toEqual({ revision: 0, turns: [] });
    });

    it('never repeats a revision for a session deleted and made again under its id (a restore)', async () => {
      await seedSession(tenant, 's-restored', EXCHANGES);
      for (const turn of [1, 2, 3]) await tenant.turns.upsert({ summary: makeTurnSummary('s-restored', turn) });
      const seen = (await tenant.turns.changes({ sessionId: 's-restored' })).revision;
      await tenant.sessions.delete({ sessionId: 's-restored' });
      // Made again from the same export: the same id and the same creation time.
      await seedSession(tenant, 's-restored', EXCHANGES);
      await tenant.turns.upsert({ summary: makeTurnSummary('s-restored', 1, { userSummary: 'Restored.' }) });
      const after = await tenant.turns.changes({ sessionId: 's-restored', after: seen });
      expect(after.revision).toBeGreaterThan(seen);
      expect(after.turns).toEqual([1]);
    });
  });
}
