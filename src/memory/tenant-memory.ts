/**
 * The services of one tenant: its repositories, the caches and queues that keep its sessions in order,
 * its turn work (with its retry runner), its session handles, imports and counters. A memory holds one
 * per tenant it has served; the store, the manager, the tokenizer and the session lock are shared.
 */
import { pacedPause, yieldToEventLoop } from '../core/event-loop.js';
import { ToolExchanges } from './tool-exchange.js';
import { describeValue } from '../core/describe-value.js';
import { StrataError } from '../core/errors.js';
import { placeholderTitle } from '../core/session-title.js';
import type { Session } from '../core/types.js';
import { CachedFactReader } from '../context/fact-view.js';
import { CachedTurnReader, storeTurnReader } from '../context/turn-reader.js';
import { cacheShares } from './config.js';
import type { EngineParts, SharedParts } from './engine-parts.js';
import { importConversation } from './import-conversation.js';
import { longTermMemories } from './long-term-memories.js';
import { tenantMaintenance } from './maintenance/tenant-maintenance.js';
import type { SessionHandle, Sessions, TenantMemory } from './memory-api.js';
import { MemoryCounters } from './memory-counters.js';
import { MemoryGate } from './memory-gate.js';
import { MemoryStateCache } from './memory-state-cache.js';
import { cleanupSessions, updatedBefore } from './session-cleanup.js';
import { sessionHandle } from './session-handle.js';
import { checkInstructions, checkSessionId, checkTitle, isOptions } from './session-input.js';
import type { SessionServices } from './session-reads.js';
import { SessionWrites } from './session-writes.js';
import { createTurnWork } from './turn-work.js';
import { hybridSearch, lexicalSearch, type SessionSearch } from '../retrieval/session-search.js';
import { createVectorIndexer } from '../retrieval/vector-indexer.js';
import { keepingTermCounts } from '../store/kept-counts.js';
import { VectorUpkeep } from './vector-upkeep.js';

/** A tenant's API and what closing it takes. */
export interface TenantRuntime {
  api: TenantMemory;
  /** Stop its background retries and wait for its memory work in flight. */
  close(): Promise<void>;
}

/** Build the services of one tenant over the shared parts. */
export function createTenantRuntime(shared: SharedParts, tenant: string): TenantRuntime {
  const repositories = shared.store.tenant(tenant);
  const writes = new SessionWrites();
  // Older turns stay in memory between packages; every write announced tells the cache what changed, and
  // the store what others sharing it wrote.
  const turnReader = new CachedTurnReader(storeTurnReader(repositories), { maxBytes: cacheShares(shared.settings).turns }, repositories.turns);
  const states = new MemoryStateCache(undefined, () => pacedPause(shared.settings.readSliceMs));
  const factReader = new CachedFactReader(repositories, shared.tokenizer, (session, sequence) => states.factsAt(session.id, sequence, session.createdAt));
  writes.listen(({ sessionId, turn }) => {
    turnReader.forget(sessionId, turn);
    if (turn !== undefined) return;
    states.forget(sessionId);
    factReader.forget(sessionId);
  });
  const gate = new MemoryGate();
  const counters = new MemoryCounters();
  const requireSession = async (sessionId: string): Promise<Session> => {
    const session = await repositories.sessions.get({ sessionId });
    if (session === null) {
      throw new StrataError('SESSION_NOT_FOUND', `No session "${sessionId}" in tenant "${tenant}"; list sessions with \`strata sessions\` or memory.sessions.list().`, {
        details: { sessionId },
      });
    }
    return session;
  };
  const { search, upkeep } = recallFor(shared, tenant, repositories, counters);
  // Only writes that add messages give the upkeep something to embed (memory written, a tier raised: nothing).
  if (upkeep !== null) {
    writes.listen(({ sessionId, messagesAdded }) => {
      if (messagesAdded === true) upkeep.schedule(sessionId);
    });
  }
  const parts: EngineParts = {
    ...shared,
    search,
    tenant,
    repositories,
    lock: (sessionId, work) => shared.sessionLock.run({ tenant, sessionId }, work),
    writes,
    gate,
    counters,
    turnReader,
    factReader,
    states,
    requireSession,
  };
  const work = createTurnWork(parts);
  // Imports a stopped process left hidden are removed once their deadline has passed (import-batches.ts).
  const tidied = repositories.sessions.removeAbandonedImports({ now: shared.now() }).then(
    (removed) => {
      if (removed.length > 0) shared.logger.warn({ tenant, sessions: removed }, 'removed the sessions of imports a stopped process left unfinished');
    },
    (error: unknown) => shared.onBackgroundError?.(error),
  );
  const services: SessionServices = { parts, work, resumeChecked: new Set(), toolExchanges: new ToolExchanges() };
  const maintenance = tenantMaintenance(parts);
  const sessions = tenantSessions(services, { localInCharge: shared.localInCharge, workerScript: shared.importWorkerScript });
  const api: TenantMemory = {
    tenantId: tenant,
    sessions,
    memories: longTermMemories({
      repository: repositories.longTerm,
      atomically: (work) => repositories.transaction((inside) => work(inside.longTerm)),
      now: shared.now,
      newId: shared.newId,
    }, maintenance.api),
    stats: async (statsOptions = {}) => {
      const options: unknown = statsOptions;
      const sessionId = isOptions(options) ? options.sessionId : options;
      if (!isOptions(options) || (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId === ''))) {
        throw new StrataError('INVALID_INPUT', `stats() takes { sessionId? } with a session id as text (got ${describeValue(sessionId)}).`);
      }
      if (sessionId !== undefined) await requireSession(sessionId);
      const pendingRetries = await repositories.retries.count(sessionId === undefined ? {} : { sessionId });
      return { ...counters.read(sessionId), pendingRetries };
    },
  };
  return {
    api,
    close: async () => {
      await tidied;
      await work.close();
      await gate.drain();
      await upkeep?.close();
      await maintenance.close();
    },
  };
}

/**
 * The tenant's search (hybrid when the settings ask for it and the store keeps vectors) and, with it,
 * the upkeep that embeds what each write adds.
 */
function recallFor(shared: SharedParts, tenant: string, repositories: EngineParts['repositories'], counters: MemoryCounters): { search: SessionSearch; upkeep: VectorUpkeep | null } {
  const archive = keepingTermCounts(repositories.search);
  if (shared.settings.recall === 'lexical') return { search: lexicalSearch(archive), upkeep: null };
  if (!repositories.vectors.available) {
    shared.logger.warn({ tenant, store: shared.store.kind }, 'this store keeps no vectors (for SQLite, install the optional sqlite-vec package): recall is lexical; set STRATA_RECALL=lexical to silence this');
    return { search: lexicalSearch(archive), upkeep: null };
  }
  // The embedder is made on first use: a memory that never searches or writes never loads the word vectors.
  const indexer = createVectorIndexer(repositories.vectors, () => shared.embedder(), {
    onEmbedded: (sessionId, count) => counters.add(sessionId, { messagesEmbedded: count }),
    pause: yieldToEventLoop,
  });
  const upkeep = new VectorUpkeep(indexer, { logger: shared.logger, counters, tenant, sessions: repositories.sessions });
  const search = hybridSearch({
    search: archive,
    vectors: repositories.vectors,
    indexer,
    onFailure: (error, sessionId) => void upkeep.failed(sessionId, error),
    onBacklog: (sessionId) => upkeep.schedule(sessionId),
  });
  return { search, upkeep };
}

/** The `sessions` API of a tenant. */
function tenantSessions(services: SessionServices, importSetup: { localInCharge: boolean; workerScript: URL | undefined }): Sessions {
  const { repositories, now, newId, requireSession } = services.parts;
  const handle = (sessionId: string): SessionHandle => sessionHandle(services, sessionId);
  return {
    create: async (createOptions = {}) => {
      const time = now();
      const title = createOptions.title === undefined ? placeholderTitle(time) : checkTitle(createOptions.title);
      const instructions = createOptions.instructions === undefined ? '' : checkInstructions(createOptions.instructions);
      const id = createOptions.id === undefined ? newId() : checkSessionId(createOptions.id);
      try {
        await repositories.sessions.create({
          session: { id, title, instructions, createdAt: time, updatedAt: time, messageCount: 0, turnCount: 0, tokenCount: 0 },
        });
      } catch (error) {
        // Only an id that is taken means the session exists; any other failure (a busy or full disk) stays what it is.
        if (createOptions.id === undefined || (await repositories.sessions.get({ sessionId: id })) === null) throw error;
        throw new StrataError('SESSION_EXISTS', `A session "${id}" exists already; open it, or create one with another id.`, { cause: error });
      }
      return handle(id);
    },
    open: async (sessionId) => {
      if (typeof sessionId !== 'string' || sessionId.trim() === '') throw new StrataError('INVALID_INPUT', 'A session id must be a non-empty string.');
      await requireSession(sessionId);
      return handle(sessionId);
    },
    list: async (listOptions = {}) => {
      const limit = listOptions.limit ?? 50;
      const offset = listOptions.offset ?? 0;
      if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) {
        throw new StrataError('INVALID_INPUT', 'list() takes a whole limit ≥ 1 and offset ≥ 0.');
      }
      return repositories.sessions.list({ limit, offset });
    },
    import: (importOptions) => importConversation(services.parts, services.work, importOptions, importSetup),
    cleanup: (cleanupOptions) =>
      cleanupSessions(cleanupOptions, {
        now,
        list: (page) => repositories.sessions.list(page),
        // Under the session's lock, as a delete is, and checked in the transaction that deletes.
        deleteIfOlder: (sessionId, before) =>
          services.parts.lock(sessionId, async () => {
            const deleted = await repositories.transaction(async (tx) => {
              const current = await tx.sessions.get({ sessionId });
              return current !== null && updatedBefore(current, before) && (await tx.sessions.delete({ sessionId }));
            });
            if (deleted) services.parts.writes.announce({ sessionId });
            return deleted;
          }),
      }),
  };
}
