/**
 * The store contract for tiers raised on the chat model's request and for the detail requests a turn
 * records: run by every adapter's test file beside `describeStoreContract`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantStore } from '../../src/store/store.js';
import { makeTurnSummary, seedSession, tenantPerTest, type OpenStore } from './store-contract.js';

const EXCHANGES: ReadonlyArray<readonly [string, string]> = [
  ['The florist wants a deposit of $400 by Friday.', 'Noted: $400 to the florist by Friday.'],
  ['We booked the hall for 120 guests.', 'Hall booked for 120.'],
  ['The cake is lemon with elderflower.', 'Lemon and elderflower it is.'],
];

export function describeTierRaiseContract(name: string, openStore: OpenStore): void {
  describe(`Store contract, raised tiers: ${name}`, () => {
    const current = tenantPerTest(openStore);
    let tenant: TenantStore;
    beforeEach(() => {
      tenant = current();
    });

    it('raises a message to the tier asked for and returns it, then lowers it back when asked for no more', async () => {
      const messages = await seedSession(tenant, 's-raise', EXCHANGES);
      const target = messages[0]!;
      expect(target.requiredTier).toBe(2);
      const raised = await tenant.messages.raiseTier({ sessionId: 's-raise', messageId: target.id, tier: 3, turn: 4 });
      expect(raised).toEqual({ ...target, requiredTier: 3 });
      expect((await tenant.messages.getMany({ sessionId: 's-raise', messageIds: [target.id] }))[0]?.requiredTier).toBe(3);
      // Asked for at turn 4: still raised when lowering what was asked for before turn 4.
      expect(await tenant.messages.lowerTiers({ sessionId: 's-raise', raisedBefore: 4 })).toEqual([]);
      expect(await tenant.messages.lowerTiers({ sessionId: 's-raise', raisedBefore: 5 })).toEqual([1]);
      expect((await tenant.messages.getMany({ sessionId: 's-raise', messageIds: [target.id] }))[0]).toEqual(target);
    });

    it('keeps a message raised longer when it is asked for again, and never lowers one that was not raised', async () => {
      const messages = await seedSession(tenant, 's-again', EXCHANGES);
      const [first, , third] = messages;
      await tenant.messages.raiseTier({ sessionId: 's-again', messageId: first!.id, tier: 3, turn: 4 });
      await tenant.messages.raiseTier({ sessionId: 's-again', messageId: first!.id, tier: 1, turn: 9 });
      // Already at tier 2 or above: nothing changes, nothing to lower later.
      expect(await tenant.messages.raiseTier({ sessionId: 's-again', messageId: third!.id, tier: 1, turn: 9 })).toEqual(third);
      expect(await tenant.messages.lowerTiers({ sessionId: 's-again', raisedBefore: 9 })).toEqual([]);
      expect(await tenant.messages.lowerTiers({ sessionId: 's-again', raisedBefore: 10 })).toEqual([1]);
      expect((await tenant.messages.list({ sessionId: 's-again' })).map((message) => message.requiredTier)).toEqual(messages.map((message) => message.requiredTier));
    });

    it("returns a raised message to the manager's newest tier once lowered, keeping the raised one meanwhile", async () => {
      const messages = await seedSession(tenant, 's-manager', EXCHANGES);
      const target = messages[1]!;
      await tenant.messages.raiseTier({ sessionId: 's-manager', messageId: target.id, tier: 3, turn: 4 });
      await tenant.messages.updateTiers({ sessionId: 's-manager', updates: [{ messageId: target.id, tier1: 'florist = $400', tier2: 'Deposit noted.', tokens: { tier1: 4, tier2: 3, tier3: target.tokens.tier3 }, requiredTier: 1 }] });
      expect((await tenant.messages.getMany({ sessionId: 's-manager', messageIds: [target.id] }))[0]?.requiredTier).toBe(3);
      await tenant.messages.lowerTiers({ sessionId: 's-manager', raisedBefore: 5 });
      expect((await tenant.messages.getMany({ sessionId: 's-manager', messageIds: [target.id] }))[0]).toMatchObject({ requiredTier: 1, tier1: 'florist = $400' });
    });

    it('raises nothing of another session or tenant, answering null', async () => {
      const messages = await seedSession(tenant, 's-own', EXCHANGES);
      await seedSession(tenant, 's-other', EXCHANGES.slice(0, 1).map(([user, assistant]) => [`${user} (other)`, assistant] as const));
      expect(await tenant.messages.raiseTier({ sessionId: 's-other', messageId: messages[0]!.id, tier: 3, turn: 2 })).toBeNull();
      expect(await tenant.messages.raiseTier({ sessionId: 's-own', messageId: 'no-such-message', tier: 3, turn: 2 })).toBeNull();
      expect((await tenant.messages.list({ sessionId: 's-own' })).every((message) => message.requiredTier === 2)).toBe(true);
    });

    it("keeps a turn's detail requests, and keeps them when the turn's summary is written again without them", async () => {
      await seedSession(tenant, 's-requests', EXCHANGES);
      const detailRequests = [
        { round: 1, kind: 'tier' as const, target: '1u', tier: 3 as const, messageId: 'm-1', outcome: 'raised' as const },
        { round: 2, kind: 'search' as const, target: 'florist deposit', outcome: 'searched' as const },
      ];
      await tenant.turns.upsert({ summary: makeTurnSummary('s-requests', 3, { detailRequests }) });
      expect((await tenant.turns.get({ sessionId: 's-requests', turn: 3 }))?.detailRequests).toEqual(detailRequests);
      await tenant.turns.upsert({ summary: makeTurnSummary('s-requests', 3, { status: 'summarised' }) });
      expect((await tenant.turns.get({ sessionId: 's-requests', turn: 3 }))?.detailRequests).toEqual(detailRequests);
    });
  });
}
