import { describe, expect, it } from 'vitest';
import { isStrataError } from '../../src/core/errors.js';
import { describeTierRaiseContract } from '../contract/tier-raise-contract.js';
import { describeTurnChangesContract } from '../contract/turn-changes-contract.js';
import { describeLongTermContract } from '../contract/long-term-contract.js';
import { describeVectorContract } from '../contract/vector-contract.js';
import { describeStoreContract, makeExchange, makeSession, seedSession, at } from '../contract/store-contract.js';
import { describeApiKeyContract } from '../contract/api-key-contract.js';
import { createInMemoryStore } from '../support/in-memory-store.js';
import { stem, termsOf } from '../support/in-memory-store/terms.js';

describeStoreContract('in-memory fake', async () => ({ store: createInMemoryStore(), cleanup: async () => {} }));
describeApiKeyContract('in-memory fake', async () => ({ store: createInMemoryStore(), cleanup: async () => {} }));
describeVectorContract('in-memory fake', async () => ({ store: createInMemoryStore(), cleanup: async () => {} }));
describeTierRaiseContract('in-memory fake', async () => ({ store: createInMemoryStore(), cleanup: async () => {} }));
describeTurnChangesContract('in-memory fake', async () => ({ store: createInMemoryStore(), cleanup: async () => {} }));
describeLongTermContract('in-memory fake', async () => ({ store: createInMemoryStore(), cleanup: async () => {} }));

describe('in-memory fake store', () => {
  it('hands out copies: changing a returned value or a stored argument changes nothing stored', async () => {
    const tenant = createInMemoryStore().tenant('acme');
    const session = makeSession('s1');
    const messages = await seedSession(tenant, 's1', [['Paint the fence blue.', 'Use exterior paint.']]);
    session.title = 'changed after create';
    messages[0]!.content = 'changed after append';
    const listed = await tenant.messages.list({ sessionId: 's1' });
    listed[0]!.tokens.tier1 = 999;
    (await tenant.sessions.get({ sessionId: 's1' }))!.messageCount = 99;

    expect(await tenant.sessions.get({ sessionId: 's1' })).toMatchObject({ title: 'Conversation s1', messageCount: 2 });
    const again = await tenant.messages.list({ sessionId: 's1' });
    expect(again[0]!.content).toBe('Paint the fence blue.');
    expect(again[0]!.tokens.tier1).not.toBe(999);
  });

  it('rejects every call after close() with STORE_FAILURE', async () => {
    const store = createInMemoryStore();
    const tenant = store.tenant('acme');
    await tenant.sessions.create({ session: makeSession('s1') });
    await store.close();
    await store.close();
    const calls = [
      () => tenant.sessions.get({ sessionId: 's1' }),
      () => tenant.messages.append({ sessionId: 's1', messages: makeExchange('s1', 1, 'a', 'b'), updatedAt: at(1) }),
      () => tenant.search.documentCount(),
      () => tenant.transaction(async (repositories) => repositories.sessions.get({ sessionId: 's1' })),
    ];
    for (const call of calls) {
      const error: unknown = await call().then(() => null, (failure: unknown) => failure);
      expect(isStrataError(error, 'STORE_FAILURE')).toBe(true);
    }
    expect(() => store.tenant('latecomer')).toThrow(/closed/u);
  });

  it('keeps a failed call inside a transaction from leaving half its writes', async () => {
    const tenant = createInMemoryStore().tenant('acme');
    await seedSession(tenant, 's1', [['hello', 'hi']]);
    await tenant.transaction(async (repositories) => {
      // The second message reuses the first one's position: the whole append is refused.
      const [user, assistant] = makeExchange('s1', 2, 'first', 'second');
      await expect(repositories.messages.append({ sessionId: 's1', messages: [user!, { ...assistant!, position: user!.position }], updatedAt: at(20) })).rejects.toThrow();
    });
    expect(await tenant.sessions.get({ sessionId: 's1' })).toMatchObject({ messageCount: 2, turnCount: 1 });
    expect(await tenant.messages.list({ sessionId: 's1' })).toHaveLength(2);
  });

  it('stems and folds words for search', () => {
    expect(['painted', 'painting', 'paint', 'paints'].map(stem)).toEqual(['paint', 'paint', 'paint', 'paint']);
    expect(['tomatoes', 'tomato'].map(stem)).toEqual(['tomato', 'tomato']);
    expect(termsOf('Crème BRÛLÉE, cafe\u0301s')).toEqual(termsOf('creme brulee cafe'));
  });
});
