/**
 * One chat turn from the pane's point of view: the message and the reply as it streams, then "memory
 * updating" until phase 2 ends. The transcript's pending rows stay until the stored turn has been read
 * back (no flicker); the turn is cancelled if the pane goes (another session opened) or on Stop.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api/api-error.js';
import { chat } from './api/strata-api.js';
import type { ReloadPart } from './session-data.js';
import type { TurnContext } from './turn-contexts.js';

export type Phase = { name: 'idle' } | { name: 'replying'; user: string; reply: string } | { name: 'memory'; turn: number };

interface Options {
  sessionId: string;
  onChanged(part?: ReloadPart): Promise<void>;
  onError(message: string): void;
  remember(messageId: string, context: TurnContext): void;
  /** Called when the transcript should follow its end. */
  follow(): void;
}

export function useChatTurn(options: Options): { phase: Phase; announcement: string; send(message: string): Promise<boolean>; stop(): void } {
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  // The whole reply once stored, for screen readers (a reply read out piece by piece as it streams is noise).
  const [announcement, setAnnouncement] = useState('');
  const running = useRef<AbortController | null>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => () => running.current?.abort(), []);

  const send = useCallback(async (message: string): Promise<boolean> => {
    const { sessionId } = latest.current;
    const controller = new AbortController();
    running.current = controller;
    setPhase({ name: 'replying', user: message, reply: '' });
    latest.current.follow();
    let reply = '';
    let stored = false;
    try {
      await chat(
        sessionId,
        message,
        undefined,
        {
          onReply: (text) => {
            reply += text;
            setPhase({ name: 'replying', user: message, reply });
          },
          onStored: (turn) => {
            stored = true;
            setAnnouncement(`Reply: ${reply}`);
            const last = turn.messageIds.at(-1);
            if (last !== undefined) latest.current.remember(last, { tokens: turn.contextTokens, budget: turn.budget });
            void latest.current.onChanged('transcript').then(() => {
              if (running.current !== controller) return;
              setPhase({ name: 'memory', turn: turn.turn });
              latest.current.follow();
            });
          },
          onMemory: () => {
            setPhase({ name: 'idle' });
            // The facts, and the tiers phase 2 gave the turn's messages (only the newest turn is read again).
            void latest.current.onChanged();
          },
        },
        controller.signal,
      );
      return true;
    } catch (error) {
      if (!controller.signal.aborted) latest.current.onError(describeError(error));
      void latest.current.onChanged();
      return stored;
    } finally {
      // The stream has ended (after its memory event, or without one, or stopped): nothing waits now.
      if (running.current === controller) running.current = null;
      setPhase({ name: 'idle' });
    }
  }, []);

  const stop = useCallback(() => running.current?.abort(), []);
  return { phase, announcement, send, stop };
}
