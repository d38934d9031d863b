import type { ChatMessage } from '../../core/types.js';

/** Why the model stopped: a natural end, the token limit, a content filter, a tool call, or something else. */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'unknown';

/** Tokens billed for one call. Both are 0 when the endpoint does not report usage. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

/** The JSON shape a structured reply must have. */
export interface OutputSchema {
  /** Short identifier of the schema (letters, digits, `_` and `-`), e.g. `turn_memory`. */
  name: string;
  /** A JSON Schema object describing the reply. */
  jsonSchema: Record<string, unknown>;
}

/** What every model call takes. */
export interface ChatCallOptions {
  /** The conversation to answer, in order. */
  messages: readonly ChatMessage[];
  /** Cancels the call; it then fails with `MODEL_ABORTED`. */
  signal?: AbortSignal;
  /**
   * Time allowed, in milliseconds (default: the adapter's `timeoutMs`). For `generate` it bounds the
   * whole call, retries included; for `stream` it bounds the wait for each next piece of the reply.
   * Exceeding it fails with `MODEL_TIMEOUT`.
   */
  timeoutMs?: number;
  /** Most tokens the reply may have (default: the endpoint's own limit). */
  maxTokens?: number;
  /** Sampling temperature (default: the endpoint's own default). */
  temperature?: number;
}

export interface GenerateOptions extends ChatCallOptions {
  /** Ask for a JSON reply of this shape (default: free text). The reply is still text; validate it. */
  schema?: OutputSchema;
}

export interface GenerateResult {
  /** The reply, exactly as the model wrote it. */
  text: string;
  usage: ChatUsage;
  /** The model that answered, as the endpoint names it. */
  model: string;
  finishReason: FinishReason;
}

export type StreamOptions = ChatCallOptions;

/** One piece of a streamed reply: text as it arrives, then one `done` with the totals. */
export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'done'; text: string; usage: ChatUsage; model: string; finishReason: FinishReason };

/**
 * A chat model. Failures are `StrataError`s: `MODEL_TIMEOUT`, `MODEL_RATE_LIMITED`, `MODEL_FAILURE`
 * (with `details.status` and `details.retryable`), `MODEL_OUTPUT_INVALID` or `MODEL_ABORTED`.
 */
export interface ChatModel {
  /** The configured model name. */
  readonly model: string;
  /** One complete reply. */
  generate(options: GenerateOptions): Promise<GenerateResult>;
  /**
   * The reply as it is written. The call starts when iteration starts; leaving the loop early cancels
   * it. The last event is always `done`; a failure is thrown from the loop.
   */
  stream(options: StreamOptions): AsyncIterable<ChatStreamEvent>;
}
