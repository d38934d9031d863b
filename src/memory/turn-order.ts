/**
 * Memory work in turn order. A turn's diff is built on the facts every earlier turn left, so while an
 * earlier turn of the session waits in the retry queue, a new turn is not derived: its raw messages stand
 * in for its memory and it joins the queue behind that turn ("waiting"). The retry runner then derives a
 * session's queued turns oldest first, each on the facts of the turns before it, so the document, its
 * events and `facts({ atTurn })` read as if every turn had succeeded on time.
 */
import type { MemoryRetry, RetryRepository } from '../store/store.js';
import { fallbackSummary, type DerivedTurn, type RawTurn, type WriteContext } from './write-path.js';

/** The queue reason of a turn held back behind an earlier queued turn of its session. */
export const WAITING_REASON = 'waiting';

/** The earliest queued turn of the session before `turn`, or null when none waits. */
export async function queuedBefore(retries: Pick<RetryRepository, 'list'>, sessionId: string, turn: number): Promise<number | null> {
  const entries = await retries.list({ sessionId });
  return entries.find((entry) => entry.turn < turn)?.turn ?? null;
}

/** What a turn held back behind turn `blocker` persists: the raw exchange as its summary, no facts, a queue entry. */
export function waitingTurn(raw: RawTurn, blocker: number, context: Pick<WriteContext, 'tokenizer' | 'now'>): DerivedTurn {
  return {
    sessionId: raw.messages[0]?.sessionId ?? '',
    turn: raw.turn,
    status: 'pending-retry',
    summary: fallbackSummary(raw, 'pending-retry', context),
    tierUpdates: [],
    events: [],
    upserts: [],
    removedIds: [],
    artifacts: [],
    failure: null,
    retry: { reason: WAITING_REASON, message: `its memory waits for turn ${blocker}, whose memory is being retried, so that turns change the facts in order` },
    usage: null,
  };
}

/**
 * When a queued turn of the session is next tried: not before any earlier queued turn, so a turn that
 * waits is never due while the one it waits for is not.
 */
export function notBefore(entries: readonly Pick<MemoryRetry, 'turn' | 'nextAttemptAt'>[], turn: number, time: string): string {
  let latest = time;
  for (const entry of entries) if (entry.turn < turn && entry.nextAttemptAt > latest) latest = entry.nextAttemptAt;
  return latest;
}
