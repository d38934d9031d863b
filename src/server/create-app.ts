/**
 * The HTTP face of a memory: `/healthz`, `/metrics`, `/openapi.json`, the REST API under `/api` (every
 * route schema-validated, its answers and errors described in the OpenAPI document) and the
 * OpenAI-compatible memory proxy under `/v1`, and the MCP tools at `/mcp`. One process serves every tenant; a request's API key
 * decides which.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import type { Context } from 'hono';
import { randomUUID } from 'node:crypto';
import type { Memory, MemoryStats } from '../memory/memory-api.js';
import { authenticate, type AuthMode } from './auth.js';
import { answerFor, errorAnswer } from './error-response.js';
import { registerFactRoutes } from './routes/fact-routes.js';
import { registerSessionRoutes } from './routes/session-routes.js';
import { registerTurnRoutes } from './routes/turn-routes.js';
import type { ServerEnv } from './server-env.js';
import { ServerMetrics } from './server-metrics.js';
import { BackgroundWork } from './background-work.js';
import { registerMcpRoute } from './mcp/mcp-route.js';
import { registerProxyRoutes } from './proxy/proxy-routes.js';
import type { Fetch } from './proxy/upstream.js';
import { validationHook } from './validation-hook.js';

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

export interface AppOptions {
  memory: Memory;
  /** `keys` (default): every `/api` request needs an API key. `none`: the memory's default tenant, no key. */
  auth?: AuthMode;
  /** Largest request body in bytes (default 16 MiB: an import carries a whole conversation). */
  bodyLimit?: number;
  /** Told once per answered request (default: nothing). */
  log?: (entry: RequestLogEntry) => void;
  /** Told of failures that are not the caller's doing (store, defects), with the request id. */
  onUnexpected?: (error: unknown, requestId: string) => void;
  /** Request ids (default: random UUIDs). */
  newId?: () => string;
  /** Milliseconds for latencies (default: `performance.now`). */
  clock?: () => number;
  /** Where the proxy's work after an answer runs, so a stop can wait for it (default: its own). */
  background?: BackgroundWork;
  /** How the proxy reaches the chat endpoint (default: the global fetch). */
  fetch?: Fetch;
  /** The version the MCP server reports (default `0.0.0`). */
  version?: string;
}

export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

/** The route pattern that answered, never a raw path (ids would make the metrics grow without bound). */
function routeOf(c: Context): string {
  const matched = matchedRoutes(c).filter((route) => route.method !== 'ALL');
  return matched[matched.length - 1]?.path ?? '(unmatched)';
}

/** The memory's counters summed over the tenants this server has served. */
async function memoryTotals(memory: Memory, tenants: ReadonlySet<string>): Promise<MemoryStats> {
  const all = await Promise.all([memory.tenantId, ...[...tenants].filter((id) => id !== memory.tenantId)].map((id) => memory.tenant(id).stats()));
  const sum = (pick: (stats: MemoryStats) => number): number => all.reduce((total, stats) => total + pick(stats), 0);
  return {
    turns: sum((stats) => stats.turns),
    chatTurns: sum((stats) => stats.chatTurns),
    memoryModelCalls: sum((stats) => stats.memoryModelCalls),
    memoryModelRetries: sum((stats) => stats.memoryModelRetries),
    fallbacks: sum((stats) => stats.fallbacks),
    retryAttempts: sum((stats) => stats.retryAttempts),
    retriesSucceeded: sum((stats) => stats.retriesSucceeded),
    lockWaits: sum((stats) => stats.lockWaits),
    lockWaitMs: sum((stats) => stats.lockWaitMs),
    staleTurns: sum((stats) => stats.staleTurns),
    tokens: {
      context: sum((stats) => stats.tokens.context),
      chatPrompt: sum((stats) => stats.tokens.chatPrompt),
      chatCompletion: sum((stats) => stats.tokens.chatCompletion),
      memoryPrompt: sum((stats) => stats.tokens.memoryPrompt),
      memoryCompletion: sum((stats) => stats.tokens.memoryCompletion),
    },
    pendingRetries: sum((stats) => stats.pendingRetries),
  };
}

export function createApp(options: AppOptions): OpenAPIHono<ServerEnv> {
  const { memory } = options;
  const newId = options.newId ?? randomUUID;
  const clock = options.clock ?? (() => performance.now());
  const metrics = new ServerMetrics();
  const served = new Set<string>();
  const requestIds = new WeakMap<Request, string>();
  const app = new OpenAPIHono<ServerEnv>({ defaultHook: validationHook });

  app.use('*', async (c, next) => {
    const start = clock();
    const requestId = newId();
    requestIds.set(c.req.raw, requestId);
    await next();
    c.header('x-request-id', requestId);
    const ms = clock() - start;
    const route = routeOf(c);
    const tenant = c.get('tenant')?.tenantId ?? null;
    if (tenant !== null) served.add(tenant);
    metrics.observe(c.req.method, route, c.res.status, ms / 1000);
    options.log?.({ requestId, method: c.req.method, path: c.req.path, route, status: c.res.status, ms: Math.round(ms * 10) / 10, tenant });
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      onError: (c) => {
        const { status, body } = errorAnswer('PAYLOAD_TOO_LARGE', `The request body is over the server's limit of ${options.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes; send less, or start the server with a larger --body-limit.`);
        return c.json(body, status);
      },
    }),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200));
  app.get('/metrics', async (c) => c.text(metrics.render(await memoryTotals(memory, served)), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }));
  app.doc31('/openapi.json', { openapi: '3.1.0', info: { title: 'Strata', version: '1', description: 'Conversational memory: sessions, turns, facts and context packages.' } });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer', description: 'An API key from `strata keys create`.' });

  const auth = authenticate(memory, options.auth ?? 'keys');
  app.use('/api/*', auth);
  app.use('/v1/*', auth);
  app.use('/mcp', auth);
  registerSessionRoutes(app);
  registerTurnRoutes(app);
  registerFactRoutes(app);
  registerMcpRoute(app, options.version ?? '0.0.0');
  registerProxyRoutes(app, {
    memory,
    background: options.background ?? new BackgroundWork((error) => options.onUnexpected?.(error, '')),
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  });

  app.notFound((c) => {
    const { status, body } = errorAnswer('NOT_FOUND', `No route ${c.req.method} ${c.req.path}; the API is described at /openapi.json.`);
    return c.json(body, status);
  });
  app.onError((error, c) => {
    const requestId = requestIds.get(c.req.raw) ?? '';
    const { status, body } = answerFor(error, (cause) => options.onUnexpected?.(cause, requestId));
    if (body.error.code === 'UNAUTHORIZED') c.header('www-authenticate', 'Bearer');
    return c.json(body, status);
  });
  return app;
}
