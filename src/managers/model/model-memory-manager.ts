/**
 * The model memory manager: an LLM behind the `ChatModel` port writes each turn's summaries, tiers and
 * base-truth diff with a typed prompt and a schema-checked JSON answer. Short exchanges, artifacts,
 * required tiers and fallbacks come from the local manager, at no model cost.
 */
import { StrataError, isStrataError } from '../../core/errors.js';
import { routeTurn } from '../../core/routing.js';
import { countWords } from '../../core/text.js';
import type { TitleOptions, MemoryManager, PrepareMessageOptions, ProcessTurnOptions, TurnMemory } from '../memory-manager.js';
import type { ConsolidateOptions, ConsolidationResult } from '../consolidation.js';
import { consolidateFacts } from './consolidate-facts.js';
import { mergePartialResults } from './merge-partial-results.js';
import { addStats, emptyStats, type ModelManagerStats } from './model-stats.js';
import { parseTurnOutput, type ParsedTurnOutput } from './parse-turn-output.js';
import { planCalls } from './plan-calls.js';
import { summarizeTurnPrompt, type PromptMessage } from './prompts/summarize-turn-prompt.js';
import { requestWithSettings } from './request-json.js';
import { titleSession } from './session-title.js';
import { resolveModelSettings, type ModelManagerSettings, type ResolvedModelSettings } from './settings.js';
import { fallbackFor, fallbackMemory } from './turn-fallback.js';
import { TURN_LIMITS, shareSummaryLimits } from './turn-limits.js';
import { TURN_OUTPUT_SCHEMA } from './turn-output-schema.js';

/** A memory manager backed by a model, with its counters and the consolidation call. */
export interface ModelMemoryManager extends MemoryManager {
  /** Cumulative counters since the manager was created (a copy). */
  stats(): ModelManagerStats;
  /** A short noun-phrase title for a conversation from its first exchange, written by the model. */
  titleSession(options: TitleOptions): Promise<string>;
  /**
   * Propose a consolidation of the base-truth document (merge redundant facts, remove superseded ones)
   * and validate it. Applying the accepted changes as `consolidate` fact events is the engine's job.
   */
  consolidate(options: ConsolidateOptions): Promise<ConsolidationResult>;
}

/** Tokens kept free in the window for the answer's summaries and diff; tiers are reserved in proportion to the content. */
const REPLY_BASE_TOKENS = 400;
/** Least content tokens per call, however full the window is with facts. */
const MIN_CONTENT_TOKENS = 128;

/** Content tokens one call may carry: the window less the prompt's fixed part and the answer. */
function contentBudget(options: ProcessTurnOptions, settings: ResolvedModelSettings, schemaTokens: number): number {
  const fixed = settings.tokenizer.countMessages(summarizeTurnPrompt({ messages: [], facts: options.facts, artifacts: options.artifacts, limits: TURN_LIMITS }));
  const free = settings.contextWindowTokens - fixed - schemaTokens - REPLY_BASE_TOKENS;
  return Math.max(MIN_CONTENT_TOKENS, Math.floor(free / (1 + TURN_LIMITS.tierOneShare + TURN_LIMITS.tierTwoShare)));
}

async function runLocal(local: MemoryManager, options: ProcessTurnOptions): Promise<TurnMemory> {
  try {
    return await local.processTurn(options);
  } catch (error) {
    if (isStrataError(error)) throw error;
    throw new StrataError(
      'MEMORY_MANAGER_FAILURE',
      `The ${local.name} memory manager behind the model memory manager failed on turn ${options.turn}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** The turn's memory from the model's merged answer; what the model leaves empty comes from the local manager. */
function modelMemory(local: TurnMemory, merged: ParsedTurnOutput): TurnMemory {
  const byId = new Map(merged.messages.map((entry) => [entry.messageId, entry]));
  return {
    messages: local.messages.map((entry) => {
      const model = byId.get(entry.messageId);
      return {
        messageId: entry.messageId,
        tier1: model === undefined || model.tier1 === '' ? entry.tier1 : model.tier1,
        tier2: model === undefined || model.tier2 === '' ? entry.tier2 : model.tier2,
        requiredTier: entry.requiredTier,
      };
    }),
    userSummary: merged.userSummary,
    assistantSummary: merged.assistantSummary,
    depth: local.depth,
    windowExtension: local.windowExtension,
    diff: merged.diff,
    artifacts: local.artifacts,
  };
}

/**
 * Create the model memory manager. Settings (only `model` is required):
 * - `model`: the memory model, injected (the manager never builds a client);
 * - `tokenizer`: default gpt-tokenizer `o200k_base`;
 * - `local`: required here (the engine's `createModelMemoryManager` defaults it to the local manager);
 * - `name`: default `model:<model name>` (the actor of its fact events);
 * - `timeoutMs`: default 8,000 per call;
 * - `contextWindowTokens`: default 8,000;
 * - `temperature`: default 0.
 *
 * Per turn: an exchange whose messages are all short (< 40 words, no code) is summarised by the local
 * manager with no call. Otherwise one call writes the summaries, both tiers of every message and the
 * diff (messages too long for the window are split into parts, one call each, and the parts merged).
 * A malformed answer is asked for again once with the same payload; when the model still fails, times
 * out or cannot be reached, the turn falls back to raw memory with `TurnMemory.fallback` set (see
 * `TurnFallback` for what the engine does with it). The diff is only proposed: the engine validates it.
 */
export function createModelMemoryManager(settings: ModelManagerSettings): ModelMemoryManager {
  const resolved = resolveModelSettings(settings);
  const { tokenizer } = resolved;
  const stats = emptyStats();
  const schemaTokens = tokenizer.count(JSON.stringify(TURN_OUTPUT_SCHEMA.jsonSchema));

  async function summarise(options: ProcessTurnOptions, calls: readonly PromptMessage[][], turnStats: ModelManagerStats): Promise<ParsedTurnOutput[] | StrataError> {
    const showing = (role: 'user' | 'assistant'): number => calls.filter((call) => call.some((message) => message.role === role)).length;
    const limits = shareSummaryLimits(TURN_LIMITS, showing('user'), showing('assistant'));
    const turn = `turn ${options.turn} of session ${options.sessionId}`;
    const parts: ParsedTurnOutput[] = [];
    for (const [index, call] of calls.entries()) {
      const answer = await requestWithSettings(resolved, turnStats, {
        messages: summarizeTurnPrompt({ messages: call, facts: options.facts, artifacts: options.artifacts, limits }),
        schema: TURN_OUTPUT_SCHEMA,
        check: (text) => parseTurnOutput(text, { messages: call.map((message) => ({ id: message.id, role: message.role, words: countWords(message.content) })), limits }),
        purpose: calls.length === 1 ? turn : `part ${index + 1} of ${calls.length} of ${turn}`,
      });
      // A failed part fails the turn: the remaining parts are not asked for.
      if (!answer.ok) return answer.error;
      parts.push(answer.value);
    }
    return parts;
  }

  return {
    name: resolved.name,
    async processTurn(options: ProcessTurnOptions): Promise<TurnMemory> {
      const local = await runLocal(resolved.local, options);
      if (routeTurn(options.messages.map((message) => message.content)).depth === 'short') {
        stats.skippedShort += 1;
        return local;
      }
      const calls = planCalls(options.messages, contentBudget(options, resolved, schemaTokens), tokenizer);
      // This turn's calls are counted on their own, so the engine can attribute them to the session.
      const turnStats = emptyStats();
      const parts = await summarise(options, calls, turnStats);
      addStats(stats, turnStats);
      const usage = { calls: turnStats.calls, retries: turnStats.retries, promptTokens: turnStats.promptTokens, completionTokens: turnStats.completionTokens };
      if (parts instanceof StrataError) {
        stats.fallbacks += 1;
        return { ...fallbackMemory(options, local, fallbackFor(parts)), usage };
      }
      const whole = options.messages.map((message) => ({ id: message.id, words: countWords(message.content) }));
      return { ...modelMemory(local, mergePartialResults(parts, whole, TURN_LIMITS)), usage };
    },
    // Every turn starts with the local manager's work, so its head start on the opening message is this manager's too.
    prepare(options: PrepareMessageOptions): void | Promise<void> {
      return resolved.local.prepare?.(options);
    },
    stats: () => ({ ...stats }),
    consolidate: (options) => consolidateFacts(options, resolved, stats),
    titleSession: (options) => titleSession(options, resolved, stats),
  };
}
