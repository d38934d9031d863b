import { z } from 'zod';
import { StrataError } from '../../core/errors.js';
import type { ChatModel } from '../../providers/chat-model/chat-model.js';
import { DEFAULT_TIMEOUT_MS } from '../../providers/model-settings.js';
import { createGptTokenizer } from '../../providers/tokenizer/gpt-tokenizer.js';
import type { Tokenizer } from '../../providers/tokenizer/tokenizer.js';
import type { MemoryManager } from '../memory-manager.js';

/** Settings of the model memory manager adapter: `model` and `local` are required. */
export interface ModelManagerSettings {
  /** The memory model (e.g. `createOpenAiChatModel({ role: 'memory', … })`). Required; the manager never builds its own. */
  model: ChatModel;
  /** Counts tokens for the window and chunking (default: gpt-tokenizer `o200k_base`). */
  tokenizer?: Tokenizer;
  /**
   * The offline manager behind it: it summarises short exchanges without a call, names artifacts, sets
   * required tiers, and writes the tiers of a fallback turn. (The engine's `createModelMemoryManager`
   * gives the local manager when none is named; adapters never build each other.)
   */
  local: MemoryManager;
  /** The manager's name, recorded as the actor of its fact events (default `model:<model name>`). */
  name?: string;
  /** Time allowed per model call in milliseconds (default 8,000, the memory model's default). */
  timeoutMs?: number;
  /**
   * The memory model's context window in tokens (default 8,000): prompt and answer of one call must fit.
   * Messages that do not fit are split into parts summarised one call each.
   */
  contextWindowTokens?: number;
  /** Sampling temperature of the calls (default 0). */
  temperature?: number;
}

export interface ResolvedModelSettings {
  model: ChatModel;
  tokenizer: Tokenizer;
  local: MemoryManager;
  name: string;
  timeoutMs: number;
  contextWindowTokens: number;
  temperature: number;
}

export const DEFAULT_CONTEXT_WINDOW_TOKENS = 8_000;

const numbersSchema = z.object({
  timeoutMs: z.number().int().min(1).max(600_000),
  contextWindowTokens: z.number().int().min(1_000).max(10_000_000),
  temperature: z.number().min(0).max(2),
  name: z.string().trim().min(1),
});

/** Apply the defaults and check the settings; a bad value throws `INVALID_CONFIG` naming it. */
export function resolveModelSettings(settings: ModelManagerSettings): ResolvedModelSettings {
  const model = (settings as Partial<ModelManagerSettings>).model;
  if (model === undefined || typeof model.generate !== 'function') {
    throw new StrataError('INVALID_CONFIG', 'model memory manager: settings.model must be a ChatModel, e.g. createOpenAiChatModel({ baseUrl, model, role: "memory" }).', {
      details: { option: 'model' },
    });
  }
  const local = (settings as Partial<ModelManagerSettings>).local;
  if (local === undefined || typeof local.processTurn !== 'function') {
    throw new StrataError('INVALID_CONFIG', 'model memory manager: settings.local must be a MemoryManager to fall back on, e.g. createLocalMemoryManager().', {
      details: { option: 'local' },
    });
  }
  const parsed = numbersSchema.safeParse({
    timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS.memory,
    contextWindowTokens: settings.contextWindowTokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS,
    temperature: settings.temperature ?? 0,
    name: settings.name ?? `model:${model.model}`,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option = String(issue?.path[0] ?? 'settings');
    throw new StrataError('INVALID_CONFIG', `model memory manager: ${option} ${issue?.message ?? 'is invalid'}. Fix the ${option} setting.`, {
      details: { option, issues: parsed.error.issues },
    });
  }
  return {
    model,
    tokenizer: settings.tokenizer ?? createGptTokenizer(),
    local,
    ...parsed.data,
  };
}
