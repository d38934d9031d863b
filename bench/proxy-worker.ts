/**
 * The proxy of the server bench in a worker thread, as a deployment runs it in a process of its own:
 * its memory on the bench's database file, a key for the default tenant, `startServer` on a free port.
 * Posts `{ url, key }` once listening; a message back stops it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createMemory } from '../src/memory/create-memory.js';
import { startServer } from '../src/server/start-server.js';

const port = parentPort;
if (port === null) throw new Error('proxy-worker.js must run as a worker thread.');
const { path, upstream } = workerData as { path: string; upstream: string };
const memory = createMemory({ path, env: { STRATA_LOG_LEVEL: 'silent', STRATA_CHAT_MODEL: 'scripted-chat', STRATA_CHAT_BASE_URL: upstream } });
const { key } = await memory.keys.create({ tenant: 'default', name: 'bench' });
const server = await startServer({ memory, port: 0 });
port.on('message', () => {
  void server.close().then(() => port.close());
});
port.postMessage({ url: server.url, key });
