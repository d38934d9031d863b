/**
 * Worker thread of a bulk import: runs the local memory manager over the imported turns in order,
 * keeping its own copy of the memory state with the same pure functions the engine uses, so the main
 * thread can store, count and apply while the next turns are analysed.
 */
import { parentPort } from 'node:worker_threads';
import { createLocalMemoryManager } from '../managers/local/index.js';
import type { WorkerReply, WorkerRequest } from './manager-pipeline.js';
import { advanceState, parseManagerOutput, turnRequest, type MemoryState } from './write-path.js';

const port = parentPort;
if (port === null) throw new Error('manager-worker.js must run as a worker thread.');

const manager = createLocalMemoryManager();
let state: MemoryState = { facts: [], nextSequence: 1, artifacts: new Map() };
let counter = 0;
const newId = (): string => `worker-${++counter}`;
let queue: Promise<void> = Promise.resolve();

const reply = (message: WorkerReply): void => port.postMessage(message);

port.on('message', (request: WorkerRequest) => {
  queue = queue.then(async () => {
    if (request.type === 'start') {
      state = { facts: request.facts, nextSequence: request.nextSequence, artifacts: new Map(request.artifacts) };
      return;
    }
    for (const raw of request.turns) {
      const time = raw.messages[0]?.createdAt ?? '';
      try {
        const output: unknown = await manager.processTurn(turnRequest(raw, state, time));
        const outcome = parseManagerOutput(output, manager.name);
        if (outcome.memory !== undefined) advanceState(raw, state, outcome.memory, { actor: manager.name, now: time, newId });
        reply({ type: 'outcome', turn: raw.turn, output });
      } catch (error) {
        reply({ type: 'outcome', turn: raw.turn, error: error instanceof Error ? error.message : String(error) });
      }
    }
  });
});
