/**
 * The model memory manager as users create it: the adapter over a chat model, with the local manager
 * behind it unless another is named. The engine composes the two; the adapters never import each other.
 */
import { createLocalMemoryManager } from '../managers/local/index.js';
import type { MemoryManager } from '../managers/memory-manager.js';
import { createModelMemoryManager as createModelManager, type ModelManagerSettings, type ModelMemoryManager } from '../managers/model/index.js';

/** Settings of the model memory manager. Only `model` is required; `local` defaults to `createLocalMemoryManager()`. */
export interface ModelMemoryManagerSettings extends Omit<ModelManagerSettings, 'local'> {
  /**
   * The offline manager behind it (default `createLocalMemoryManager()`): it summarises short exchanges
   * without a call, names artifacts, sets required tiers, and writes the tiers of a fallback turn.
   */
  local?: MemoryManager;
}

/**
 * A memory manager that asks an OpenAI-compatible model to write each turn's memory (see the adapter,
 * `managers/model/model-memory-manager.ts`, for what it does per turn and its defaults).
 *
 * @example
 * const manager = createModelMemoryManager({ model: createOpenAiChatModel({ baseUrl, model: 'gpt-4o-mini', role: 'memory' }) });
 */
export function createModelMemoryManager(settings: ModelMemoryManagerSettings): ModelMemoryManager {
  return createModelManager({ ...settings, local: settings.local ?? createLocalMemoryManager() });
}
