/**
 * Where the next turn is written. With a chat model: a message, sent through the engine's chat loop and
 * streamed back. Without one: what to set to have one, and a form to record a turn by hand.
 */
import { useState } from 'preact/hooks';
import type { ChatModelStatus } from '../api/types.js';

interface Props {
  model: ChatModelStatus | null;
  busy: boolean;
  /** Resolves false when the message was not sent (it goes back into the box). */
  onSend(message: string): Promise<boolean>;
  onRecord(user: string, assistant: string): Promise<boolean>;
}

function RecordForm({ busy, onRecord }: Pick<Props, 'busy' | 'onRecord'>) {
  const [user, setUser] = useState('');
  const [assistant, setAssistant] = useState('');
  return (
    <form
      class="record-form"
      onSubmit={(event) => {
        event.preventDefault();
        void onRecord(user, assistant).then((recorded) => {
          if (!recorded) return;
          setUser('');
          setAssistant('');
        });
      }}
    >
      <label>
        User says
        <textarea rows={2} value={user} onInput={(event) => setUser(event.currentTarget.value)} />
      </label>
      <label>
        Assistant answers
        <textarea rows={2} value={assistant} onInput={(event) => setAssistant(event.currentTarget.value)} />
      </label>
      <button type="submit" class="primary" disabled={busy || user.trim() === ''}>Record turn</button>
    </form>
  );
}

export function Composer({ model, busy, onSend, onRecord }: Props) {
  const [text, setText] = useState('');
  if (model === null) return <div class="composer muted">Asking the server for its chat model…</div>;
  if (!model.configured) {
    return (
      <div class="composer">
        <p class="setup" role="note">
          <strong>No chat model is configured.</strong> {model.problem} You can still record turns by hand and import conversations (drop a file on the window).
        </p>
        <RecordForm busy={busy} onRecord={onRecord} />
      </div>
    );
  }
  const send = (): void => {
    const message = text.trim();
    if (busy || message === '') return;
    setText('');
    void onSend(message).then((sent) => {
      if (!sent) setText((typed) => (typed === '' ? message : typed));
    });
  };
  return (
    <form
      class="composer chat-form"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        aria-label={`Message ${model.model}`}
        placeholder={`Message ${model.model} (Enter sends, Shift+Enter for a new line)`}
        rows={2}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <button type="submit" class="primary" disabled={busy || text.trim() === ''}>Send</button>
    </form>
  );
}
