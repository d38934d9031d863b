import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { z } from 'zod';
import { StrataError } from '../../core/errors.js';
import { modelVariable, type ModelRole } from '../model-settings.js';
import type { Deadline } from './deadline.js';
import type { OpenAiConnection } from './openai-connection.js';

/** What a failure message needs to know about the call that failed. */
export interface CallContext {
  /** What was being done, e.g. `chat completion` or `embedding`. */
  operation: string;
  model: string;
  baseUrl: string;
  role: ModelRole | undefined;
  timeoutMs: number;
  deadline: Deadline;
}

/** The context of one call on `connection`, made before the call so that any failure can name it. */
export function callContext(connection: OpenAiConnection, operation: string, deadline: Deadline, timeoutMs: number): CallContext {
  return { operation, model: connection.model, baseUrl: connection.baseUrl, role: connection.role, timeoutMs, deadline };
}

type Setting = 'MODEL' | 'BASE_URL' | 'API_KEY' | 'TIMEOUT_MS';
const OPTIONS: Readonly<Record<Setting, string>> = { MODEL: 'model', BASE_URL: 'baseUrl', API_KEY: 'apiKey', TIMEOUT_MS: 'timeoutMs' };

/** Where to fix a setting: the role's variable when the role is known, else the option name. */
function fix(context: CallContext, setting: Setting): string {
  return context.role === undefined ? `the ${OPTIONS[setting]} setting` : modelVariable(context.role, setting);
}

function subject(context: CallContext): string {
  const who = context.role === undefined ? 'model' : `${context.role} model`;
  return `The ${who} "${context.model}" at ${context.baseUrl}`;
}

/** The first `code` along an error's chain of causes (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET …). */
function systemCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (current instanceof AggregateError) {
      const inner = current.errors.map(systemCode).find((found) => found !== undefined);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

function failure(code: 'MODEL_FAILURE' | 'MODEL_RATE_LIMITED' | 'MODEL_OUTPUT_INVALID', message: string, error: unknown, context: CallContext, extra: { status: number | null; retryable: boolean } & Record<string, unknown>): StrataError {
  return new StrataError(code, message, { cause: error, details: { model: context.model, baseUrl: context.baseUrl, role: context.role, ...extra } });
}

function statusFailure(error: APIError, context: CallContext): StrataError {
  const status = error.status ?? null;
  // The client's message starts with the status again ("429 Rate limit reached …").
  const said = error.message.replace(/^\d{3}\s+/u, '').replace(/\s+/gu, ' ').slice(0, 300);
  const what = status === null ? `${subject(context)} reported an error during the ${context.operation}: ${said}.` : `${subject(context)} answered the ${context.operation} with HTTP ${status}: ${said}.`;
  if (status === 429) {
    const retryAfter = error.headers?.get('retry-after') ?? null;
    return failure('MODEL_RATE_LIMITED', `${what} The endpoint is rate-limiting after all retries; wait${retryAfter === null ? '' : ` ${retryAfter} s`} or raise the endpoint's limits.`, error, context, { status, retryable: true, retryAfter });
  }
  if (status === 401 || status === 403) {
    return failure('MODEL_FAILURE', `${what} Check ${fix(context, 'API_KEY')} (and any auth header in the extra headers).`, error, context, { status, retryable: false });
  }
  if (status === 404) {
    return failure('MODEL_FAILURE', `${what} Check ${fix(context, 'MODEL')} and ${fix(context, 'BASE_URL')} (it usually ends in /v1).`, error, context, { status, retryable: false });
  }
  const retryable = status === null || status === 408 || status === 409 || status >= 500;
  const advice = retryable ? 'The endpoint failed; it may recover, try again later.' : 'The endpoint rejected the request; check the model settings and that the endpoint supports this model.';
  return failure('MODEL_FAILURE', `${what} ${advice}`, error, context, { status, retryable });
}

/**
 * One `StrataError` for any failure of a model call, telling a time-out (`MODEL_TIMEOUT`) from a
 * cancellation (`MODEL_ABORTED`), an unreachable endpoint and HTTP errors (`MODEL_FAILURE`,
 * `MODEL_RATE_LIMITED`) and unusable answers (`MODEL_OUTPUT_INVALID`). Details carry `status` and `retryable`.
 */
export function toModelError(error: unknown, context: CallContext): StrataError {
  if (error instanceof StrataError) return error;
  const { deadline } = context;
  if (deadline.cancelled) {
    return new StrataError('MODEL_ABORTED', `The ${context.operation} with ${context.model} was cancelled by the caller.`, { cause: error, details: { model: context.model, baseUrl: context.baseUrl, role: context.role, status: null, retryable: false } });
  }
  if (deadline.timedOut || error instanceof APIConnectionTimeoutError) {
    return new StrataError(
      'MODEL_TIMEOUT',
      `${subject(context)} did not finish the ${context.operation} within ${context.timeoutMs} ms. Check that the server is up and not overloaded, or raise ${fix(context, 'TIMEOUT_MS')}.`,
      { cause: error, details: { model: context.model, baseUrl: context.baseUrl, role: context.role, timeoutMs: context.timeoutMs, status: null, retryable: true } },
    );
  }
  if (error instanceof APIUserAbortError) {
    return new StrataError('MODEL_ABORTED', `The ${context.operation} with ${context.model} was cancelled.`, { cause: error, details: { model: context.model, baseUrl: context.baseUrl, role: context.role, status: null, retryable: false } });
  }
  if (error instanceof APIConnectionError) {
    const code = systemCode(error);
    const reason = code === 'ECONNREFUSED' ? 'refused the connection' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'has a host name that does not resolve' : `could not be reached (${code ?? error.message})`;
    return failure('MODEL_FAILURE', `${subject(context)} ${reason}. Check ${fix(context, 'BASE_URL')} and that the server is running.`, error, context, { status: null, retryable: true, connection: code ?? 'failed' });
  }
  if (error instanceof APIError) return statusFailure(error, context);
  if (error instanceof SyntaxError) {
    return failure('MODEL_OUTPUT_INVALID', `${subject(context)} sent a ${context.operation} response that is not valid JSON (${error.message}). Check ${fix(context, 'BASE_URL')} points at an OpenAI-compatible API.`, error, context, { status: null, retryable: true });
  }
  const code = systemCode(error);
  const said = error instanceof Error ? error.message : String(error);
  return failure('MODEL_FAILURE', `${subject(context)} failed during the ${context.operation}: ${said}${code === undefined ? '' : ` (${code})`}. The connection may have dropped; try again.`, error, context, { status: null, retryable: true });
}

/** A reply that arrived but cannot be used. */
export function invalidOutput(context: CallContext, problem: string, cause?: unknown): StrataError {
  return failure('MODEL_OUTPUT_INVALID', `${subject(context)} sent an unusable ${context.operation} response: ${problem}. Check ${fix(context, 'BASE_URL')} points at an OpenAI-compatible API serving ${fix(context, 'MODEL')}.`, cause, context, { status: null, retryable: true });
}

/** The first problem zod found, as "choices.0.message: expected object". */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'unexpected shape';
  const path = issue.path.map(String).join('.');
  return `${path === '' ? 'response' : path}: ${issue.message}`;
}
