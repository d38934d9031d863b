/**
 * The HTTP face of a memory: `/healthz`, `/metrics`, `/openapi.json`, the REST API under `/api` (every
 * route schema-validated, its answers and errors described in the OpenAPI document) and the
 * OpenAI-compatible memory proxy under `/v1`, and the MCP tools at `/mcp`. One process serves every tenant; a request's API key
 * decides which.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { randomUUID } from 'node:crypto';
import type { Memory, MemoryStats } from '../memory/memory-api.js';
import { addInto, emptyCounters } from '../memory/memory-counters.js';
import { authenticate, type AuthMode } from './auth.js';
import { answerFor, errorAnswer } from './error-response.js';
import { registerChatRoutes } from './routes/chat-routes.js';
import { registerEvalRoutes } from './routes/eval-routes.js';
import { registerFactRoutes } from './routes/fact-routes.js';
import { registerMemoryRoutes } from './routes/memory-routes.js';
import { registerMemoryWorkRoutes } from './routes/memory-work-routes.js';
import { registerSessionRoutes } from './routes/session-routes.js';
import { registerTurnRoutes } from './routes/turn-routes.js';
import type { ServerEnv } from './server-env.js';
import { ServerMetrics } from './server-metrics.js';
import { backgroundOf, type BackgroundWork } from './background-work.js';
import { observeRequests, type RequestLogEntry } from './observe-requests.js';
import { registerMcpRoute } from './mcp/mcp-route.js';
import { registerProxyRoutes } from './proxy/proxy-routes.js';
import type { Fetch } from './proxy/upstream.js';
import { validationHook } from './validation-hook.js';
import { registerWebApp } from './web-app.js';

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
  /** The package folder whose `examples/` the eval routes list and run (default: the installed strata-memory package). */
  packageRoot?: string;
  /** Folder of the built web app, served at `/` (default: none; `strata serve` serves the package's `dist/web`). */
  webRoot?: string;
}

export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

/** The memory's counters summed over the tenants this server has served (and the default one). */
async function memoryTotals(memory: Memory, tenants: ReadonlySet<string>): Promise<MemoryStats> {
  const ids = new Set([memory.tenantId, ...tenants]);
  const total = emptyCounters();
  let pendingRetries = 0;
  for (const { pendingRetries: waiting, ...counters } of await Promise.all([...ids].map((id) => memory.tenant(id).stats()))) {
    addInto(total, counters);
    pendingRetries += waiting;
  }
  return { ...total, pendingRetries };
}

export function createApp(options: AppOptions): OpenAPIHono<ServerEnv> {
  const { memory } = options;
  const newId = options.newId ?? randomUUID;
  const clock = options.clock ?? (() => performance.now());
  const metrics = new ServerMetrics();
  const served = new Set<string>();
  const background = backgroundOf(options);
  const app = new OpenAPIHono<ServerEnv>({ defaultHook: validationHook });

  app.use('*', observeRequests({ metrics, served, background, newId, clock, log: options.log, onUnexpected: options.onUnexpected }));
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

  // `auth` tells a client (the web app) whether to ask for a key before its first call.
  app.get('/healthz', (c) => c.json({ status: 'ok', auth: options.auth ?? 'keys' }, 200));
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
  registerMemoryRoutes(app);
  registerMemoryWorkRoutes(app);
  registerChatRoutes(app, { memory, background, onUnexpected: (error, requestId) => options.onUnexpected?.(error, requestId) });
  registerEvalRoutes(app, { packageRoot: options.packageRoot });
  registerMcpRoute(app, options.version ?? '0.0.0');
  registerProxyRoutes(app, { memory, background, newId, fetch: options.fetch ?? ((input, init) => fetch(input, init)) });

  if (options.webRoot !== undefined) registerWebApp(app, options.webRoot);

  app.notFound((c) => {
    const { status, body } = errorAnswer('NOT_FOUND', `No route ${c.req.method} ${c.req.path}; the API is described at /openapi.json.`);
    return c.json(body, status);
  });
  app.onError((error, c) => {
    const requestId = c.get('requestId');
    const { status, body } = answerFor(error, (cause) => options.onUnexpected?.(cause, requestId));
    if (body.error.code === 'UNAUTHORIZED') c.header('www-authenticate', 'Bearer');
    return c.json(body, status);
  });
  return app;
}
