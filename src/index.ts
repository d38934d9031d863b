/**
 * Strata: conversational memory for LLM applications.
 *
 * ```ts
 * const memory = createMemory();                       // ./strata.db, local memory manager, o200k tokenizer
 * const session = await memory.sessions.create({ title: 'Support' });
 * await session.record({ user: '…', assistant: '…' });
 * const pkg = await session.context({ budget: 2000, query: '…' });
 * pkg.render();                                        // OpenAI-style messages, tokens ≤ 2000
 * ```
 */
export {
  createMemory,
  type ChatEndpoint,
  type ChatOptions,
  type ContextOptions,
  type ExportOptions,
  type ImportOptions,
  type ImportResult,
  type Memory,
  type MemoryOptions,
  type MemoryStats,
  type RecordInput,
  type RecordResult,
  type SessionHandle,
  type SessionFacts,
  type Sessions,
  type TenantMemory,
} from './memory/create-memory.js';
export type { MessageInput } from './memory/message-input.js';
export type { ToolCallInput, ToolStepInput } from './memory/tool-use-input.js';
export type { MemoryCounterSet } from './memory/memory-counters.js';
export type { ApiKeyInfo, ApiKeys, CreatedApiKey } from './memory/api-keys.js';
export type {
  ActionKind,
  ActionStatus,
  AgentName,
  ChangeOptions,
  EdgeType,
  LongTermMemories,
  LongTermMemory,
  MaintenanceAction,
  MaintenanceRun,
  MemoryAuthor,
  MemoryEdge,
  MemorySource,
  MemoryTag,
  MemoryVersion,
  NewMemoryInput,
  Recall,
  RecallOptions,
  RecalledMemory,
  RunTrigger,
  TendOptions,
} from './memory/long-term-api.js';
export type { SearchResult } from './memory/session-search.js';
export type { CleanupOptions, CleanupResult } from './memory/session-cleanup.js';
export type { ChatMemoryOutcome, ChatResult, ChatStream } from './memory/chat-turn.js';
export type { ChatContinuation } from './memory/tool-exchange.js';
export type { Settings } from './memory/config.js';
export type { SessionExport } from './memory/export-schema.js';
export type {
  ContextItem,
  ContextPackage,
  ContextPackageJson,
  ContextSection,
  ItemKind,
  Omission,
  SectionName,
  TurnRange,
} from './context/context-package.js';
export type { AssemblerSettings } from './context/assembler.js';
export { StrataError, isStrataError, type StrataErrorCode } from './core/errors.js';
export { toOpenAiMessages, type OpenAiChatMessage } from './core/openai-messages.js';
export type {
  Artifact,
  ArtifactKind,
  ArtifactVersion,
  ChatMessage,
  DetailRequestRecord,
  Fact,
  FactEvent,
  FactEventOp,
  FactKind,
  Message,
  Role,
  Session,
  Tier,
  ToolCall,
  TurnDepth,
  TurnStatus,
  TurnSummary,
} from './core/types.js';
export type { DiffEntry, FactDiff, RemoveEntry } from './core/diff.js';
export type { DetailRequest } from './core/detail-markers.js';

// Ports and their default adapters, for those who plug in their own.
export type { Store, TenantStore, TenantRepositories } from './store/store.js';
export type { LockedSession, SessionLock } from './store/session-lock.js';
export { createSqliteStore, type SqliteStoreSettings } from './store/sqlite/sqlite-store.js';
export { createPostgresStore, type PostgresStoreSettings } from './store/postgres/postgres-store.js';
export { createPostgresSessionLock, type PostgresSessionLock, type PostgresSessionLockSettings } from './store/postgres/session-lock.js';
export type { Tokenizer, TokenizerName } from './providers/tokenizer/tokenizer.js';
export { createGptTokenizer, type GptTokenizerSettings } from './providers/tokenizer/gpt-tokenizer.js';
export type {
  ArtifactDraft,
  KnownArtifact,
  MemoryManager,
  MessageMemory,
  PrepareMessageOptions,
  ProcessTurnOptions,
  TurnMemory,
  TurnMessageInput,
} from './managers/memory-manager.js';
export { createLocalMemoryManager, type LocalManagerSettings } from './managers/local/index.js';
export { createRecordedMemoryManager } from './managers/recorded/index.js';

// Model providers: chat models and embedders behind any OpenAI-compatible endpoint, and the offline default embedder.
export type {
  ChatCallOptions,
  ChatModel,
  ChatStreamEvent,
  ChatTool,
  ChatUsage,
  FinishReason,
  GenerateOptions,
  GenerateResult,
  OutputSchema,
  StreamOptions,
  ToolChoice,
} from './providers/chat-model/chat-model.js';
export type { Embedder, EmbeddingUsage, EmbedOptions, EmbedResult } from './providers/embedder/embedder.js';
export { createLexicalHashEmbedder, type LexicalHashEmbedderSettings } from './providers/embedder/lexical-hash-embedder.js';
export { createOpenAiChatModel, type OpenAiChatModelSettings } from './providers/openai/openai-chat-model.js';
export { createOpenAiEmbedder, type OpenAiEmbedderSettings } from './providers/openai/openai-embedder.js';
export type { FetchFunction, OpenAiConnectionSettings } from './providers/openai/openai-connection.js';
export type { StructuredOutputMode } from './providers/openai/structured-output.js';
export {
  readModelSettings,
  requireModelSettings,
  type ModelRole,
  type ModelSettings,
  type ModelSettingsByRole,
} from './providers/model-settings.js';

// The model memory manager: an LLM writes each turn's memory through the ChatModel port, with the local manager behind it.
export { createModelMemoryManager, type ModelMemoryManagerSettings } from './memory/model-memory-manager.js';
export type { ModelManagerStats, ModelMemoryManager } from './managers/model/index.js';
export type { ConsolidateOptions, ConsolidationChange, ConsolidationProposal, ConsolidationResult } from './managers/consolidation.js';
export type { FallbackReason, TurnFallback } from './managers/memory-manager.js';
