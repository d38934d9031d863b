/**
 * Requests to the REST API with the API key of this browser session (kept in sessionStorage, so it is
 * entered once and gone when the tab closes). A 401 is told to whoever asked for the key.
 */
import { ApiError, errorOf } from './api-error.js';

const KEY_ITEM = 'strata.apiKey';

let onUnauthorized: () => void = () => {};

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

/** Called when the server refuses the key (or asks for one). */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

function urlOf(path: string, query: RequestOptions['query']): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The raw response of a request that succeeded; a failed one throws its ApiError. */
export async function send(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  const key = storedKey();
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(urlOf(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (response.ok) return response;
  const error = await errorOf(response);
  if (response.status === 401) onUnauthorized();
  throw error;
}

/** A request answered with JSON (or nothing, for 204). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(response.status, 'BAD_RESPONSE', `The server's answer to ${path} is not JSON.`);
  }
}
