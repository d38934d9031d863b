/**
 * `strata-memory/server`: the HTTP face of a memory, for embedding in your own process.
 *
 * ```ts
 * const memory = createMemory();
 * const { key } = await memory.keys.create({ tenant: 'acme' });
 * const server = await startServer({ memory, port: 0 });   // server.url: http://127.0.0.1:PORT
 * // …requests with "Authorization: Bearer <key>"…
 * await server.close();                                     // also closes the memory
 * ```
 */
export { createApp, DEFAULT_BODY_LIMIT, type AppOptions } from './create-app.js';
export type { RequestLogEntry } from './observe-requests.js';
export { startServer, type RunningServer, type StartOptions } from './start-server.js';
export type { AuthMode } from './auth.js';
export { STATUS_OF } from './error-response.js';
