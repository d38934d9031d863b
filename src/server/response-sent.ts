/**
 * When an answer has left the server. Work done after answering (the proxy's recording of a turn, its
 * memory work) must not hold up the answer's last bytes: on Node's HTTP server that work waits for the
 * response to finish (or its connection to close). Served another way (`app.request` in tests, other
 * runtimes), there is no response object to watch, and the work waits for the next turn of the event loop.
 */
import type { ServerResponse } from 'node:http';

/** The Node response behind a request, when the server is Node's (`@hono/node-server` passes it as `env.outgoing`). */
export function nodeResponseOf(env: unknown): ServerResponse | undefined {
  const outgoing = (env as { outgoing?: unknown } | undefined)?.outgoing;
  return typeof outgoing === 'object' && outgoing !== null && 'writableFinished' in outgoing && 'once' in outgoing ? (outgoing as ServerResponse) : undefined;
}

/** Resolves once `outgoing` has been handed whole to the system or its connection has closed. */
export function responseSent(outgoing: ServerResponse | undefined): Promise<void> {
  if (outgoing === undefined) return new Promise((resolve) => setImmediate(resolve));
  if (outgoing.writableFinished || outgoing.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      outgoing.off('finish', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.once('finish', done);
    outgoing.once('close', done);
  });
}
