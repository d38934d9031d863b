/**
 * The web app's files (built by Vite into `dist/web`) served at `/`: the page without caching, so a new
 * version shows at the next load, and its hashed assets cached for good. The page talks to the REST API
 * like any client; serving it needs no key (it holds no data), every API call does.
 */
import { serveStatic } from '@hono/node-server/serve-static';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorAnswer } from './error-response.js';
import type { ServerEnv } from './server-env.js';

/** Same-origin only: the app loads nothing from elsewhere and sends nothing elsewhere. */
const CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Asset names carry a hash of their content: a new build has new names, so a copy never goes stale. */
const ASSET_HEADERS = { 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff' };

/** Adds headers to a file's answer once it is found (a miss falls through to the JSON 404). */
function withHeaders(headers: Readonly<Record<string, string>>): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== 200 && c.res.status !== 206) return;
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/** Serves the app from `root` (a folder holding `index.html` and `assets/`). */
export function registerWebApp(app: OpenAPIHono<ServerEnv>, root: string): void {
  if (!existsSync(join(root, 'index.html'))) {
    app.get('/', (c) => {
      const { status, body } = errorAnswer('NOT_FOUND', `The web app is not built (no ${join(root, 'index.html')}); run \`npm run build\` in the package, or use the API described at /openapi.json.`);
      return c.json(body, status);
    });
    return;
  }
  const page = serveStatic<ServerEnv>({ root, rewriteRequestPath: () => '/index.html' });
  const assets = serveStatic<ServerEnv>({ root });
  app.get('/', withHeaders(PAGE_HEADERS), page);
  app.get('/index.html', withHeaders(PAGE_HEADERS), page);
  app.get('/assets/*', withHeaders(ASSET_HEADERS), assets);
}
