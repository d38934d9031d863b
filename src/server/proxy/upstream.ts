/** The OpenAI-compatible endpoint the proxy forwards to: one request, its errors as OpenAI-shaped answers. */
import type { ChatEndpoint } from '../../memory/memory-api.js';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Headers of a request to the endpoint: its key and extra headers. */
function headersFor(endpoint: ChatEndpoint, json: boolean): Record<string, string> {
  return {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(endpoint.apiKey === undefined ? {} : { authorization: `Bearer ${endpoint.apiKey}` }),
    ...endpoint.headers,
  };
}

/** An OpenAI-shaped error answer of the proxy itself (the upstream could not be reached or did not answer in time). */
export function upstreamFailure(status: 502 | 504, message: string): Response {
  return Response.json({ error: { message, type: 'upstream_error', code: status === 504 ? 'upstream_timeout' : 'upstream_unreachable' } }, { status });
}

/**
 * Call the endpoint. `signal` is the client's (a disconnect aborts the call); the endpoint's timeout
 * bounds the wait for its answer to begin. Never throws: a failure is a 502 or 504 answer.
 */
export async function callUpstream(options: { endpoint: ChatEndpoint; path: string; body?: unknown; signal: AbortSignal; fetch: Fetch }): Promise<Response> {
  const { endpoint } = options;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), endpoint.timeoutMs);
  try {
    return await options.fetch(`${endpoint.baseUrl}${options.path}`, {
      method: options.body === undefined ? 'GET' : 'POST',
      headers: headersFor(endpoint, options.body !== undefined),
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.any([options.signal, timeout.signal]),
    });
  } catch (error) {
    if (timeout.signal.aborted) return upstreamFailure(504, `The chat endpoint ${endpoint.baseUrl} did not answer within ${endpoint.timeoutMs} ms (STRATA_CHAT_TIMEOUT_MS).`);
    return upstreamFailure(502, `The chat endpoint ${endpoint.baseUrl} could not be reached: ${error instanceof Error ? error.message : String(error)}.`);
  } finally {
    clearTimeout(timer);
  }
}
