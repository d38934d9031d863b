import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Fact } from '../core/types.js';
import type { KnownArtifact, TurnMemory } from '../managers/memory-manager.js';
import type { MemoryState, RawTurn } from './memory-state.js';
import { managerFailure, parseManagerOutput, type ManagerOutcome } from './write-path.js';

export type WorkerRequest =
  | { type: 'start'; facts: Fact[]; nextSequence: number; artifacts: Array<[string, KnownArtifact & { id: string }]>; consolidateEveryTurns: number }
  | { type: 'turns'; turns: RawTurn[] };

/** The manager's answer for one turn (unparsed), or its error message. */
export interface TurnOutcome {
  turn: number;
  output?: unknown;
  error?: string;
  /** False when the worker could not apply `output` to its copy of the memory state. */
  applied?: boolean;
  /** What the worker's consolidation after the turn said (`consolidationSignature`). */
  consolidated: string;
}

export type WorkerReply = { type: 'outcomes'; outcomes: TurnOutcome[] };

/** Analyses submitted turns in a worker thread; `outcome` resolves to null once the worker is unusable. */
export interface ManagerPipeline {
  /** The memory state the first submitted turn builds on, and how often it is consolidated; call once, before `submit`. */
  seed(state: MemoryState, consolidateEveryTurns: number): void;
  submit(turns: readonly RawTurn[]): void;
  outcome(turn: number): Promise<ManagerOutcome | null>;
  /** The engine consolidated after the turn as `signature` says: the worker, which did too, is no longer used unless it agrees. */
  confirm(turn: number, signature: string): void;
  /** Stop using the worker: the turns it has not answered are derived on the calling thread. */
  stop(reason: string): void;
  /** Turns whose answers came from the worker so far. */
  readonly answered: number;
  /** Why the worker stopped being used (it failed to start, crashed, exited or disagreed), or null. */
  readonly problem: string | null;
  close(): Promise<void>;
}

/**
 * Whether a parsed answer changes the memory state exactly as the raw answer did in the worker: the
 * parts the state is advanced with (the diff, the artifacts) read the same after parsing, and it is no
 * fallback (the engine then leaves the diff out; the worker applies every diff it gets).
 */
function appliesAlike(output: unknown, memory: TurnMemory): boolean {
  const raw = output as Partial<TurnMemory>;
  return (
    raw.fallback === undefined &&
    memory.fallback === undefined &&
    JSON.stringify(raw.diff) === JSON.stringify(memory.diff) &&
    JSON.stringify(raw.artifacts) === JSON.stringify(memory.artifacts)
  );
}

/** The compiled worker script, or null when running from sources (tests), where imports stay on one thread. */
export function managerWorkerUrl(): URL | null {
  const url = new URL('./manager-worker.js', import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : null;
}

/** Start the local manager in a worker thread (it loads while the caller prepares the turns). */
export function startManagerPipeline(url: URL, managerName: string): ManagerPipeline {
  const worker = new Worker(url);
  const ready = new Map<number, ManagerOutcome>();
  const waiting = new Map<number, (outcome: ManagerOutcome | null) => void>();
  /** What the worker's consolidation after each answered turn said, until the engine confirms it. */
  const consolidations = new Map<number, string>();
  let broken = false;
  let closed: Promise<void> | undefined;
  let answered = 0;
  let problem: string | null = null;

  const settle = (turn: number, outcome: ManagerOutcome): void => {
    const resolve = waiting.get(turn);
    if (resolve === undefined) ready.set(turn, outcome);
    else {
      waiting.delete(turn);
      resolve(outcome);
    }
  };
  const breakDown = (reason: string): void => {
    if (!broken && closed === undefined) problem = reason;
    broken = true;
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
  };
  /** The worker's state no longer matches the engine's: later turns are derived on the calling thread. */
  const abandon = (turn: number, what = 'the answer'): void => pipeline.stop(`the worker read ${what} for turn ${turn} otherwise than the engine`);
  worker.on('message', (reply: WorkerReply) => {
    for (const { turn, output, error, applied, consolidated } of reply.outcomes) {
      if (broken) return;
      answered += 1;
      consolidations.set(turn, consolidated);
      if (error !== undefined) {
        settle(turn, { failure: managerFailure(new Error(error), managerName, turn) });
        continue;
      }
      // The engine parses every answer here; the worker applied the answer as it was to its copy of the state.
      const outcome = parseManagerOutput(output, managerName);
      settle(turn, outcome);
      if (applied === false || outcome.memory === undefined || !appliesAlike(output, outcome.memory)) abandon(turn);
    }
  });
  worker.on('error', (error: Error) => breakDown(`the worker failed: ${error.message}`));
  worker.on('exit', (code: number) => breakDown(`the worker exited (code ${code})`));

  const pipeline: ManagerPipeline = {
    get answered() {
      return answered;
    },
    get problem() {
      return problem;
    },
    seed(state, consolidateEveryTurns) {
      const start: WorkerRequest = { type: 'start', facts: state.facts, nextSequence: state.nextSequence, artifacts: [...state.artifacts], consolidateEveryTurns };
      if (!broken) worker.postMessage(start);
    },
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
    stop(reason) {
      breakDown(reason);
      void pipeline.close();
    },
    confirm(turn, signature) {
      const said = consolidations.get(turn);
      consolidations.delete(turn);
      if (!broken && said !== signature) abandon(turn, 'the consolidation');
    },
    close() {
      worker.removeAllListeners('exit');
      closed ??= worker.terminate().then(() => undefined);
      return closed;
    },
  };
  return pipeline;
}
