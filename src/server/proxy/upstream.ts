/** The OpenAI-compatible endpoint the proxy forwards to: one request, its failures as OpenAI-shaped answers. */
import type { ChatEndpoint } from '../../memory/memory-api.js';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Headers of the upstream's answer the client gets too: its type, and what tells a client to back off. */
const PASSED = /^(?:content-type|retry-after|x-ratelimit-[a-z-]+|x-request-id)$/u;

export function passedHeaders(answer: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (PASSED.test(name)) headers[name] = value;
  });
  headers['content-type'] ??= 'application/json';
  return headers;
}

/** Headers of a request to the endpoint: its key and extra headers. */
function headersFor(endpoint: ChatEndpoint, json: boolean): Record<string, string> {
  return {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(endpoint.apiKey === undefined ? {} : { authorization: `Bearer ${endpoint.apiKey}` }),
    ...endpoint.headers,
  };
}

/** An OpenAI-shaped error answer of the proxy itself (the upstream could not be reached or did not answer in time). */
function upstreamFailure(status: 502 | 504, message: string): Response {
  return Response.json({ error: { message, type: 'upstream_error', code: status === 504 ? 'upstream_timeout' : 'upstream_unreachable' } }, { status });
}

/** A signal that aborts when `client` does or after `timeoutMs`, and a way to stop the clock. */
function deadline(client: AbortSignal, timeoutMs: number): { signal: AbortSignal; timedOut: () => boolean; stop: () => void } {
  const controller = new AbortController();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = (): void => controller.abort();
  if (client.aborted) controller.abort();
  else client.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => late,
    stop: () => {
      clearTimeout(timer);
      client.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Call the endpoint. `signal` is the client's (a disconnect aborts the call). The endpoint's timeout
 * bounds the wait for the answer to begin, and with `whole` the reading of all of it (the answer is
 * then returned already read). Never throws: a failure is a 502 or 504 answer.
 */
export async function callUpstream(options: { endpoint: ChatEndpoint; path: string; body?: unknown; signal: AbortSignal; fetch: Fetch; whole: boolean }): Promise<Response> {
  const { endpoint } = options;
  const clock = deadline(options.signal, endpoint.timeoutMs);
  try {
    const answer = await options.fetch(`${endpoint.baseUrl}${options.path}`, {
      method: options.body === undefined ? 'GET' : 'POST',
      headers: headersFor(endpoint, options.body !== undefined),
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: clock.signal,
    });
    if (!options.whole) return answer;
    const text = await answer.text();
    return new Response(text, { status: answer.status, headers: answer.headers });
  } catch (error) {
    if (clock.timedOut()) return upstreamFailure(504, `The chat endpoint ${endpoint.baseUrl} did not answer within ${endpoint.timeoutMs} ms (STRATA_CHAT_TIMEOUT_MS).`);
    return upstreamFailure(502, `The chat endpoint ${endpoint.baseUrl} could not be reached: ${error instanceof Error ? error.message : String(error)}.`);
  } finally {
    clock.stop();
  }
}
