/**
 * `strata serve` as a function: the app on a Node HTTP server, and a clean stop. Stopping refuses new
 * connections, lets requests in flight finish (a turn being recorded is stored, its memory written or
 * left pending-retry), then closes the memory, which waits for its memory work.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StrataError } from '../core/errors.js';
import { backgroundOf } from './background-work.js';
import { createApp, type AppOptions } from './create-app.js';

export interface StartOptions extends AppOptions {
  /** Interface to listen on (default 127.0.0.1). Auth `none` is refused on any but a loopback one. */
  host?: string;
  /** Port (default 8787; 0 picks a free one). */
  port?: number;
  /** How long a stop waits for requests in flight before closing their connections (default 10 s). */
  drainMs?: number;
}

export interface RunningServer {
  /** `http://HOST:PORT`, with the port actually bound. */
  readonly url: string;
  /** Stop as described in the module comment; the memory is closed too. Safe to call twice. */
  close(): Promise<void>;
}

/** Whether `host` names this machine's loopback interface only. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/u.test(host);
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.auth === 'none' && !isLoopback(host)) {
    throw new StrataError('INVALID_INPUT', `Serving without API keys (--no-auth) is allowed on a loopback host only (127.0.0.1, ::1, localhost), not ${host}; create keys with \`strata keys create\` instead.`);
  }
  const background = backgroundOf(options);
  const app = createApp({ ...options, background });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host, port: options.port ?? 8787 }) as Server;
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException): void =>
      reject(new StrataError('INVALID_INPUT', `Cannot listen on ${host}:${options.port ?? 8787}: ${error.message}; choose another --port or --host.`, { cause: error }));
    server.once('error', refuse);
    server.listen(options.port ?? 8787, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  // A failure of the listening server later on (not of a request) is reported, never left unhandled.
  server.on('error', (error) => options.onUnexpected?.(error, 'server'));
  // Once stopping, every answer closes its connection, so keep-alive clients do not hold the stop open.
  let stopping = false;
  server.on('request', (_request, response) => {
    if (stopping) response.setHeader('connection', 'close');
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        const timer = setTimeout(() => server.closeAllConnections(), options.drainMs ?? 10_000);
        server.closeIdleConnections();
        await closed;
        clearInterval(idle);
        clearTimeout(timer);
        // Handlers still running (their connection cut at the deadline) and the proxy's turns whose
        // answers went out finish before the memory closes.
        await background.drain();
        await options.memory.close();
      })()),
  };
}
