/**
 * Counters of what a memory did, per session and in total, since it was opened: turns, memory-model
 * calls, retries and fallbacks, tokens by phase, lock waits. Kept in process; the retry queue's size
 * comes from the store when the counters are read.
 */

/** Counters of one session, or of all sessions together. */
export interface MemoryCounterSet {
  /** Turns stored (recorded, chatted or imported one by one). */
  turns: number;
  /** Of those, turns that came through `chat()`. */
  chatTurns: number;
  /** Memory-model calls, every attempt counted. */
  memoryModelCalls: number;
  /** Memory-model calls repeated because the answer was malformed. */
  memoryModelRetries: number;
  /** Turns whose memory fell back to the raw exchange (flagged). */
  fallbacks: number;
  /** Background attempts at flagged turns, and how many of them succeeded. */
  retryAttempts: number;
  retriesSucceeded: number;
  /** Phase-1 waits for the previous turn's memory, their total milliseconds, and those that hit the bound. */
  lockWaits: number;
  lockWaitMs: number;
  staleTurns: number;
  /** Requests for detail the chat model made (a tier, a search), and those ignored (an id of no message in the session, no round left). */
  detailRequests: number;
  detailRequestsIgnored: number;
  /** Messages embedded into the vector index (hybrid recall), and background attempts at it that failed. */
  messagesEmbedded: number;
  embeddingFailures: number;
  tokens: {
    /** Phase 1: context-package tokens sent, and what the chat model billed. */
    context: number;
    chatPrompt: number;
    chatCompletion: number;
    /** Phase 2: what the memory model billed. */
    memoryPrompt: number;
    memoryCompletion: number;
  };
}

export function emptyCounters(): MemoryCounterSet {
  return {
    turns: 0,
    chatTurns: 0,
    memoryModelCalls: 0,
    memoryModelRetries: 0,
    fallbacks: 0,
    retryAttempts: 0,
    retriesSucceeded: 0,
    lockWaits: 0,
    lockWaitMs: 0,
    staleTurns: 0,
    detailRequests: 0,
    detailRequestsIgnored: 0,
    messagesEmbedded: 0,
    embeddingFailures: 0,
    tokens: { context: 0, chatPrompt: 0, chatCompletion: 0, memoryPrompt: 0, memoryCompletion: 0 },
  };
}

/** A change to the counters: numbers to add. */
export type CounterChange = Partial<Omit<MemoryCounterSet, 'tokens'>> & { tokens?: Partial<MemoryCounterSet['tokens']> };

export function addInto(target: MemoryCounterSet, change: CounterChange): void {
  for (const [key, value] of Object.entries(change) as Array<[keyof MemoryCounterSet, unknown]>) {
    if (key === 'tokens' || typeof value !== 'number') continue;
    target[key] += value;
  }
  for (const [key, value] of Object.entries(change.tokens ?? {}) as Array<[keyof MemoryCounterSet['tokens'], number | undefined]>) {
    if (value !== undefined) target.tokens[key] += value;
  }
}

function copy(set: MemoryCounterSet): MemoryCounterSet {
  return { ...set, tokens: { ...set.tokens } };
}

export class MemoryCounters {
  private readonly sessions = new Map<string, MemoryCounterSet>();
  private readonly all = emptyCounters();

  add(sessionId: string, change: CounterChange): void {
    let session = this.sessions.get(sessionId);
    if (session === undefined) {
      session = emptyCounters();
      this.sessions.set(sessionId, session);
    }
    addInto(session, change);
    addInto(this.all, change);
  }

  /** A copy of one session's counters (zeros when it did nothing yet), or of the totals. */
  read(sessionId?: string): MemoryCounterSet {
    if (sessionId === undefined) return copy(this.all);
    return copy(this.sessions.get(sessionId) ?? emptyCounters());
  }
}
