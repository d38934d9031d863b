/**
 * The outermost middleware: a request id for every request, its handler held by the background work
 * (so a stop waits for it), and once it is answered one log line and one metrics observation, by the
 * route pattern that answered.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { BackgroundWork } from './background-work.js';
import { errorAnswer } from './error-response.js';
import type { ServerEnv } from './server-env.js';
import type { ServerMetrics } from './server-metrics.js';

/** One line of the request log. */
export interface RequestLogEntry {
  requestId: string;
  method: string;
  path: string;
  /** The route pattern that answered (`/api/sessions/:sessionId`), or `(unmatched)`. */
  route: string;
  status: number;
  ms: number;
  /** The tenant the request acted for, once its key was checked. */
  tenant: string | null;
}

export interface ObserveOptions {
  metrics: ServerMetrics;
  /** Tenants that made a request, for the metrics' memory counters. */
  served: Set<string>;
  background: BackgroundWork;
  newId: () => string;
  clock: () => number;
  log: ((entry: RequestLogEntry) => void) | undefined;
  onUnexpected: ((error: unknown, requestId: string) => void) | undefined;
}

/** The route pattern that answered, never a raw path (ids would make the metrics grow without bound). */
function routeOf(c: Context): string {
  const matched = matchedRoutes(c).filter((route) => route.method !== 'ALL');
  return matched[matched.length - 1]?.path ?? '(unmatched)';
}

export function observeRequests(options: ObserveOptions): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const start = options.clock();
    const requestId = options.newId();
    c.set('requestId', requestId);
    try {
      await options.background.hold(next);
    } catch (error) {
      // Hono hands errors to onError; only a throw that is not an Error (an abort reason) gets here.
      options.onUnexpected?.(error, requestId);
      const { status, body } = errorAnswer('INTERNAL', 'Strata failed unexpectedly; the server log has the cause.');
      c.res = c.json(body, status);
    }
    c.header('x-request-id', requestId);
    const ms = options.clock() - start;
    const route = routeOf(c);
    const tenant = c.get('tenant')?.tenantId ?? null;
    if (tenant !== null) options.served.add(tenant);
    options.metrics.observe(c.req.method, route, c.res.status, ms / 1000);
    options.log?.({ requestId, method: c.req.method, path: c.req.path, route, status: c.res.status, ms: Math.round(ms * 10) / 10, tenant });
  };
}
