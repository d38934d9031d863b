import OpenAI from 'openai';
import { z } from 'zod';
import { StrataError } from '../../core/errors.js';
import { modelSettingsSchema, type ModelRole } from '../model-settings.js';

/** The `fetch` the client uses; injected so tests and hosts choose it. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How to reach one OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter …). */
export interface OpenAiConnectionSettings {
  /** Base URL of the API, usually ending in `/v1` (e.g. `http://localhost:11434/v1` for Ollama). Required. */
  baseUrl: string;
  /** Model name as the endpoint knows it. Required. */
  model: string;
  /** API key, sent as a bearer token (default: none, and no Authorization header is sent). */
  apiKey?: string;
  /** Extra headers for every request, e.g. Azure's `api-key` or OpenRouter's `HTTP-Referer` (default none). */
  headers?: Readonly<Record<string, string>>;
  /** Time allowed per call in milliseconds (default 8000, the memory model's bound). */
  timeoutMs?: number;
  /** Retries of failed requests; the client waits as `retry-after` asks on 429 and 5xx (default 2). */
  maxRetries?: number;
  /** Which role this model serves; error messages then name its `STRATA_<ROLE>_*` variables (default none). */
  role?: ModelRole;
  /** The `fetch` to use (default the global one). */
  fetch?: FetchFunction;
}

/** A validated connection: the client and what error messages need to say where it points. */
export interface OpenAiConnection {
  client: OpenAI;
  model: string;
  baseUrl: string;
  timeoutMs: number;
  role: ModelRole | undefined;
}

export const DEFAULT_MODEL_TIMEOUT_MS = 8000;
export const DEFAULT_MAX_RETRIES = 2;

/** Stands in for the key the client insists on; its Authorization header is then removed. */
const NO_KEY = 'strata-no-api-key';

const connectionSchema = z.object({
  baseUrl: modelSettingsSchema.shape.baseUrl,
  model: modelSettingsSchema.shape.model,
  timeoutMs: modelSettingsSchema.shape.timeoutMs,
  maxRetries: z.number().int().min(0, { error: 'must be 0 or more' }).max(10, { error: 'must be at most 10' }),
});

/** Validate the settings and build a client that reads nothing from the environment. */
export function connectOpenAi(settings: OpenAiConnectionSettings): OpenAiConnection {
  const parsed = connectionSchema.safeParse({
    baseUrl: settings.baseUrl,
    model: settings.model,
    timeoutMs: settings.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
    maxRetries: settings.maxRetries ?? DEFAULT_MAX_RETRIES,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'settings')} ${issue.message}`);
    throw new StrataError('INVALID_CONFIG', `Invalid model settings: ${problems.join('; ')}.`, { details: { role: settings.role, issues: parsed.error.issues } });
  }
  const { model, timeoutMs, maxRetries } = parsed.data;
  const baseUrl = parsed.data.baseUrl.replace(/\/+$/u, '');
  const hasKey = settings.apiKey !== undefined && settings.apiKey !== '';
  const headers = settings.headers ?? {};
  const ownAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  const client = new OpenAI({
    baseURL: baseUrl,
    apiKey: hasKey ? settings.apiKey : NO_KEY,
    // Passed explicitly so that the client does not fall back to OPENAI_* variables.
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: 'off',
    timeout: timeoutMs,
    maxRetries,
    defaultHeaders: { ...headers, ...(hasKey || ownAuthorization ? {} : { Authorization: null }) },
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
  });
  return { client, model, baseUrl, timeoutMs, role: settings.role };
}
