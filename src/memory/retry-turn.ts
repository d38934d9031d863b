/**
 * One attempt at a turn from the retry queue: derive its memory again; a success replaces the fallback
 * memory and applies its diff, a turn the model keeps garbling ends as `fallback-raw`.
 */
import type { MemoryRetry, TenantRepositories } from '../store/store.js';
import type { RetryOutcome } from './retry-runner.js';
import { WAITING_REASON } from './turn-order.js';
import { deriveTurn, loadMemoryState, type DerivedTurn, type WriteContext } from './write-path.js';

/**
 * Attempts of a turn whose memory model keeps answering it with malformed JSON (each attempt asks twice):
 * with the default backoff the last comes about a quarter of an hour after the first; then it ends `fallback-raw`.
 */
const MALFORMED_ATTEMPTS = 10;

/** What an attempt came to, for the retry runner. */
export interface RetryAttempt {
  outcome: RetryOutcome;
  message?: string;
  reason?: string;
}

export interface RetryTurnParts {
  repositories: TenantRepositories;
  context: WriteContext;
  /** Persist a derived turn; when `retried`, its queue entry is removed if it is done and left to the runner if not. */
  persistDerived(derived: DerivedTurn, options: { retried?: boolean }): Promise<void>;
  /** Count and log what the attempt cost and gave. */
  account(derived: DerivedTurn, options: { retried: boolean }): Promise<void>;
  /** Work due after a turn's memory is written (consolidation every N turns). */
  afterTurn(sessionId: string, turn: number): Promise<void>;
}

/** Try a queued turn again; a success replaces its fallback memory and applies its diff. */
export async function retryQueuedTurn(parts: RetryTurnParts, entry: MemoryRetry): Promise<RetryAttempt> {
  const { repositories, context, persistDerived, account, afterTurn } = parts;
  const { sessionId, turn } = entry;
  const messages = await repositories.messages.listByTurns({ sessionId, fromTurn: turn, toTurn: turn });
  const current = await repositories.turns.get({ sessionId, turn });
  if (messages.length === 0 || current === null || current.status !== 'pending-retry') {
    await repositories.retries.remove({ sessionId, turn });
    return { outcome: 'ended' };
  }
  const derived = await deriveTurn({ turn, messages }, await loadMemoryState(repositories, sessionId), context);
  // A turn that only waited behind another is derived here for the first time: counted as a first
  // derivation, and its fallback memory (summaries, tiers, artifacts) stored if it falls back now.
  const first = entry.reason === WAITING_REASON;
  // `attempts` counts the attempts in a row that failed for the entry's reason.
  if (derived.retry !== null && derived.retry.reason === 'malformed' && entry.reason === 'malformed' && entry.attempts + 1 >= MALFORMED_ATTEMPTS) {
    // A model that garbles this turn every time will not be asked forever: the raw exchange stays.
    const final: DerivedTurn = { ...derived, status: 'fallback-raw', summary: { ...derived.summary, status: 'fallback-raw' }, retry: null, artifacts: [] };
    await persistDerived(final, { retried: true });
    await account(final, { retried: true });
    await afterTurn(sessionId, turn);
    return { outcome: 'ended' };
  }
  if (derived.retry !== null) {
    if (first) await persistDerived(derived, { retried: true });
    await account(derived, { retried: !first });
    return { outcome: 'again', message: derived.retry.message, reason: derived.retry.reason };
  }
  // A turn that fell back stored its artifacts then; one that only waited stored nothing yet.
  await persistDerived(first ? derived : { ...derived, artifacts: [] }, { retried: true });
  await account(derived, { retried: !first });
  // The turn has landed (summarised, or fallback-raw for good): consolidated when due, as on time.
  await afterTurn(sessionId, turn);
  return { outcome: derived.status === 'summarised' ? 'summarised' : 'ended' };
}
