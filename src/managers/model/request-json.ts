import { StrataError, isStrataError } from '../../core/errors.js';
import type { ChatMessage } from '../../core/types.js';
import type { ChatModel, OutputSchema } from '../../providers/chat-model/chat-model.js';
import type { ReplyCheck } from './json-reply.js';
import type { ModelManagerStats } from './model-stats.js';

export interface JsonRequest<T> {
  model: ChatModel;
  messages: readonly ChatMessage[];
  schema: OutputSchema;
  /** Checks the reply text; a failed check is a malformed answer. */
  check: (text: string) => ReplyCheck<T>;
  timeoutMs: number;
  temperature: number;
  /** Updated in place: calls, retries and tokens. */
  stats: ModelManagerStats;
  /** What the call is for, as error messages say it (e.g. `turn 4 of session s-1`). */
  purpose: string;
}

/** The checked answer, or the failure that ended the attempts. */
export type JsonAnswer<T> = { ok: true; value: T } | { ok: false; error: StrataError };

/** Attempts of a call whose answer is malformed: the first and one retry with the same payload. */
const ATTEMPTS = 2;

/** A failure thrown by a model that is not a `StrataError`: a bug in a custom `ChatModel`, not an endpoint problem. */
function foreignFailure(error: unknown, request: JsonRequest<unknown>): StrataError {
  const said = error instanceof Error ? error.message : String(error);
  return new StrataError(
    'MODEL_FAILURE',
    `The memory model "${request.model.model}" failed on ${request.purpose} with an error that is not a model error (${said}). Check the ChatModel implementation: it must throw StrataErrors with MODEL_* codes.`,
    { cause: error, details: { model: request.model.model, status: null, retryable: false } },
  );
}

function malformed(problem: string, request: JsonRequest<unknown>): StrataError {
  return new StrataError(
    'MODEL_OUTPUT_INVALID',
    `The memory model "${request.model.model}" answered ${request.purpose} with unusable JSON ${ATTEMPTS} times (last: ${problem}). ` +
      'Use a model that follows JSON instructions more closely (Strata sends a JSON schema whenever the endpoint accepts one, else puts the schema in the prompt), or let the local manager write memory by unsetting STRATA_MEMORY_MODEL.',
    { details: { model: request.model.model, problem, attempts: ATTEMPTS, retryable: false } },
  );
}

/**
 * Ask the model for JSON and check it. A malformed answer (or an unusable HTTP response) is asked for
 * again once with the same payload; any other failure ends the call at once. Never throws.
 */
export async function requestJson<T>(request: JsonRequest<T>): Promise<JsonAnswer<T>> {
  let last: StrataError | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    if (attempt > 1) request.stats.retries += 1;
    request.stats.calls += 1;
    let text: string;
    try {
      const result = await request.model.generate({
        messages: request.messages,
        schema: request.schema,
        timeoutMs: request.timeoutMs,
        temperature: request.temperature,
      });
      request.stats.promptTokens += result.usage.promptTokens;
      request.stats.completionTokens += result.usage.completionTokens;
      text = result.text;
    } catch (error) {
      if (!isStrataError(error)) return { ok: false, error: foreignFailure(error, request) };
      if (error.code !== 'MODEL_OUTPUT_INVALID') return { ok: false, error };
      last = error;
      continue;
    }
    const checked = request.check(text);
    if (checked.ok) return { ok: true, value: checked.value };
    last = malformed(checked.problem, request);
  }
  return { ok: false, error: last ?? malformed('no answer', request) };
}

/** What every memory-model call takes from the manager's settings: its model, timeout and temperature. */
export type CallSettings = Pick<JsonRequest<unknown>, 'model' | 'timeoutMs' | 'temperature'>;

/** `requestJson` with the model, timeout and temperature of the manager's settings. Never throws. */
export function requestWithSettings<T>(settings: CallSettings, stats: ModelManagerStats, request: Pick<JsonRequest<T>, 'messages' | 'schema' | 'check' | 'purpose'>): Promise<JsonAnswer<T>> {
  return requestJson({ ...request, model: settings.model, timeoutMs: settings.timeoutMs, temperature: settings.temperature, stats });
}
