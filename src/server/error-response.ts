/**
 * How the server answers a failure: `{ "error": { "code", "message" } }` with the HTTP status of its code,
 * from one table keyed by every `StrataErrorCode` (a new code does not compile until it has a status).
 */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isStrataError, type StrataErrorCode } from '../core/errors.js';

export const STATUS_OF: Readonly<Record<StrataErrorCode, ContentfulStatusCode>> = {
  INVALID_INPUT: 400,
  IMPORT_INVALID: 400,
  TOKENIZER_UNKNOWN: 400,
  UNAUTHORIZED: 401,
  SESSION_NOT_FOUND: 404,
  MEMORY_NOT_FOUND: 404,
  NOT_FOUND: 404,
  MODEL_ABORTED: 408,
  SESSION_EXISTS: 409,
  MEMORY_EXISTS: 409,
  PAYLOAD_TOO_LARGE: 413,
  MODEL_RATE_LIMITED: 429,
  INVALID_CONFIG: 500,
  STORE_FAILURE: 500,
  INTERNAL: 500,
  MEMORY_MANAGER_FAILURE: 502,
  MODEL_FAILURE: 502,
  MODEL_OUTPUT_INVALID: 502,
  MEMORY_PENDING: 503,
  MODEL_NOT_CONFIGURED: 503,
  MODEL_TIMEOUT: 504,
};

export interface ErrorAnswer {
  status: ContentfulStatusCode;
  body: { error: { code: StrataErrorCode; message: string } };
}

export function errorAnswer(code: StrataErrorCode, message: string): ErrorAnswer {
  return { status: STATUS_OF[code], body: { error: { code, message } } };
}

/** What Hono's own refusals (a body it cannot read, a wrong media type) mean to a client. */
function fromHttpException(error: HTTPException): ErrorAnswer {
  if (error.status === 413) return errorAnswer('PAYLOAD_TOO_LARGE', 'The request body is over the server\'s limit; send less, or raise --body-limit.');
  if (error.status === 415) return errorAnswer('INVALID_INPUT', 'Send the body as JSON with the header Content-Type: application/json.');
  const message = /malformed json/iu.test(error.message) ? 'The request body is not valid JSON.' : error.message || 'The request could not be read.';
  return error.status >= 500 ? errorAnswer('INTERNAL', message) : { status: error.status as ContentfulStatusCode, body: { error: { code: 'INVALID_INPUT', message } } };
}

/** The answer to any error a route raised; `unexpected` is told about failures that are not the caller's doing. */
export function answerFor(error: unknown, unexpected: (error: unknown) => void): ErrorAnswer {
  if (isStrataError(error)) {
    if (STATUS_OF[error.code] >= 500) unexpected(error);
    return errorAnswer(error.code, error.message);
  }
  if (error instanceof HTTPException) return fromHttpException(error);
  unexpected(error);
  return errorAnswer('INTERNAL', 'Strata failed unexpectedly; the server log has the cause.');
}
