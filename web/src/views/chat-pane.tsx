/**
 * The chat: the session's transcript (virtualised), export buttons, and the composer. A sent message
 * streams its reply in place; once the turn is stored the pane says memory is updating until phase 2
 * ends, then the inspector's reads are refreshed.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import { exportSession, recordTurn } from '../api/strata-api.js';
import type { ChatModelStatus } from '../api/types.js';
import type { Focus } from '../app.js';
import { importFile, IMPORTABLE } from '../file-drop.js';
import { FilePicker } from '../parts/file-picker.js';
import { VirtualList } from '../parts/virtual-list.js';
import { useChatTurn } from '../chat-turn.js';
import type { ReloadPart, SessionState } from '../session-data.js';
import { useTurnContexts } from '../turn-contexts.js';
import { Composer } from './composer.js';
import { MessageRow, type TranscriptRow } from './message-row.js';

interface Props {
  sessionId: string | null;
  state: SessionState;
  model: ChatModelStatus | null;
  focus: Focus | null;
  onChanged(part?: ReloadPart): Promise<void>;
  onError(message: string): void;
  onImported(sessionId: string): void;
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ChatPane({ sessionId, state, model, focus, onChanged, onError, onImported }: Props) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [follow, setFollow] = useState(0);
  const contexts = useTurnContexts(sessionId);
  const { phase, announcement, send, stop } = useChatTurn({ sessionId: sessionId ?? '', onChanged, onError, remember: contexts.remember, follow: () => setFollow(Date.now()) });
  const data = state.data;

  const rows = useMemo<TranscriptRow[]>(() => {
    const stored: TranscriptRow[] = (data?.messages ?? []).map((message) => ({ kind: 'message', message }));
    if (phase.name !== 'replying') return stored;
    return [...stored, { kind: 'pending', id: 'pending-user', role: 'user', text: phase.user, note: 'sending' }, { kind: 'pending', id: 'pending-reply', role: 'assistant', text: phase.reply, note: 'writing…' }];
  }, [data, phase]);

  // A jump to a source brings the message into view, then moves the keyboard focus onto it.
  useEffect(() => {
    if (focus === null) return;
    let frames = 0;
    const tryFocus = (): void => {
      const element = document.querySelector<HTMLElement>(`.transcript [data-message-id="${CSS.escape(focus.messageId)}"]`);
      if (element !== null) element.focus({ preventScroll: true });
      else if (++frames < 10) requestAnimationFrame(tryFocus);
    };
    requestAnimationFrame(tryFocus);
  }, [focus]);

  const focusIndex = focus === null ? -1 : rows.findIndex((row) => row.kind === 'message' && row.message.id === focus.messageId);
  const scrollTo = focus !== null && focusIndex >= 0 ? { index: focusIndex, request: focus.nonce } : follow > 0 ? { index: rows.length - 1, request: follow } : null;

  if (sessionId === null) {
    return (
      <main class="chat-pane empty">
        <p>Choose a session, start a new one, or drop a conversation file on the window to import it.</p>
        <FilePicker label="Import a file…" accept={IMPORTABLE} onFile={(file) => importFile(file).then(onImported, (error: unknown) => onError(describeError(error)))} />
      </main>
    );
  }

  const record = async (user: string, assistant: string): Promise<boolean> => {
    try {
      await recordTurn(sessionId, user, assistant);
      await onChanged();
      setFollow(Date.now());
      return true;
    } catch (error) {
      onError(describeError(error));
      return false;
    }
  };

  const download = (format: 'json' | 'markdown'): void => {
    exportSession(sessionId, format).then(
      (blob) => save(blob, `${(data?.session.title ?? sessionId).replace(/[^\w.-]+/g, '-')}.${format === 'json' ? 'json' : 'md'}`),
      (error: unknown) => onError(describeError(error)),
    );
  };

  return (
    <main class="chat-pane" aria-label="Chat">
      <header class="pane-head">
        <h1 class="session-heading" title={data?.session.title}>{data?.session.title ?? '…'}</h1>
        <div class="actions">
          <button type="button" onClick={() => download('markdown')}>Export Markdown</button>
          <button type="button" onClick={() => download('json')}>Export JSON</button>
        </div>
      </header>
      {state.error !== null && <p class="error" role="alert">{state.error}</p>}
      {data === null && state.error === null ? (
        <p class="muted pad">Loading the session…</p>
      ) : (
        <VirtualList
          items={rows}
          keyOf={(row) => (row.kind === 'message' ? row.message.id : row.id)}
          estimate={96}
          startAtEnd
          scrollTo={scrollTo}
          label="Transcript"
          class="transcript"
          renderItem={(row) => (
            <MessageRow
              row={row}
              highlighted={row.kind === 'message' && row.message.id === focus?.messageId}
              expanded={row.kind === 'message' && expanded.has(row.message.id)}
              context={row.kind === 'message' ? contexts.of(row.message.id) : undefined}
              onToggle={(id) => {
                const next = new Set(expanded);
                if (!next.delete(id)) next.add(id);
                setExpanded(next);
              }}
            />
          )}
        />
      )}
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <p class="memory-status" role="status">
        {phase.name === 'memory' && (
          <>
            <span class="spinner" aria-hidden="true" /> Memory updating for turn {phase.turn}…
          </>
        )}
        {phase.name === 'replying' && (
          <button type="button" onClick={stop}>
            Stop
          </button>
        )}
      </p>
      <Composer model={model} busy={phase.name !== 'idle'} onSend={send} onRecord={record} />
    </main>
  );
}
