import type { FactDiff } from '../core/diff.js';
import type { StrataErrorCode } from '../core/errors.js';
import type { ArtifactKind, Fact, Role, Tier, ToolCall, TurnDepth } from '../core/types.js';
import type { ConsolidateOptions, ConsolidationResult } from './consolidation.js';

export type { ConsolidateOptions, ConsolidationResult };

/** One message of the turn being processed (already stored at tier 3). */
export interface TurnMessageInput {
  id: string;
  role: Role;
  speaker: string | null;
  content: string;
  /**
   * ISO-8601 time the message was sent, or null when it is not known (a message imported without a
   * time). Relative dates in the message ("tomorrow", "next Thursday") resolve against it; with null they
   * stay as written.
   */
  sentAt: string | null;
  /** An assistant message's tool calls (absent when none); their results are the `tool` messages after it. */
  toolCalls?: ToolCall[];
  /** A `tool` message: the call it answers. */
  toolCallId?: string;
}

/** A message given to `MemoryManager.prepare` before its turn. */
export interface PrepareMessageOptions {
  sessionId: string;
  /** The message exactly as it will come first in the turn's `messages`, id included. */
  message: TurnMessageInput;
  /** The turn's timestamp, exactly as `processTurn` will get it. */
  timestamp: string;
}

/** The newest version of an artifact the session already has. */
export interface KnownArtifact {
  name: string;
  kind: ArtifactKind;
  language: string | null;
  latest: string;
}

export interface ProcessTurnOptions {
  sessionId: string;
  turn: number;
  /** The messages of the turn in order (user side first). */
  messages: readonly TurnMessageInput[];
  /** The base-truth document before this turn. */
  facts: readonly Fact[];
  /** Artifacts produced so far, so a revision can continue an existing name. */
  artifacts: readonly KnownArtifact[];
  /**
   * ISO-8601 time the turn was stored (its first message's `createdAt`). Relative dates resolve against
   * each message's own `sentAt`, never against this.
   */
  timestamp: string;
}

/** Tier 1 and tier 2 of one message, and the least detailed tier it may be shown at. */
export interface MessageMemory {
  messageId: string;
  tier1: string;
  tier2: string;
  requiredTier: Tier;
}

/** An artifact version proposed for the turn: a new name starts an artifact, a known name adds a version. */
export interface ArtifactDraft {
  name: string;
  kind: ArtifactKind;
  language: string | null;
  content: string;
  messageId: string;
}

/**
 * Why a manager fell back to raw memory for a turn: `malformed` (the model's answer was not valid JSON of
 * the right shape, twice), `timeout` (no answer within the time allowed), `unavailable` (unreachable,
 * HTTP 5xx or 429 after the client's retries) or `rejected` (the endpoint refused the request for good:
 * a bad key, an unknown model, a request it will not take; retrying cannot help until its settings change).
 */
export type FallbackReason = 'malformed' | 'timeout' | 'unavailable' | 'rejected';

/**
 * A turn whose memory a manager could not write as intended. The rest of its `TurnMemory` is then the
 * fallback: the raw exchange as the summaries (cut to 25 and 30 words), cheap offline tiers, the
 * artifacts, and always an empty diff.
 *
 * The contract for the engine:
 * - store the turn with status `pending-retry` when `retry` is true, else `fallback-raw`, and record
 *   `code` and `message` where the turn's failures are shown;
 * - write the tiers, summaries and artifacts given, and never apply a diff for the turn;
 * - when `retry` is true, put the turn in the persisted retry queue: later (with backoff) call
 *   `processTurn` again for the same messages and the facts as they stand then (the session's later
 *   turns wait behind it, so those are the facts its earlier turns left); a result without
 *   `fallback` marks the turn `summarised`, replaces its tiers and summaries and applies its diff (in
 *   turn order); a fallback with `retry` true keeps it queued (a `malformed` one only up to a bound on
 *   its attempts, then it ends as `fallback-raw`), one with `retry` false ends it as `fallback-raw`.
 *   Its artifacts were stored the first time: do not add them again;
 * - parse the field at the boundary like the rest of the result (a schema that drops unknown fields
 *   would silently store a fallback turn as `summarised`).
 */
export interface TurnFallback {
  reason: FallbackReason;
  /**
   * True when trying the turn again later may succeed (`timeout`, `unavailable`, `malformed`); false for
   * `rejected`. The engine tries a `malformed` turn a bounded number of times, the others until they succeed.
   */
  retry: boolean;
  /** The code of the failure behind the fallback (`MODEL_OUTPUT_INVALID`, `MODEL_TIMEOUT`, `MODEL_FAILURE` …). */
  code: StrataErrorCode;
  /** What went wrong and how to fix it (the failure's message). */
  message: string;
}

/** Everything a memory manager derives from one turn. */
export interface TurnMemory {
  messages: MessageMemory[];
  /** ≤ 25 words. */
  userSummary: string;
  /** ≤ 30 words. */
  assistantSummary: string;
  depth: TurnDepth;
  windowExtension: number;
  diff: FactDiff;
  artifacts: ArtifactDraft[];
  /**
   * Present only when the manager fell back to raw memory for the turn (see `TurnFallback` for what the
   * engine must do). Absent means the turn was summarised as intended; managers that never fall back
   * (local, recorded) never set it.
   */
  fallback?: TurnFallback;
  /** Model calls this turn cost (absent for managers that call no model): attempts, malformed-answer retries and tokens. */
  usage?: TurnUsage;
}

/** What one turn cost a model-backed manager. */
export interface TurnUsage {
  calls: number;
  retries: number;
  promptTokens: number;
  completionTokens: number;
}

/** What a manager is asked to name a conversation by. */
export interface TitleOptions {
  sessionId: string;
  /** The first exchange's user message ('' when it had none). */
  user: string;
  /** Its assistant message ('' when it had none). */
  assistant: string;
}

/** Who writes memory: `local` (rule-based, offline), `model` (an LLM) or `recorded` (replayed). */
export interface MemoryManager {
  /** Recorded as the actor of the fact events it causes. */
  readonly name: string;
  processTurn(options: ProcessTurnOptions): Promise<TurnMemory>;
  /**
   * Optional: the message that will open a coming turn, given ahead of it (while the chat model writes
   * its reply) so the manager can start on it in that idle time. It must not change what `processTurn`
   * returns, and the turn may never come (the reply failed). The engine does not wait for a returned
   * promise; it logs an error thrown or rejected here and carries on, and `processTurn` does the work
   * itself then. The local manager analyses the message.
   */
  prepare?(options: PrepareMessageOptions): void | Promise<void>;
  /**
   * Optional: a short title for a conversation from its first exchange (the model manager asks its model;
   * managers without it leave the title the engine made from the first sentence). Throws when it cannot.
   */
  titleSession?(options: TitleOptions): Promise<string>;
  /**
   * Optional: propose a consolidation of the base-truth document (merge redundant facts, remove
   * superseded ones), already validated. The engine calls it after every `consolidateEveryTurns`-th turn
   * (default 15; 0 turns it off) once that turn's memory is written, applies `accepted` changes as
   * `consolidate` fact events and records why a `rejected` or `failed` one changed nothing. Managers
   * without it (the recorded manager) never consolidate; the local manager merges facts said twice. It should
   * not throw for a model failure.
   */
  consolidate?(options: ConsolidateOptions): Promise<ConsolidationResult>;
}
