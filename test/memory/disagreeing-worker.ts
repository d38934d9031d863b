/**
 * The import worker, except that it reports another consolidation after turn 30 than it made (bundled by
 * the import-worker test): the engine must notice and finish the import without it.
 */
import { parentPort } from 'node:worker_threads';
import type { WorkerReply } from '../../src/memory/manager-pipeline.js';

const port = parentPort;
if (port === null) throw new Error('disagreeing-worker must run as a worker thread.');
const post = port.postMessage.bind(port);
port.postMessage = (reply: WorkerReply): void => {
  post({ ...reply, outcomes: reply.outcomes.map((outcome) => (outcome.turn === 30 ? { ...outcome, consolidated: '[["consolidate","not what the engine did"]]' } : outcome)) });
};
await import('../../src/memory/manager-worker.js');
