/**
 * The chat: the session's transcript (virtualised), export buttons, and the composer. A sent message
 * streams its reply in place; once the turn is stored the pane says memory is updating until phase 2
 * ends, then the inspector's reads are refreshed.
 */
import { useMemo, useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import { chat, exportSession, recordTurn } from '../api/strata-api.js';
import type { ChatModelStatus } from '../api/types.js';
import type { Focus } from '../app.js';
import { importFile, IMPORTABLE } from '../file-drop.js';
import { FilePicker } from '../parts/file-picker.js';
import { VirtualList } from '../parts/virtual-list.js';
import type { SessionState } from '../session-data.js';
import { useTurnContexts } from '../turn-contexts.js';
import { Composer } from './composer.js';
import { MessageRow, type TranscriptRow } from './message-row.js';

interface Props {
  sessionId: string | null;
  state: SessionState;
  model: ChatModelStatus | null;
  focus: Focus | null;
  onChanged(): Promise<void>;
  onError(message: string): void;
  onImported(sessionId: string): void;
}

type Phase = { name: 'idle' } | { name: 'replying'; user: string; reply: string } | { name: 'memory'; turn: number };

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ChatPane({ sessionId, state, model, focus, onChanged, onError, onImported }: Props) {
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [follow, setFollow] = useState(0);
  const contexts = useTurnContexts(sessionId);
  const data = state.data;

  const rows = useMemo<TranscriptRow[]>(() => {
    const stored: TranscriptRow[] = (data?.messages ?? []).map((message) => ({ kind: 'message', message }));
    if (phase.name !== 'replying') return stored;
    return [...stored, { kind: 'pending', id: 'pending-user', role: 'user', text: phase.user, note: 'sending' }, { kind: 'pending', id: 'pending-reply', role: 'assistant', text: phase.reply, note: 'writing…' }];
  }, [data, phase]);

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

  const send = (message: string): void => {
    setPhase({ name: 'replying', user: message, reply: '' });
    setFollow(Date.now());
    let reply = '';
    chat(sessionId, message, undefined, {
      onReply: (text) => {
        reply += text;
        setPhase({ name: 'replying', user: message, reply });
      },
      onStored: (stored) => {
        const last = stored.messageIds.at(-1);
        if (last !== undefined) contexts.remember(last, { tokens: stored.contextTokens, budget: stored.budget });
        setPhase({ name: 'memory', turn: stored.turn });
        void onChanged().then(() => setFollow(Date.now()));
      },
      onMemory: () => {
        setPhase({ name: 'idle' });
        void onChanged();
      },
    }).catch((error: unknown) => {
      setPhase({ name: 'idle' });
      onError(describeError(error));
      void onChanged();
    });
  };

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
        <h1 class="session-heading">{data?.session.title ?? '…'}</h1>
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
      {phase.name === 'memory' && (
        <p class="memory-status" role="status">
          <span class="spinner" aria-hidden="true" /> Memory updating for turn {phase.turn}…
        </p>
      )}
      <Composer model={model} busy={phase.name !== 'idle'} onSend={send} onRecord={record} />
    </main>
  );
}
