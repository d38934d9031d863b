/**
 * `createMemory()`: the root that wires one memory together — settings, store, tokenizer, memory manager,
 * the caches and queues its services share — and hands out session handles. The work itself lives in
 * its services: `turn-work.ts` (store, derive, resume and retry turns), `session-handle.ts` (a session's
 * methods), `session-chat.ts` (the chat loop) and `import-conversation.ts` (imports).
 */
import { randomUUID } from 'node:crypto';
import { StrataError } from '../core/errors.js';
import type { Session } from '../core/types.js';
import type { AssemblerSettings } from '../context/assembler.js';
import { CachedTurnReader, storeTurnReader } from '../context/turn-reader.js';
import type { ChatModel } from '../providers/chat-model/chat-model.js';
import { readModelSettings, requireModelSettings, type ModelSettingsByRole } from '../providers/model-settings.js';
import { createGptTokenizer } from '../providers/tokenizer/gpt-tokenizer.js';
import { createSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { TenantStore } from '../store/store.js';
import { resolveSettings } from './config.js';
import type { EngineParts } from './engine-parts.js';
import { importConversation } from './import-conversation.js';
import { KeyedMutex } from './keyed-mutex.js';
import { lazyLocalManager, lazyModelManager, openAiModel } from './lazy-managers.js';
import type { Memory, MemoryOptions, SessionHandle, Sessions } from './memory-api.js';
import { MemoryCounters } from './memory-counters.js';
import { MemoryGate } from './memory-gate.js';
import { createMemoryLogger } from './memory-logger.js';
import { MemoryStateCache } from './memory-state-cache.js';
import { sessionHandle } from './session-handle.js';
import { checkInstructions, checkTitle } from './session-input.js';
import type { SessionServices } from './session-reads.js';
import { createTurnWork } from './turn-work.js';
import type { WriteContext } from './write-path.js';

export type {
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
  const tokenizer = typeof options.tokenizer === 'object' ? options.tokenizer : createGptTokenizer({ encoding: settings.tokenizer });
  const ownsStore = options.store === undefined;
  const store = options.store ?? createSqliteStore({ path: settings.path, busyTimeoutMs: settings.busyTimeoutMs, durability: settings.durability });
  const repositories: TenantStore = store.tenant(settings.tenant);
  const clock = options.clock ?? (() => new Date());
  const now = (): string => clock().toISOString();
  const newId = options.newId ?? randomUUID;
  const environment = options.env ?? process.env;
  // Read once, when first needed (at once unless a manager is given).
  let modelSettings: ModelSettingsByRole | undefined;
  const models = (): ModelSettingsByRole => (modelSettings ??= readModelSettings(environment));
  // With STRATA_MEMORY_MODEL set, the model manager writes memory; otherwise the local manager does.
  const memoryModel = options.manager === undefined ? models().memory : null;
  const localInCharge = options.manager === undefined && memoryModel === null;
  const manager = options.manager ?? (memoryModel === null ? lazyLocalManager() : lazyModelManager(memoryModel, tokenizer));
  const context: WriteContext = { tokenizer, manager, now, newId };
  const sessionLock = options.sessionLock ?? new KeyedMutex();
  const gate = new MemoryGate();
  const counters = new MemoryCounters();
  // Older turns stay in memory between packages; every write below tells the cache which turn changed.
  const turnReader = new CachedTurnReader(storeTurnReader(repositories));
  const states = new MemoryStateCache();
  /** Sessions whose chat turns have looked for turns an earlier run left underived. */
  const resumeChecked = new Set<string>();
  const logger = options.logger ?? createMemoryLogger(settings.logLevel, options.logDestination);
  let chatModel: ChatModel | null | undefined = options.chatModel;
  const requireChatModel = (): ChatModel => {
    if (chatModel === undefined) {
      const configured = models().chat;
      chatModel = configured === null ? null : openAiModel(configured);
    }
    return chatModel ?? openAiModel(requireModelSettings(null, 'chat'));
  };
  const assemblerSettings: AssemblerSettings = { ...options.assembler, rawWindowTurns: settings.rawWindowTurns };

  const requireSession = async (sessionId: string): Promise<Session> => {
    const session = await repositories.sessions.get({ sessionId });
    if (session === null) {
      throw new StrataError('SESSION_NOT_FOUND', `No session "${sessionId}" in tenant "${settings.tenant}"; list sessions with \`strata sessions\` or memory.sessions.list().`, {
        details: { sessionId },
      });
    }
    return session;
  };

  const parts: EngineParts = { settings, repositories, tokenizer, manager, context, clock, now, newId, sessionLock, gate, counters, turnReader, states, logger, onBackgroundError: options.onBackgroundError, requireSession };
  const work = createTurnWork(parts);
  const services: SessionServices = { parts, work, requireChatModel, assemblerSettings, resumeChecked };
  const handle = (sessionId: string): SessionHandle => sessionHandle(services, sessionId);

  const sessions: Sessions = {
    create: async (createOptions = {}) => {
      const title = createOptions.title === undefined ? `Session ${now().slice(0, 16).replace('T', ' ')}` : checkTitle(createOptions.title);
      const instructions = createOptions.instructions === undefined ? '' : checkInstructions(createOptions.instructions);
      const time = now();
      const id = newId();
      await repositories.sessions.create({
        session: { id, title, instructions, createdAt: time, updatedAt: time, messageCount: 0, turnCount: 0, tokenCount: 0 },
      });
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
    import: (importOptions) => importConversation(parts, work, importOptions, { localInCharge, workerScript }),
  };

  return {
    tenant: settings.tenant,
    settings,
    tokenizer,
    sessions,
    chatModelName: () => requireChatModel().model,
    stats: async (statsOptions = {}) => {
      const sessionId = statsOptions.sessionId;
      if (sessionId !== undefined) await requireSession(sessionId);
      const pendingRetries = await repositories.retries.count(sessionId === undefined ? {} : { sessionId });
      return { ...counters.read(sessionId), pendingRetries };
    },
    close: async () => {
      await work.close();
      await gate.drain();
      if (ownsStore) await store.close();
    },
  };
}
