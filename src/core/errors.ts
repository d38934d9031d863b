/**
 * Every error Strata raises is a `StrataError` with a machine-readable `code`.
 * Messages say what is wrong and how to fix it.
 */
export type StrataErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_CONFIG'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXISTS'
  | 'IMPORT_INVALID'
  | 'STORE_FAILURE'
  | 'MEMORY_MANAGER_FAILURE'
  | 'TOKENIZER_UNKNOWN';

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
