/**
 * The app: sessions on the left, the chat in the middle, the memory inspector on the right. On a narrow
 * screen one of the three shows at a time, chosen from the top bar. Everything goes through the REST API.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { describeError } from './api/api-error.js';
import { storedKey, storeKey, whenUnauthorized } from './api/http.js';
import { authMode, chatModel, listSessions } from './api/strata-api.js';
import type { ChatModelStatus, Session } from './api/types.js';
import { useFileDrop } from './file-drop.js';
import { useSessionData, type ReloadPart } from './session-data.js';
import { ChatPane } from './views/chat-pane.js';
import { Inspector } from './views/inspector.js';
import { KeyGate } from './views/key-gate.js';
import { SessionsSidebar } from './views/sessions-sidebar.js';

export type Panel = 'sessions' | 'chat' | 'inspector';

/** A message to bring into view in the transcript; `nonce` makes the same message jump again. */
export interface Focus {
  messageId: string;
  nonce: number;
}

/** The session the address names (`#/s/<id>`), or null (a malformed one included). */
function sessionFromHash(): string | null {
  const match = /^#\/s\/(.+)$/.exec(location.hash);
  if (match?.[1] === undefined) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

export function App() {
  // Unknown until the server says whether it wants a key: no call is made that would only be refused.
  const [needKey, setNeedKey] = useState<boolean | null>(null);
  // Set once the app has a key (or needs none); a key refused later asks again over the app, keeping it as it is.
  const [started, setStarted] = useState(false);
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [selected, setSelected] = useState<string | null>(sessionFromHash);
  const [model, setModel] = useState<ChatModelStatus | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [panel, setPanel] = useState<Panel>('chat');
  const [focus, setFocus] = useState<Focus | null>(null);
  const state = useSessionData(started ? selected : null);

  const refreshSessions = useCallback(async () => {
    try {
      setSessions(await listSessions());
    } catch (error) {
      setNotice(describeError(error));
    }
  }, []);

  const start = useCallback(() => {
    setNeedKey(false);
    setStarted(true);
    setNotice(null);
    void refreshSessions();
    chatModel().then(setModel, (error: unknown) => setNotice(describeError(error)));
  }, [refreshSessions]);

  useEffect(() => {
    whenUnauthorized(() => setNeedKey(true));
    authMode().then(
      (mode) => (mode === 'keys' && storedKey() === null ? setNeedKey(true) : start()),
      (error: unknown) => {
        setNeedKey(false);
        setNotice(describeError(error));
      },
    );
  }, [start]);

  const select = useCallback((id: string | null) => {
    setSelected(id);
    setFocus(null);
    history.replaceState(null, '', id === null ? '#/' : `#/s/${encodeURIComponent(id)}`);
    setPanel('chat');
  }, []);

  // Back, forward and an address typed by hand open the session they name.
  useEffect(() => {
    const follow = (): void => {
      setSelected(sessionFromHash());
      setFocus(null);
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  const changed = useCallback(
    async (part?: ReloadPart) => {
      await Promise.all([state.reload(part), refreshSessions()]);
    },
    [state, refreshSessions],
  );

  const imported = useCallback(
    (id: string) => {
      void refreshSessions();
      select(id);
    },
    [refreshSessions, select],
  );
  const drop = useFileDrop(started, imported, setNotice);

  const jump = useCallback((messageId: string) => {
    setFocus({ messageId, nonce: Date.now() });
    setPanel('chat');
  }, []);

  if (needKey === null) return <p class="muted pad">Connecting…</p>;
  const gate = needKey && (
    <KeyGate
      refused={storedKey() !== null}
      onKey={(key) => {
        storeKey(key);
        start();
        if (started) void state.reload();
      }}
    />
  );
  if (!started) return gate || null;

  return (
    <div class="app" data-panel={panel} data-dropping={drop.dragging ? 'yes' : undefined}>
      <header class="top-bar">
        <strong class="brand">Strata</strong>
        <span class="muted small" role="status">
          {drop.importing !== null && `Importing ${drop.importing}…`}
        </span>
        <nav class="panel-switch" aria-label="Views">
          {(['sessions', 'chat', 'inspector'] as const).map((name) => (
            <button key={name} type="button" aria-pressed={panel === name} onClick={() => setPanel(name)}>
              {name === 'sessions' ? 'Sessions' : name === 'chat' ? 'Chat' : 'Memory'}
            </button>
          ))}
        </nav>
      </header>
      {notice !== null && (
        <div class="notice" role="alert">
          <span>{notice}</span>
          <button type="button" onClick={() => setNotice(null)} aria-label="Dismiss">×</button>
        </div>
      )}
      <SessionsSidebar sessions={sessions} selected={selected} onSelect={select} onChanged={changed} onImported={imported} onError={setNotice} />
      <ChatPane key={selected ?? ''} sessionId={selected} state={state} model={model} focus={focus} onChanged={changed} onError={setNotice} onImported={imported} />
      <Inspector sessionId={selected} state={state} onJump={jump} onChanged={changed} onError={setNotice} />
      {drop.dragging && <div class="drop-hint" aria-hidden="true">Drop conversation files to import each as a new session</div>}
      {gate}
    </div>
  );
}
