/**
 * The memory states of recently used sessions, kept between turns so deriving a turn does not read the
 * whole base-truth document and every artifact again. A kept state is used only while the session's
 * fact-event sequence still ends where the state does and the session is the one it was read from (made
 * at the same time): an undo, a consolidation, a retried turn, another process writing fact events, or
 * another process deleting the session and making it again under its id makes it read afresh.
 */
import type { Fact } from '../core/types.js';
import type { TenantRepositories } from '../store/store.js';
import { keptInStoreOrder } from '../core/diff.js';
import { indexingSlices } from '../core/fact-index.js';
import { NO_PAUSE, stepThrough, type Pause } from '../core/slices.js';
import type { MemoryState } from './memory-state.js';
import { loadMemoryState } from './write-path.js';

export class MemoryStateCache {
  private readonly states = new Map<string, MemoryState>();

  /**
   * @param pacing gives each `take` its pause, which may let other work run after a document is read
   * afresh and between the slices it is then indexed in (`indexingSlices`; default: no pause), so a
   * large session's first turn in a process does not hold the event loop for the whole of it.
   */
  constructor(
    private readonly maxSessions = 16,
    private readonly pacing: () => Pause = () => NO_PAUSE,
  ) {}

  /**
   * The session's current state; the caller owns it (and may advance it) until it hands it back with
   * `keep`. Until then the session has no kept state, so a failed write can never leave one behind.
   * `createdAt` is when the session was made, when the caller has just read it (else it is read here).
   */
  async take(repositories: TenantRepositories, sessionId: string, createdAt?: string): Promise<MemoryState> {
    const pause = this.pacing();
    const kept = this.states.get(sessionId);
    this.states.delete(sessionId);
    const [sequence, made] = await Promise.all([
      repositories.facts.lastSequence({ sessionId }),
      createdAt ?? repositories.sessions.get({ sessionId }).then((session) => session?.createdAt),
    ]);
    if (kept !== undefined && sequence === kept.nextSequence - 1 && made !== undefined && made === kept.sessionCreatedAt) return kept;
    const state = await loadMemoryState(repositories, sessionId, sequence);
    if (made !== undefined) state.sessionCreatedAt = made;
    await pause();
    await stepThrough(indexingSlices(state.facts), pause);
    return state;
  }

  /**
   * Keep a state whose turn is written; the least recently kept session goes first when full. Its facts
   * are put in the order the store lists them (turn created, then id), so a turn derives the same memory
   * from a kept state as from a fresh read (a diff's result already is, and keeps its index).
   */
  keep(sessionId: string, state: MemoryState): void {
    state.facts = keptInStoreOrder(state.facts);
    this.states.delete(sessionId);
    if (this.states.size >= this.maxSessions) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
    this.states.set(sessionId, state);
  }

  /**
   * The facts of the session's kept state when it ends at fact-event `sequence` and was read from the
   * session made at `createdAt` (what the store holds then, in its order), without taking the state;
   * undefined otherwise. The caller must not change them.
   */
  factsAt(sessionId: string, sequence: number, createdAt: string): readonly Fact[] | undefined {
    const kept = this.states.get(sessionId);
    return kept !== undefined && kept.nextSequence - 1 === sequence && kept.sessionCreatedAt === createdAt ? kept.facts : undefined;
  }

  forget(sessionId: string): void {
    this.states.delete(sessionId);
  }
}
