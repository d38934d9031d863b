import { z } from 'zod';
import { StrataError } from '../core/errors.js';

const roleSchema = z.enum(['chat', 'memory', 'embedding']);

/** What a model is used for: answering the user, writing memory, or embedding text. */
export type ModelRole = z.infer<typeof roleSchema>;

export interface ModelSettingsByRole {
  chat: ModelSettings | null;
  memory: ModelSettings | null;
  embedding: ModelSettings | null;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_TIMEOUT_MS: Readonly<Record<ModelRole, number>> = { chat: 60_000, memory: 8_000, embedding: 8_000 };

const PREFIX: Readonly<Record<ModelRole, string>> = { chat: 'STRATA_CHAT', memory: 'STRATA_MEMORY', embedding: 'STRATA_EMBEDDING' };

type Setting = 'MODEL' | 'BASE_URL' | 'API_KEY' | 'HEADERS' | 'TIMEOUT_MS';

/** The environment variable that sets one setting of a role, e.g. `STRATA_MEMORY_BASE_URL`. */
export function modelVariable(role: ModelRole, setting: Setting): string {
  return `${PREFIX[role]}_${setting}`;
}

const timeoutSchema = z
  .number()
  .int()
  .min(1, { error: 'must be at least 1 ms' })
  .max(600_000, { error: 'must be at most 600000 ms (10 minutes)' });

const HEADERS_SHAPE = 'must be a JSON object of header names to string values, such as {"api-key":"…"}';

/** The endpoint and model behind one role; what the OpenAI-compatible adapters take. */
export const modelSettingsSchema = z.strictObject({
  role: roleSchema,
  /** Model name as the endpoint knows it, e.g. `gpt-4o-mini` or `llama3.1:8b`. */
  model: z.string().trim().min(1, { error: 'must name a model' }),
  /** Base URL of the OpenAI-compatible API, usually ending in `/v1`. */
  baseUrl: z.url({ protocol: /^https?$/u, error: 'must be an http:// or https:// URL, such as http://localhost:11434/v1' }),
  /** API key; absent for endpoints that need none (Ollama, llama.cpp, LM Studio). */
  apiKey: z.string().min(1).optional(),
  /** Extra headers sent with every request (OpenRouter's `HTTP-Referer`, Azure's `api-key` …). */
  headers: z.record(z.string().min(1, { error: HEADERS_SHAPE }), z.string({ error: HEADERS_SHAPE }), { error: HEADERS_SHAPE }),
  /** Time allowed per call in milliseconds (defaults: chat 60,000, memory 8,000, embedding 8,000). */
  timeoutMs: timeoutSchema,
});

export type ModelSettings = z.infer<typeof modelSettingsSchema>;

const fields = modelSettingsSchema.shape;
const wholeNumber = z.string().regex(/^\d+$/u, { error: 'must be a whole number of milliseconds' }).transform(Number).pipe(timeoutSchema);

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, variable: string, shown: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const reason = parsed.error.issues[0]?.message ?? 'is invalid';
  throw new StrataError('INVALID_CONFIG', `${variable} ${reason} (got ${shown}). Fix or unset ${variable}.`, {
    details: { variable, issues: parsed.error.issues },
  });
}

function parseHeaders(text: string, variable: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StrataError('INVALID_CONFIG', `${variable} is not valid JSON (${(error as Error).message}); set it to a JSON object such as {"api-key":"…"} or unset it.`, {
      cause: error,
      details: { variable },
    });
  }
  // Values are secrets as often as not: the message names the variable, never the text.
  return parseOrThrow(fields.headers, value, variable, 'a value of the wrong shape');
}

type Environment = Readonly<Record<string, string | undefined>>;

function read(env: Environment, variable: string): string | undefined {
  const value = env[variable]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function readRole(env: Environment, role: ModelRole): ModelSettings | null {
  const model = read(env, modelVariable(role, 'MODEL'));
  if (model === undefined) return null;
  const ownBaseUrl = read(env, modelVariable(role, 'BASE_URL'));
  const baseUrlVariable = ownBaseUrl === undefined ? 'OPENAI_BASE_URL' : modelVariable(role, 'BASE_URL');
  const rawBaseUrl = ownBaseUrl ?? read(env, 'OPENAI_BASE_URL') ?? DEFAULT_BASE_URL;
  const baseUrl = parseOrThrow(fields.baseUrl, rawBaseUrl, baseUrlVariable, JSON.stringify(rawBaseUrl)).replace(/\/+$/u, '');
  // OPENAI_API_KEY only goes where OPENAI_BASE_URL (or OpenAI itself) points, never to a role's own endpoint.
  const apiKey = read(env, modelVariable(role, 'API_KEY')) ?? (ownBaseUrl === undefined ? read(env, 'OPENAI_API_KEY') : undefined);
  const headersText = read(env, modelVariable(role, 'HEADERS'));
  const timeoutText = read(env, modelVariable(role, 'TIMEOUT_MS'));
  const timeoutVariable = modelVariable(role, 'TIMEOUT_MS');
  return {
    role,
    model,
    baseUrl,
    ...(apiKey === undefined ? {} : { apiKey }),
    headers: headersText === undefined ? {} : parseHeaders(headersText, modelVariable(role, 'HEADERS')),
    timeoutMs: timeoutText === undefined ? DEFAULT_TIMEOUT_MS[role] : parseOrThrow(wholeNumber, timeoutText, timeoutVariable, JSON.stringify(timeoutText)),
  };
}

/**
 * The chat, memory and embedding models configured in the environment; a role is `null` when its
 * `STRATA_<ROLE>_MODEL` is not set. Per role: `_MODEL`, `_BASE_URL` (default OPENAI_BASE_URL, then
 * OpenAI), `_API_KEY` (default OPENAI_API_KEY, only when the role has no base URL of its own),
 * `_HEADERS` (a JSON object) and `_TIMEOUT_MS`. Bad values throw `INVALID_CONFIG` naming the variable.
 */
export function readModelSettings(env: Environment): ModelSettingsByRole {
  return { chat: readRole(env, 'chat'), memory: readRole(env, 'memory'), embedding: readRole(env, 'embedding') };
}

/** The settings of a role that must be configured, or `MODEL_NOT_CONFIGURED` saying what to set. */
export function requireModelSettings(settings: ModelSettings | null, role: ModelRole): ModelSettings {
  if (settings !== null) return settings;
  throw new StrataError(
    'MODEL_NOT_CONFIGURED',
    `No ${role} model is configured. Set ${modelVariable(role, 'MODEL')} to a model name, and ${modelVariable(role, 'BASE_URL')} (and ${modelVariable(role, 'API_KEY')} if the endpoint needs one) unless it is OpenAI.`,
    { details: { role, variable: modelVariable(role, 'MODEL') } },
  );
}
