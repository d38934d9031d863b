/**
 * `createMemory()`: the root that wires one memory together — settings, store, tokenizer, memory manager,
 * session lock, logger — and hands out tenants. The work lives in services: `tenant-memory.ts` (a tenant's
 * caches, queues and sessions), `turn-work.ts` (store, derive, resume and retry turns), `session-handle.ts`
 * (a session's methods), `session-chat.ts` (the chat loop) and `import-conversation.ts` (imports).
 */
import { StrataError } from '../core/errors.js';
import { checkTenantId } from '../core/tenant-id.js';
import type { ChatModel } from '../providers/chat-model/chat-model.js';
import type { Embedder } from '../providers/embedder/embedder.js';
import { createWordVectorEmbedder } from '../providers/embedder/word-vector-embedder.js';
import { createOpenAiEmbedder } from '../providers/openai/openai-embedder.js';
import { readModelSettings, requireModelSettings, type ModelSettingsByRole } from '../providers/model-settings.js';
import { createGptTokenizer } from '../providers/tokenizer/gpt-tokenizer.js';
import { openDefaultStore, type OwnStore } from './default-store.js';
import { apiKeys } from './api-keys.js';
import { cacheShares, resolveSettings } from './config.js';
import { inProcessSessionLock } from './in-process-session-lock.js';
import { lazyLocalManager, lazyModelManager, openAiConnection, openAiModel } from './lazy-managers.js';
import type { Memory, MemoryOptions, TenantMemory } from './memory-api.js';
import { createMemoryLogger } from './memory-logger.js';
import type { SharedParts } from './engine-parts.js';
import { createTenantRuntime, type TenantRuntime } from './tenant-memory.js';
import { timeOrderedIds } from './time-ordered-ids.js';

export type {
  ChatEndpoint,
  ChatOptions,
  ContextOptions,
  ExportOptions,
  ImportOptions,
  ImportResult,
  Memory,
  MemoryOptions,
  MemoryStats,
  RecordInput,
  RecordResult,
  SessionFacts,
  SessionHandle,
  Sessions,
  TenantMemory,
} from './memory-api.js';

/** Create a memory: with no options, `./strata.db`, the local memory manager and the o200k tokenizer. */
export function createMemory(options: MemoryOptions = {}): Memory {
  const settings = resolveSettings({
    options: {
      path: options.path,
      tenant: options.tenant,
      tokenizer: typeof options.tokenizer === 'string' ? options.tokenizer : undefined,
      rawWindowTurns: options.rawWindowTurns,
      maxMessageBytes: options.maxMessageBytes,
      durability: options.durability,
      busyTimeoutMs: options.busyTimeoutMs,
      importWorker: options.importWorker,
      consolidateEveryTurns: options.consolidateEveryTurns,
      promote: options.promote,
      tendEveryHours: options.tendEveryHours,
      refineTagsAbove: options.refineTagsAbove,
      tagRefinement: options.tagRefinement,
      recall: options.recall,
      contextWindowTokens: options.contextWindowTokens,
      readSliceMs: options.readSliceMs,
    },
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
  });
  const workerScript = options.importWorkerScript;
  if (workerScript !== undefined && (!(workerScript instanceof URL) || workerScript.protocol !== 'file:')) {
    throw new StrataError(
      'INVALID_CONFIG',
      `importWorkerScript must be a file: URL of the compiled manager-worker.js (got ${String(workerScript)}); use pathToFileURL(path) from node:url.`,
    );
  }
  const caches = cacheShares(settings);
  const tokenizer = typeof options.tokenizer === 'object' ? options.tokenizer : createGptTokenizer({ encoding: settings.tokenizer, cacheBytes: caches.tokens });
  const localSettings = { cacheBytes: caches.manager };
  const logger = options.logger ?? createMemoryLogger(settings.logLevel, options.logDestination);
  const own =
    options.store === undefined
      ? openDefaultStore(settings, (error) => logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'a background step of the store failed; it is tried again later'))
      : null;
  const store = options.store ?? (own as OwnStore).store;
  const clock = options.clock ?? (() => new Date());
  const now = (): string => clock().toISOString();
  const newId = options.newId ?? timeOrderedIds(clock);
  const environment = options.env ?? process.env;
  // Read once, when first needed (at once unless a manager is given).
  let modelSettings: ModelSettingsByRole | undefined;
  const models = (): ModelSettingsByRole => (modelSettings ??= readModelSettings(environment));
  // With STRATA_MEMORY_MODEL set, the model manager writes memory; otherwise the local manager does.
  const memoryModel = options.manager === undefined ? models().memory : null;
  const manager = options.manager ?? (memoryModel === null ? lazyLocalManager(localSettings) : lazyModelManager(memoryModel, tokenizer, localSettings));
  let chatModel: ChatModel | null | undefined = options.chatModel;
  const requireChatModel = (): ChatModel => {
    if (chatModel === undefined) {
      const configured = models().chat;
      chatModel = configured === null ? null : openAiModel(configured);
    }
    return chatModel ?? openAiModel(requireModelSettings(null, 'chat'));
  };
  let embedder: Embedder | undefined = options.embedder;
  const sharedEmbedder = (): Embedder => {
    if (embedder !== undefined) return embedder;
    const endpoint = models().embedding;
    embedder =
      endpoint === null
        ? createWordVectorEmbedder()
        : createOpenAiEmbedder({ ...openAiConnection(endpoint), role: 'embedding' });
    return embedder;
  };
  const shared: SharedParts = {
    settings,
    store,
    tokenizer,
    manager,
    context: { tokenizer, manager, now, newId },
    clock,
    now,
    newId,
    sessionLock: options.sessionLock ?? own?.sessionLock ?? inProcessSessionLock(),
    logger,
    onBackgroundError: options.onBackgroundError,
    requireChatModel,
    embedder: sharedEmbedder,
    assemblerSettings: { ...options.assembler, rawWindowTurns: settings.rawWindowTurns, contextWindowTokens: settings.contextWindowTokens },
    localInCharge: options.manager === undefined && memoryModel === null,
    importWorkerScript: workerScript,
  };

  // One runtime per tenant served, created on first use: its caches and queues live as long as the memory.
  const tenants = new Map<string, TenantRuntime>();
  let closed = false;
  const tenant = (tenantId: string): TenantMemory => {
    const id = checkTenantId(tenantId);
    if (closed) throw new StrataError('INVALID_INPUT', 'This memory is closed; create another with createMemory().');
    let runtime = tenants.get(id);
    if (runtime === undefined) {
      runtime = createTenantRuntime(shared, id);
      tenants.set(id, runtime);
    }
    return runtime.api;
  };
  const home = tenant(settings.tenant);

  return {
    tenantId: home.tenantId,
    sessions: home.sessions,
    memories: home.memories,
    stats: home.stats,
    tenant,
    keys: apiKeys(store, { now, newId }),
    settings,
    tokenizer,
    chatModelName: () => requireChatModel().model,
    chatEndpoint: () => {
      const { role: _role, ...endpoint } = requireModelSettings(models().chat, 'chat');
      return endpoint;
    },
    close: async () => {
      closed = true;
      await Promise.all([...tenants.values()].map((runtime) => runtime.close()));
      await own?.close();
    },
  };
}
