import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Fact } from '../core/types.js';
import type { KnownArtifact } from '../managers/memory-manager.js';
import { managerFailure, parseManagerOutput, type ManagerOutcome, type MemoryState, type RawTurn } from './write-path.js';

export type WorkerRequest =
  | { type: 'start'; facts: Fact[]; nextSequence: number; artifacts: Array<[string, KnownArtifact & { id: string }]> }
  | { type: 'turns'; turns: RawTurn[] };

export type WorkerReply = { type: 'outcome'; turn: number; output?: unknown; error?: string };

/** Analyses submitted turns in a worker thread; `outcome` resolves to null once the worker is unusable. */
export interface ManagerPipeline {
  submit(turns: readonly RawTurn[]): void;
  outcome(turn: number): Promise<ManagerOutcome | null>;
  close(): Promise<void>;
}

/** The compiled worker script, or null when running from sources (tests), where imports stay on one thread. */
export function managerWorkerUrl(): URL | null {
  const url = new URL('./manager-worker.js', import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : null;
}

/** Start the local manager in a worker thread, seeded with the session's memory state. */
export function startManagerPipeline(url: URL, state: MemoryState, managerName: string): ManagerPipeline {
  const worker = new Worker(url);
  const ready = new Map<number, ManagerOutcome>();
  const waiting = new Map<number, (outcome: ManagerOutcome | null) => void>();
  let broken = false;

  const settle = (turn: number, outcome: ManagerOutcome): void => {
    const resolve = waiting.get(turn);
    if (resolve === undefined) ready.set(turn, outcome);
    else {
      waiting.delete(turn);
      resolve(outcome);
    }
  };
  const breakDown = (): void => {
    broken = true;
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  worker.on('message', (reply: WorkerReply) => {
    settle(
      reply.turn,
      reply.error === undefined ? parseManagerOutput(reply.output, managerName) : { failure: managerFailure(new Error(reply.error), managerName, reply.turn) },
    );
  });
  worker.on('error', breakDown);
  worker.on('exit', breakDown);
  const start: WorkerRequest = { type: 'start', facts: state.facts, nextSequence: state.nextSequence, artifacts: [...state.artifacts] };
  worker.postMessage(start);

  return {
    submit(turns) {
      if (!broken) worker.postMessage({ type: 'turns', turns: [...turns] } satisfies WorkerRequest);
    },
    outcome(turn) {
      const outcome = ready.get(turn);
      if (outcome !== undefined) {
        ready.delete(turn);
        return Promise.resolve(outcome);
      }
      if (broken) return Promise.resolve(null);
      return new Promise((resolve) => waiting.set(turn, resolve));
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
