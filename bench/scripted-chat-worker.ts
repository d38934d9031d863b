/**
 * The scripted chat model of the phase-1 bench, in a worker thread: a real model runs in another
 * process, so its request handling (and the scripted server's record of every 30,000-token prompt)
 * must not land on the heap whose collection pauses the bench measures.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startChoosingServer } from './scripted-memory-model.js';

const port = parentPort;
if (port === null) throw new Error('scripted-chat-worker.js must run as a worker thread.');
const reply = String(workerData);
const server = await startChoosingServer(() => ({ reply }));
// Requests are not kept: the bench reads none of them.
const forget = setInterval(() => server.requests.splice(0), 1000);
port.on('message', () => {
  clearInterval(forget);
  void server.close().then(() => port.close());
});
port.postMessage(server.baseUrl);
