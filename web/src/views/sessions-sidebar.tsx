/** The sessions, most recent first: search by title, start one, rename one, delete one (after asking). */
import { useState } from 'preact/hooks';
import { describeError } from '../api/api-error.js';
import { createSession, deleteSession, renameSession } from '../api/strata-api.js';
import type { Session } from '../api/types.js';
import { importFile, IMPORTABLE } from '../file-drop.js';
import { formatMoment, plural } from '../format.js';
import { FilePicker } from '../parts/file-picker.js';
import { forgetTurnContexts } from '../turn-contexts.js';

interface Props {
  sessions: Session[] | null;
  selected: string | null;
  onSelect(id: string | null): void;
  onChanged(): Promise<void>;
  onImported(sessionId: string): void;
  onError(message: string): void;
}

type Editing = { id: string; mode: 'rename'; title: string } | { id: string; mode: 'delete' } | null;

export function SessionsSidebar({ sessions, selected, onSelect, onChanged, onImported, onError }: Props) {
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const wanted = search.trim().toLowerCase();
  const shown = (sessions ?? []).filter((session) => session.title.toLowerCase().includes(wanted));

  const act = async (work: () => Promise<unknown>): Promise<void> => {
    try {
      await work();
      setEditing(null);
      await onChanged();
    } catch (error) {
      onError(describeError(error));
    }
  };

  return (
    <aside class="sidebar" aria-label="Sessions">
      <div class="sidebar-head">
        <button
          type="button"
          class="primary"
          onClick={() =>
            void act(async () => {
              const session = await createSession();
              onSelect(session.id);
            })
          }
        >
          New session
        </button>
        <FilePicker label="Import a conversation…" accept={IMPORTABLE} onFile={(file) => importFile(file).then(onImported, (error: unknown) => onError(describeError(error)))} />
        <input type="search" placeholder="Search by title" aria-label="Search sessions by title" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </div>
      {sessions === null ? (
        <p class="muted">Loading…</p>
      ) : shown.length === 0 ? (
        <p class="muted">{sessions.length === 0 ? 'No sessions yet. Start one, or drop a conversation file on the window.' : 'No session has that in its title.'}</p>
      ) : (
        <ul class="session-list">
          {shown.map((session) => (
            <li key={session.id} class={session.id === selected ? 'current' : undefined}>
              {editing?.id === session.id && editing.mode === 'rename' ? (
                <form
                  class="rename"
                  onSubmit={(event) => {
                    event.preventDefault();
                    void act(() => renameSession(session.id, editing.title));
                  }}
                >
                  <input aria-label="New title" value={editing.title} onInput={(event) => setEditing({ ...editing, title: event.currentTarget.value })} autoFocus />
                  <button type="submit">Save</button>
                  <button type="button" onClick={() => setEditing(null)}>Cancel</button>
                </form>
              ) : (
                <button type="button" class="session-open" aria-current={session.id === selected ? 'true' : undefined} onClick={() => onSelect(session.id)}>
                  <span class="session-title">{session.title}</span>
                  <span class="muted small">
                    {plural(session.turnCount, 'turn')} · {formatMoment(session.updatedAt)}
                  </span>
                </button>
              )}
              {editing?.id === session.id && editing.mode === 'delete' ? (
                <div class="confirm" role="group" aria-label="Confirm deletion" onKeyDown={(event) => event.key === 'Escape' && setEditing(null)}>
                  <span>Delete “{session.title}” and all its memory?</span>
                  <button type="button" class="danger" onClick={() => void act(async () => {
                    await deleteSession(session.id);
                    forgetTurnContexts(session.id);
                    if (selected === session.id) onSelect(null);
                  })}>
                    Delete
                  </button>
                  <button type="button" onClick={() => setEditing(null)}>Keep</button>
                </div>
              ) : (
                editing?.id !== session.id && (
                  <div class="row-actions">
                    <button type="button" aria-label={`Rename ${session.title}`} onClick={() => setEditing({ id: session.id, mode: 'rename', title: session.title })}>Rename</button>
                    <button type="button" aria-label={`Delete ${session.title}`} onClick={() => setEditing({ id: session.id, mode: 'delete' })}>Delete</button>
                  </div>
                )
              )}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
