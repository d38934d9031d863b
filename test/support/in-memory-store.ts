/**
 * An in-memory Store for tests: a second adapter, sharing no code with the SQLite one, that the Store
 * contract (test/contract/store-contract.ts) runs against. Each tenant's data is one plain value of maps
 * (in-memory-store/state.ts); the repositories are in in-memory-store/.
 *
 * How it keeps the port's promises:
 * - One writer at a time: a per-store lock, taken in arrival order, is held by each transaction for its
 *   whole run and by each write made outside a transaction (that write is a transaction of one call), so
 *   transactions run one after the other and no update is lost.
 * - Atomic: a write changes a structuredClone of the tenant's state, put in place only when the call
 *   returns; a transaction's calls work on its own copy, which becomes the committed state only when
 *   `work` resolves and is dropped when it throws (the original error is rethrown).
 * - Isolated: a read outside a transaction never waits; it answers from the last committed state, so it
 *   sees a transaction whole or not at all. Every value handed out is a copy.
 * A call through the tenant's own repositories (not the ones given to `work`) from inside a transaction
 * waits for the lock that transaction holds, as with the SQLite adapter: don't.
 */
import { StrataError } from '../../src/core/errors.js';
import type { Store, TenantRepositories, TenantStore } from '../../src/store/store.js';
import { createApiKeyRepository } from './in-memory-store/api-keys.js';
import { createArtifactRepository } from './in-memory-store/artifacts.js';
import { createFactRepository } from './in-memory-store/facts.js';
import { createLongTermRepository } from './in-memory-store/long-term.js';
import { createMessageRepository } from './in-memory-store/messages.js';
import { createRetryRepository } from './in-memory-store/retries.js';
import { createArchiveSearch } from './in-memory-store/search.js';
import { createSessionRepository } from './in-memory-store/sessions.js';
import { emptyTenantState, storeFailure, type StateAccess, type TenantState } from './in-memory-store/state.js';
import { createTurnRepository } from './in-memory-store/turns.js';
import { createMessageVectors } from './in-memory-store/vectors.js';

/** Lets one holder run at a time, in the order they asked. */
class Lock {
  private last: Promise<void> = Promise.resolve();

  async hold<T>(work: () => Promise<T>): Promise<T> {
    const before = this.last;
    let release: () => void = () => undefined;
    this.last = new Promise((resolve) => {
      release = resolve;
    });
    await before;
    try {
      return await work();
    } finally {
      release();
    }
  }
}

function repositoriesOver(tenantId: string, access: StateAccess): TenantRepositories {
  return {
    tenantId,
    sessions: createSessionRepository(access),
    messages: createMessageRepository(access),
    turns: createTurnRepository(access),
    facts: createFactRepository(access),
    artifacts: createArtifactRepository(access),
    search: createArchiveSearch(access),
    retries: createRetryRepository(access),
    vectors: createMessageVectors(access),
    longTerm: createLongTermRepository(access),
  };
}

export function createInMemoryStore(): Store {
  /** The committed state of each tenant that has written anything. */
  const committed = new Map<string, TenantState>();
  const tenants = new Map<string, TenantStore>();
  const lock = new Lock();
  let closed = false;

  const ensureOpen = (): void => {
    if (closed) throw storeFailure('The in-memory store is closed; create a new one with createInMemoryStore().');
  };
  const committedState = (tenantId: string): TenantState => committed.get(tenantId) ?? emptyTenantState();

  /** Run `work` holding the lock, over a working state that is committed only when `work` resolves. */
  const serialised = <T>(tenantId: string, work: (access: StateAccess) => Promise<T>): Promise<T> =>
    lock.hold(async () => {
      ensureOpen();
      const initial = committedState(tenantId);
      let working = initial;
      let running = true;
      const ensureRunning = (): void => {
        if (!running) throw storeFailure('This transaction has ended; use the repositories it was given only inside it.');
      };
      const access: StateAccess = {
        read: async (look) => {
          ensureRunning();
          return structuredClone(look(working));
        },
        write: async (change) => {
          ensureRunning();
          const draft = structuredClone(working);
          const result = change(draft);
          working = draft;
          return structuredClone(result);
        },
      };
      try {
        const result = await work(access);
        if (working !== initial) committed.set(tenantId, working);
        return result;
      } finally {
        running = false;
      }
    });

  const outside = (tenantId: string): StateAccess => ({
    read: async (look) => {
      ensureOpen();
      return structuredClone(look(committedState(tenantId)));
    },
    write: (change) => serialised(tenantId, (access) => access.write(change)),
  });

  const openTenant = (tenantId: string): TenantStore => {
    ensureOpen();
    return {
      ...repositoriesOver(tenantId, outside(tenantId)),
      // `options.durable` means nothing to a store that keeps nothing on disk.
      transaction<T>(work: (repositories: TenantRepositories) => Promise<T>): Promise<T> {
        return serialised(tenantId, (access) => work(repositoriesOver(tenantId, access)));
      },
    };
  };

  return {
    kind: 'in-memory',
    keys: createApiKeyRepository(ensureOpen),
    tenant(tenantId: string): TenantStore {
      if (tenantId.trim() === '') throw new StrataError('INVALID_INPUT', 'A tenant id must not be empty.');
      const tenant = tenants.get(tenantId) ?? openTenant(tenantId);
      tenants.set(tenantId, tenant);
      return tenant;
    },
    async close() {
      // After the transactions already waiting; whatever asks after this fails.
      await lock.hold(async () => {
        closed = true;
      });
    },
  };
}
