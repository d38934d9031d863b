import type { ChatMessage, ToolCall } from '../../core/types.js';

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

/** A tool the model may call: a function with a name, what it does, and its parameters as JSON Schema. */
export interface ChatTool {
  /** Letters, digits, `_` and `-` (at most 64), as the OpenAI format requires. */
  name: string;
  description?: string;
  /** JSON Schema of the arguments (default: none). */
  parameters?: Record<string, unknown>;
}

/** Whether the model may call tools: as it sees fit (`auto`, the default with tools), never, at least one, or this one. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

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
  /** Tools the model may call (default: none). */
  tools?: readonly ChatTool[];
  /** Whether and which tools it must call (default: the endpoint's, `auto`). */
  toolChoice?: ToolChoice;
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
  /** The tools it asked to call, in order (empty when it answered in text only). */
  toolCalls: ToolCall[];
}

export type StreamOptions = ChatCallOptions;

/** One piece of a streamed reply: text as it arrives, then one `done` with the totals. */
export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'done'; text: string; usage: ChatUsage; model: string; finishReason: FinishReason; toolCalls: ToolCall[] };

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
