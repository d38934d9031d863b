/**
 * Worker thread of a bulk import: runs the local memory manager over the imported turns in order and
 * applies each answer to its own copy of the memory state (with the pure functions the engine uses), so
 * the main thread can store, parse, count and apply while the next turns are analysed. Answers go out
 * unparsed, a few turns at a time: the engine parses every one and stops using this thread if it reads
 * one otherwise than this thread applied it.
 */
import { parentPort } from 'node:worker_threads';
import { createLocalMemoryManager } from '../managers/local/index.js';
import type { TurnMemory } from '../managers/memory-manager.js';
import type { TurnOutcome, WorkerReply, WorkerRequest } from './manager-pipeline.js';
import { consolidateState, consolidationSignature } from './consolidation.js';
import { advanceState, turnRequest, type MemoryState, type RawTurn } from './memory-state.js';

const port = parentPort;
if (port === null) throw new Error('manager-worker.js must run as a worker thread.');

/** Turns per reply: a message per turn costs the main thread a wake-up each. */
const REPLY_TURNS = 16;

const manager = createLocalMemoryManager();
let state: MemoryState = { facts: [], nextSequence: 1, artifacts: new Map() };
let consolidateEveryTurns = 0;
let counter = 0;
const newId = (): string => `worker-${String(++counter).padStart(12, '0')}`;
let queue: Promise<void> = Promise.resolve();
let outcomes: TurnOutcome[] = [];

const flush = (): void => {
  if (outcomes.length === 0) return;
  port.postMessage({ type: 'outcomes', outcomes } satisfies WorkerReply);
  outcomes = [];
};

/** Run the manager on one turn and apply its answer to this thread's copy of the state. */
async function analyse(raw: RawTurn): Promise<Omit<TurnOutcome, 'consolidated'>> {
  const time = raw.messages[0]?.createdAt ?? '';
  let output: TurnMemory;
  try {
    output = await manager.processTurn(turnRequest(raw, state, time));
  } catch (error) {
    return { turn: raw.turn, error: error instanceof Error ? error.message : String(error) };
  }
  // The engine parses the answer when it arrives, and stops using this thread if it reads it otherwise.
  try {
    advanceState(raw, state, output, { actor: manager.name, now: time, newId });
    return { turn: raw.turn, output };
  } catch {
    return { turn: raw.turn, output, applied: false };
  }
}

/** A turn's answer, and the consolidation after it when one is due (as the engine consolidates, which compares). */
async function answer(raw: RawTurn): Promise<TurnOutcome> {
  const outcome = await analyse(raw);
  const now = (): string => raw.messages[0]?.createdAt ?? '';
  const sessionId = raw.messages[0]?.sessionId ?? '';
  const write = outcome.applied === false ? null : await consolidateState({ manager, sessionId, turn: raw.turn, everyTurns: consolidateEveryTurns, state, now, newId });
  return { ...outcome, consolidated: consolidationSignature(write) };
}

port.on('message', (request: WorkerRequest) => {
  queue = queue.then(async () => {
    if (request.type === 'start') {
      state = { facts: request.facts, nextSequence: request.nextSequence, artifacts: new Map(request.artifacts) };
      consolidateEveryTurns = request.consolidateEveryTurns;
      return;
    }
    for (const raw of request.turns) {
      outcomes.push(await answer(raw));
      if (outcomes.length >= REPLY_TURNS) flush();
    }
    flush();
  });
});
