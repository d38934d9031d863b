/**
 * What the app shows of one session, read over the API: the session, its messages, turn log, facts and
 * fact events. The session and its messages come first, so the transcript shows without waiting for the
 * rest (the server answers one request at a time per core, and a long session's turn log and events are
 * megabytes); the inspector's reads follow. `reload` reads again after a change, all of it or a part; an
 * answer older than one already shown, or for a session left behind, is dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api/api-error.js';
import { factEventsOf, factsOf, messagesOf, readSession, turnsOf } from './api/strata-api.js';
import type { Fact, FactEvent, Message, Session, TurnSummary } from './api/types.js';

export interface SessionData {
  session: Session;
  messages: Message[];
  /** The inspector's reads: null until they have arrived. */
  memory: SessionMemory | null;
}

export interface SessionMemory {
  turns: TurnSummary[];
  facts: Fact[];
  events: FactEvent[];
}

/** What to read again: the transcript, the memory, or both (default). */
export type ReloadPart = 'transcript' | 'memory' | 'all';

export interface SessionState {
  data: SessionData | null;
  error: string | null;
  reload(part?: ReloadPart): Promise<void>;
}

/** Where to read the transcript again from: the first message of the latest turn held (0 when none). */
function rereadFrom(held: readonly Message[]): number {
  const last = held.at(-1);
  if (last === undefined) return 0;
  let index = held.length - 1;
  while (index > 0 && held[index - 1]!.turn === last.turn) index -= 1;
  return index;
}

export function useSessionData(sessionId: string | null): SessionState {
  const [data, setData] = useState<SessionData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef(sessionId);
  current.current = sessionId;
  const latestData = useRef(data);
  latestData.current = data;
  // Each read takes a number; a part is shown only if no later read of it has been shown already.
  const sequence = useRef(0);
  const shown = useRef({ transcript: 0, memory: 0 });

  const reload = useCallback(async (part: ReloadPart = 'all') => {
    const id = current.current;
    if (id === null) return;
    const ticket = ++sequence.current;
    const fresh = (which: 'transcript' | 'memory'): boolean => {
      if (current.current !== id || shown.current[which] > ticket) return false;
      shown.current[which] = ticket;
      return true;
    };
    try {
      // The session (its title and counts) is read once per reload, beside the first part read.
      const session = readSession(id);
      // (Awaited below; a failure of another read first must not leave it unhandled.)
      session.catch(() => undefined);
      if (part !== 'memory') {
        // Only what is new is read: from the latest turn already held (phase 2 may have changed its tiers) on.
        const held = latestData.current?.session.id === id ? latestData.current.messages : [];
        const from = rereadFrom(held);
        const since = await messagesOf(id, from);
        // (Should the session not start where it did, it is read whole.)
        const aligned = from === 0 || (since[0] !== undefined && since[0].id === held[from]?.id);
        const messages = aligned ? [...held.slice(0, from), ...since] : await messagesOf(id);
        const read = await session;
        if (fresh('transcript')) setData((known) => ({ session: read, messages, memory: known?.session.id === id ? known.memory : null }));
      }
      if (part !== 'transcript') {
        const [read, turns, facts, events] = await Promise.all([session, turnsOf(id), factsOf(id), factEventsOf(id)]);
        if (fresh('memory')) setData((known) => (known?.session.id === id ? { ...known, session: read, memory: { turns, facts, events } } : known));
      }
      if (current.current === id) setError(null);
    } catch (failure) {
      if (current.current === id) setError(describeError(failure));
    }
  }, []);

  useEffect(() => {
    setData(null);
    setError(null);
    shown.current = { transcript: 0, memory: 0 };
    void reload();
  }, [sessionId, reload]);

  return { data, error, reload };
}
