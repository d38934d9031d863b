/**
 * The context figures of turns chatted from this tab (the engine reports them with each reply, it does
 * not store them), kept in sessionStorage so a reload still shows them.
 */
import { useMemo, useState } from 'preact/hooks';

export interface TurnContext {
  tokens: number;
  budget: number;
}

const itemOf = (sessionId: string): string => `strata.context.${sessionId}`;

function read(sessionId: string | null): Record<string, TurnContext> {
  if (sessionId === null) return {};
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(itemOf(sessionId)) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, TurnContext>) : {};
  } catch {
    return {};
  }
}

/** Drop what this tab kept of a session (it was deleted). */
export function forgetTurnContexts(sessionId: string): void {
  sessionStorage.removeItem(itemOf(sessionId));
}

export function useTurnContexts(sessionId: string | null): { of(messageId: string): TurnContext | undefined; remember(messageId: string, context: TurnContext): void } {
  const [version, setVersion] = useState(0);
  return useMemo(() => {
    const known = read(sessionId);
    return {
      of: (messageId: string) => known[messageId],
      remember: (messageId: string, context: TurnContext) => {
        if (sessionId === null) return;
        try {
          sessionStorage.setItem(itemOf(sessionId), JSON.stringify({ ...read(sessionId), [messageId]: context }));
        } catch {
          // Storage full or refused: the figure shows until the page is left, like any other.
        }
        setVersion(version + 1);
      },
    };
  }, [sessionId, version]);
}
