/**
 * The memory work of turns: store a turn's raw messages, then derive its memory behind the session's
 * earlier work; derive again what an earlier run left pending; and retry, from the persisted queue, the
 * turns whose manager asked for it (oldest first), counting and logging what each derivation cost.
 */
import { randomUUID } from 'node:crypto';
import { StrataError } from '../core/errors.js';
import { hasPlaceholderTitle, titleFromExchange } from '../core/session-title.js';
import type { DetailRequestRecord, Session, TurnSummary } from '../core/types.js';
import type { MemoryRetry, TenantRepositories } from '../store/store.js';
import { consolidateAfterTurn } from './consolidation.js';
import { countedAhead } from './counted-ahead.js';
import type { EngineParts } from './engine-parts.js';
import { pacedPause, yieldToEventLoop } from '../core/event-loop.js';
import type { RecordResult } from './memory-api.js';
import type { CheckedMessage } from './message-input.js';
import { checkTitle } from './session-input.js';
import { createRetryRunner, firstRetry } from './retry-runner.js';
import { retryQueuedTurn, type RetryAttempt } from './retry-turn.js';
import { promoteFactEvents } from './promotion.js';
import { accountTurn } from './turn-accounting.js';
import { notBefore, queuedBefore, waitingTurn } from './turn-order.js';
import { deriveTurn, isStaleFacts, writeDerivedTurns, writeRawTurns, type DerivedTurn, type MemoryState, type RawTurn } from './write-path.js';

export interface TurnWork {
  /** Store one turn's raw messages and queue its memory work behind the session's earlier work. */
  /**
   * Store one turn's raw messages (with what a live chat turn knows of it: stale memory, the detail
   * requests of its model) and queue its memory work; messages raised on request and not asked for in
   * `raisedTierTurns` turns return to their tiers.
   */
  storeTurn(sessionId: string, checked: CheckedMessage[], live?: { staleMemory: boolean; detailRequests: DetailRequestRecord[] }): Promise<{ raw: RawTurn; memory: Promise<RecordResult> }>;
  /** Derive, in turn order, the turns an earlier run stored but left without memory (run behind the gate). */
  resumePending(sessionId: string): Promise<void>;
  /**
   * Queue a first derivation that asked for a retry (inside the caller's transaction), not before the
   * session's earlier queued turns (`after`, when the caller knows it, saves reading them); gives its time.
   */
  queueRetry(tx: TenantRepositories, derived: DerivedTurn, after?: string): Promise<string | null>;
  /** Look at the retry queue again (after entries were added). */
  scheduleRetries(): void;
  /** Stop retrying; a retry in flight finishes first. */
  close(): Promise<void>;
}

/** Derivations of one turn, each on the facts as they stand, before it is left pending. */
const STALE_ATTEMPTS = 3;

/** The text of the turn's message of `role`, when it has one. */
function contentOf(messages: ReadonlyArray<{ role: string; content: string }>, role: 'user' | 'assistant'): string | undefined {
  return messages.find((message) => message.role === role)?.content;
}

/** A message this long (about 16 pages) is stored and then analysed in another turn of the event loop. */
const LONG_TURN_CHARACTERS = 50_000;

export function createTurnWork(parts: EngineParts): TurnWork {
  const { settings, repositories, manager, context, clock, now, newId, lock, gate, counters, writes, states, onBackgroundError, requireSession } = parts;

  /**
   * Put a turn whose manager asked for a retry in the queue (call inside a transaction). Only a first
   * derivation gets here: a turn already queued is retried by the runner, which keeps its entry.
   */
  const queueRetry = async (tx: TenantRepositories, derived: DerivedTurn, after?: string): Promise<string | null> => {
    if (derived.retry === null) return null;
    const entry = firstRetry({ sessionId: derived.sessionId, turn: derived.turn, ...derived.retry }, { now: clock(), baseDelayMs: settings.retryBaseMs });
    const earlier = after === undefined ? await tx.retries.list({ sessionId: derived.sessionId }) : [{ turn: -1, nextAttemptAt: after }];
    const nextAttemptAt = notBefore(earlier, derived.turn, entry.nextAttemptAt);
    await tx.retries.put({ retry: { ...entry, nextAttemptAt } });
    return nextAttemptAt;
  };

  /** Persist a derived turn, queueing it for a background retry when its manager asked for one. */
  const persistDerived = async (derived: DerivedTurn, options: { retried?: boolean } = {}): Promise<void> => {
    // Derived memory can be redone from the raw turn and its pending entry, both committed durably before;
    // a new retry-queue entry cannot, since only the queue brings a flagged turn back.
    await repositories.transaction(async (tx) => {
      await writeDerivedTurns(tx, [derived]);
      if (settings.promote) await promoteFactEvents(tx, derived.events, context);
      // A queued turn keeps its entry, which the runner updates; a first derivation is queued.
      if (derived.retry !== null && options.retried !== true) {
        await queueRetry(tx, derived);
      } else if (derived.retry === null && options.retried === true) {
        await tx.retries.remove({ sessionId: derived.sessionId, turn: derived.turn });
      }
    }, { durable: derived.retry !== null });
    // A retried turn lands behind later writes: the kept memory state (its artifacts too) is read afresh.
    writes.announce(options.retried === true ? { sessionId: derived.sessionId } : { sessionId: derived.sessionId, turn: derived.turn });
    if (derived.retry !== null && options.retried !== true) retries.schedule();
  };

  const account = (derived: DerivedTurn, options: { retried: boolean }): Promise<void> => accountTurn(parts, derived, options);

  /**
   * Derive a turn and persist it; when another process changed the session's facts meanwhile, derive it
   * again on the facts as they are now (a few times, then the turn stays pending like any failed write).
   */
  const deriveOnCurrentFacts = async (raw: RawTurn, createdAt: string | undefined): Promise<{ derived: DerivedTurn; state: MemoryState } | null> => {
    const sessionId = raw.messages[0]?.sessionId ?? '';
    for (let attempt = 1; ; attempt += 1) {
      // After a stale write, another process changed the session: it is read again.
      const state = await states.take(repositories, sessionId, attempt === 1 ? createdAt : undefined);
      const derived = await deriveTurn(raw, state, context);
      try {
        await persistDerived(derived);
        return { derived, state };
      } catch (error) {
        if (!isStaleFacts(error) || attempt >= STALE_ATTEMPTS) throw error;
        // The other writer may have derived this very turn (it derives what it finds pending): then it is done.
        if ((await repositories.turns.get({ sessionId, turn: raw.turn }))?.status !== 'pending-retry') return null;
      }
    }
  };

  /** Model titles being written: outside the session's memory queue, waited for by close(). */
  const titling = new Set<Promise<void>>();

  /**
   * A session its first exchange named (the engine's title from the first sentence, or the placeholder,
   * still stands) gets the title its manager writes, when the manager writes titles (the model manager).
   * The check and the write are one transaction, so a rename made meanwhile stands. Runs beside the
   * session's memory work, never in its queue; a failure keeps the engine's title and is logged.
   */
  const retitle = (raw: RawTurn): void => {
    const titleSession = manager.titleSession;
    if (titleSession === undefined) return;
    const sessionId = raw.messages[0]?.sessionId ?? '';
    const user = contentOf(raw.messages, 'user') ?? '';
    const assistant = contentOf(raw.messages, 'assistant') ?? '';
    const engineTitle = titleFromExchange(user, assistant);
    const standing = (session: Session | null): boolean => session !== null && (session.title === engineTitle || hasPlaceholderTitle(session));
    const work = (async () => {
      try {
        if (!standing(await repositories.sessions.get({ sessionId }))) return;
        const title = checkTitle(await titleSession({ sessionId, user, assistant }));
        await repositories.transaction(async (tx) => {
          if (standing(await tx.sessions.get({ sessionId }))) await tx.sessions.update({ sessionId, title, updatedAt: now() });
        });
      } catch (error) {
        parts.logger.warn({ sessionId, error: error instanceof Error ? error.message : String(error) }, 'the memory model wrote no title; the title from the first sentence stays');
      }
    })();
    titling.add(work);
    void work.finally(() => titling.delete(work));
  };

  /** What a turn another run already derived came to. */
  const storedResult = async (raw: RawTurn, current: TurnSummary): Promise<RecordResult> => {
    const sessionId = current.sessionId;
    const events = (await repositories.facts.listEvents({ sessionId, upToTurn: raw.turn })).filter((event) => event.turn === raw.turn);
    return { turn: raw.turn, messageIds: raw.messages.map((message) => message.id), status: current.status, summary: current, factEvents: events, problem: null };
  };

  /**
   * Derive one stored turn unless that already happened (a resumed run may have reached it first);
   * `createdAt` is when its session was made, when the caller has just read the session.
   */
  const deriveStored = async (raw: RawTurn, createdAt?: string): Promise<RecordResult> => {
    const sessionId = raw.messages[0]?.sessionId ?? '';
    const messageIds = raw.messages.map((message) => message.id);
    const current = await repositories.turns.get({ sessionId, turn: raw.turn });
    if (current !== null && current.status !== 'pending-retry') return storedResult(raw, current);
    try {
      // A long turn was counted and stored in one go: let timers and I/O run before it is analysed.
      if (raw.messages.some((message) => message.content.length > LONG_TURN_CHARACTERS)) await yieldToEventLoop();
      // An earlier turn waits in the retry queue: this one waits behind it, so turns change the facts in order.
      const blocker = await queuedBefore(repositories.retries, sessionId, raw.turn);
      if (blocker !== null) {
        const waiting = waitingTurn(raw, blocker, context);
        await persistDerived(waiting);
        return { turn: raw.turn, messageIds, status: waiting.status, summary: waiting.summary, factEvents: [], problem: `The turn is stored; ${waiting.retry?.message ?? ''}.` };
      }
      const fresh = await deriveOnCurrentFacts(raw, createdAt);
      if (fresh === null) {
        const stored = await repositories.turns.get({ sessionId, turn: raw.turn });
        if (stored !== null) return storedResult(raw, stored);
        throw new StrataError('STORE_FAILURE', `Turn ${raw.turn} of session ${sessionId} vanished while it was derived.`);
      }
      const { derived, state } = fresh;
      await account(derived, { retried: false });
      // A turn queued for retry is consolidated when its memory lands (retry-turn.ts), not on its fallback.
      const consolidated =
        derived.retry !== null ? [] : await consolidateAfterTurn({ repositories, manager, sessionId, turn: raw.turn, everyTurns: settings.consolidateEveryTurns, now, newId, onError: onBackgroundError, state });
      states.keep(sessionId, state);
      if (raw.turn === 1) retitle(raw);
      const factEvents = [...derived.events, ...consolidated];
      return { turn: raw.turn, messageIds, status: derived.status, summary: derived.summary, factEvents, problem: derived.failure?.message ?? null };
    } catch (error) {
      // The raw turn is committed; its memory stays pending so it can be derived again.
      const pending = await repositories.turns.get({ sessionId, turn: raw.turn });
      if (pending === null && (await repositories.sessions.get({ sessionId })) === null) {
        throw new StrataError('SESSION_NOT_FOUND', `Session "${sessionId}" was deleted while the memory of turn ${raw.turn} was being written; the turn went with it.`, {
          details: { sessionId },
          cause: error,
        });
      }
      if (pending === null) throw error;
      return { turn: raw.turn, messageIds, status: 'pending-retry', summary: pending, factEvents: [], problem: `The turn is stored but its memory was not: ${(error as Error).message}` };
    }
  };

  /**
   * Derive the memory of turns whose raw messages were stored but whose memory was not (the process
   * stopped in between, or writing it failed), in turn order. Turns in the retry queue are left to it.
   * Runs as the session's memory work (behind the gate).
   */
  const resumePending = async (sessionId: string): Promise<void> => {
    const pending = await repositories.turns.listByStatus({ sessionId, status: 'pending-retry', limit: 1000 });
    if (pending.length === 0) return;
    const queued = new Set((await repositories.retries.list({ sessionId })).map((entry) => entry.turn));
    for (const summary of pending) {
      if (queued.has(summary.turn)) continue;
      const messages = await repositories.messages.listByTurns({ sessionId, fromTurn: summary.turn, toTurn: summary.turn });
      if (messages.length === 0) continue;
      await deriveStored({ turn: summary.turn, messages });
    }
  };

  /** A retried turn that is summarised is consolidated when its turn is due, as it would have been on time. */
  const afterTurn = async (sessionId: string, turn: number): Promise<void> => {
    await consolidateAfterTurn({ repositories, manager, sessionId, turn, everyTurns: settings.consolidateEveryTurns, now, newId, onError: onBackgroundError });
  };

  const retryTurn = (entry: MemoryRetry): Promise<RetryAttempt> => retryQueuedTurn({ repositories, context, persistDerived, account, afterTurn }, entry);

  const retries = createRetryRunner({
    repositories,
    gate,
    retryTurn,
    now: clock,
    baseDelayMs: settings.retryBaseMs,
    onError: (error) => onBackgroundError?.(error),
    // Who this memory is to others retrying the same store's turns: not a record's id (taking one from
    // newId would shift the ids a deterministic clock and id source give everything else).
    claimant: randomUUID(),
  });
  retries.schedule();

  /** Store one turn's raw messages and queue its memory work behind the session's earlier work. */
  const storeTurn: TurnWork['storeTurn'] = (sessionId, given, live) =>
    lock(sessionId, async () => {
      const session = await requireSession(sessionId);
      // Counted before the transaction (a long message a slice at a time, letting other sessions' work in),
      // under the lock, so the session's turns keep the order they were given in.
      const checked = await countedAhead(given, context.tokenizer, pacedPause(settings.readSliceMs));
      let lowered: number[] = [];
      const [raw] = await repositories.transaction(async (tx) => {
        const written = await writeRawTurns(tx, session, [checked], context, live ?? {});
        const turn = written[0]?.turn;
        if (turn !== undefined) lowered = await tx.messages.lowerTiers({ sessionId, raisedBefore: turn - settings.raisedTierTurns + 1 });
        // A session created without a title is named after its first exchange, with that exchange. The
        // title is read again here: a rename committed since the session was read above must stand.
        if (written[0]?.turn === 1) {
          const current = await tx.sessions.get({ sessionId });
          const title = current !== null && hasPlaceholderTitle(current) ? titleFromExchange(contentOf(checked, 'user'), contentOf(checked, 'assistant')) : null;
          if (title !== null) await tx.sessions.update({ sessionId, title, updatedAt: now() });
        }
        return written;
      });
      if (raw === undefined) throw new StrataError('STORE_FAILURE', 'The turn was not stored.');
      counters.add(sessionId, { turns: 1 });
      writes.announce({ sessionId, turn: raw.turn, messagesAdded: true });
      for (const turn of lowered) writes.announce({ sessionId, turn });
      return { raw, memory: gate.enqueue(sessionId, () => deriveStored(raw, session.createdAt)) };
    });

  const close = async (): Promise<void> => {
    await retries.close();
    await Promise.all([...titling]);
  };
  return { storeTurn, resumePending, queueRetry, scheduleRetries: () => retries.schedule(), close };
}
