/**
 * What the app shows of one session, read over the API: the session, its messages, turn log, facts and
 * fact events. The session and its messages come first, so the transcript shows without waiting for the
 * rest (the server answers one request at a time per core, and a long session's turn log and events are
 * megabytes); the inspector's reads follow. `reload` reads everything again after a change; a read for a
 * session left behind is dropped.
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

export interface SessionState {
  data: SessionData | null;
  error: string | null;
  reload(): Promise<void>;
}

export function useSessionData(sessionId: string | null): SessionState {
  const [data, setData] = useState<SessionData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef(sessionId);
  current.current = sessionId;

  const reload = useCallback(async () => {
    const id = current.current;
    if (id === null) return;
    try {
      const [session, messages] = await Promise.all([readSession(id), messagesOf(id)]);
      if (current.current !== id) return;
      setData((known) => ({ session, messages, memory: known?.session.id === id ? known.memory : null }));
      setError(null);
      const [turns, facts, events] = await Promise.all([turnsOf(id), factsOf(id), factEventsOf(id)]);
      if (current.current !== id) return;
      setData({ session, messages, memory: { turns, facts, events } });
    } catch (failure) {
      if (current.current === id) setError(describeError(failure));
    }
  }, []);

  useEffect(() => {
    setData(null);
    setError(null);
    void reload();
  }, [sessionId, reload]);

  return { data, error, reload };
}
