/**
 * Every error Strata raises is a `StrataError` with a machine-readable `code`.
 * Messages say what is wrong and how to fix it.
 */
export type StrataErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_CONFIG'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXISTS'
  /** No long-term memory with that id, key or name in the tenant. */
  | 'MEMORY_NOT_FOUND'
  /** The tenant already has a long-term memory with that id or name. */
  | 'MEMORY_EXISTS'
  | 'IMPORT_INVALID'
  | 'STORE_FAILURE'
  /** The session's memory of earlier turns is still waiting in the retry queue; try again once it has landed. */
  | 'MEMORY_PENDING'
  | 'MEMORY_MANAGER_FAILURE'
  | 'TOKENIZER_UNKNOWN'
  /** No model is configured for a role that needs one (set STRATA_CHAT_MODEL, STRATA_MEMORY_MODEL …). */
  | 'MODEL_NOT_CONFIGURED'
  /** The model did not answer within the time allowed. Retryable. */
  | 'MODEL_TIMEOUT'
  /** The endpoint kept answering 429 after the client's retries. Retryable later. */
  | 'MODEL_RATE_LIMITED'
  /** The endpoint could not be reached, refused the request or failed (details say whether it is retryable). */
  | 'MODEL_FAILURE'
  /** The endpoint answered, but with something that is not a usable reply (bad JSON, wrong shape, wrong dimensions). */
  | 'MODEL_OUTPUT_INVALID'
  /** The caller's abort signal cancelled the call. */
  | 'MODEL_ABORTED'
  /** A request to the server without a valid API key (missing, unknown or revoked). */
  | 'UNAUTHORIZED'
  /** No such route or resource on the server (an unknown session answers SESSION_NOT_FOUND). */
  | 'NOT_FOUND'
  /** A request body over the server's size limit. */
  | 'PAYLOAD_TOO_LARGE'
  /** A failure Strata did not expect (a defect): the server answers 500 with it and logs the cause. */
  | 'INTERNAL';

export class StrataError extends Error {
  readonly code: StrataErrorCode;
  /** Extra structured detail (the option name, the offending index …). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: StrataErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StrataError';
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isStrataError(value: unknown, code?: StrataErrorCode): value is StrataError {
  return value instanceof StrataError && (code === undefined || value.code === code);
}
