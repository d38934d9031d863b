/**
 * The memory managers `createMemory()` makes for itself, loaded on the first turn that needs them, and
 * the chat model it builds from settings.
 */
import type { LocalManagerSettings } from '../managers/local/settings.js';
import type { MemoryManager } from '../managers/memory-manager.js';
import type { ModelMemoryManager } from '../managers/model/index.js';
import type { ChatModel } from '../providers/chat-model/chat-model.js';
import type { ModelSettings } from '../providers/model-settings.js';
import { createOpenAiChatModel } from '../providers/openai/openai-chat-model.js';
import type { Tokenizer } from '../providers/tokenizer/tokenizer.js';

/**
 * The default local manager, loaded on the first turn: its NLP libraries take most of a second to load,
 * which commands that only read memory should not pay.
 */
export function lazyLocalManager(settings: LocalManagerSettings = {}): MemoryManager {
  let loaded: Promise<MemoryManager> | undefined;
  let ready: MemoryManager | undefined;
  const load = (): Promise<MemoryManager> => (loaded ??= import('../managers/local/index.js').then((module) => (ready = module.createLocalMemoryManager(settings))));
  return {
    name: 'local',
    processTurn: async (turn) => (await load()).processTurn(turn),
    // Until a first turn has loaded the manager, there is nothing to start early with.
    prepare: (message) => ready?.prepare?.(message),
    consolidate: async (consolidation) => {
      const manager = await load();
      return manager.consolidate === undefined ? { outcome: 'accepted', changes: [] } : manager.consolidate(consolidation);
    },
  };
}

/** The connection settings of a configured model, as the OpenAI-compatible adapters take them. */
export function openAiConnection(settings: ModelSettings): { baseUrl: string; model: string; role: ModelSettings['role']; headers: ModelSettings['headers']; timeoutMs: number; apiKey?: string } {
  return {
    baseUrl: settings.baseUrl,
    model: settings.model,
    role: settings.role,
    headers: settings.headers,
    timeoutMs: settings.timeoutMs,
    ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
  };
}

/** An OpenAI-compatible chat model from settings read from the environment. */
export function openAiModel(settings: ModelSettings): ChatModel {
  return createOpenAiChatModel(openAiConnection(settings));
}

/** The model manager over the configured memory model, loaded on the first turn like the local one. */
export function lazyModelManager(settings: ModelSettings, tokenizer: Tokenizer, localSettings: LocalManagerSettings = {}): MemoryManager {
  let loaded: Promise<ModelMemoryManager> | undefined;
  let ready: ModelMemoryManager | undefined;
  const load = (): Promise<ModelMemoryManager> =>
    (loaded ??= import('../managers/model/index.js').then(
      (module) =>
        (ready = module.createModelMemoryManager({ model: openAiModel(settings), local: lazyLocalManager(localSettings), tokenizer, timeoutMs: settings.timeoutMs, name: `model:${settings.model}` })),
    ));
  return {
    name: `model:${settings.model}`,
    processTurn: async (turn) => (await load()).processTurn(turn),
    prepare: (message) => ready?.prepare?.(message),
    consolidate: async (consolidation) => (await load()).consolidate(consolidation),
    titleSession: async (options) => (await load()).titleSession(options),
  };
}
