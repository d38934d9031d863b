/** A form to add or correct a fact: its text, its kind and the reason, which the engine records. */
import { useState } from 'preact/hooks';
import type { FactKind } from '../api/types.js';

export const KIND_ORDER: readonly FactKind[] = ['exception', 'constraint', 'goal', 'preference', 'fact'];

interface Props {
  title: string;
  initial: { text: string; kind: FactKind };
  submitLabel: string;
  onSubmit(change: { text: string; kind: FactKind; reason: string }): Promise<boolean>;
  onCancel(): void;
}

export function FactEditor({ title, initial, submitLabel, onSubmit, onCancel }: Props) {
  const [text, setText] = useState(initial.text);
  const [kind, setKind] = useState<FactKind>(initial.kind);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="fact-editor"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        void onSubmit({ text: text.trim(), kind, reason: reason.trim() }).finally(() => setBusy(false));
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <label>
        Text <span class="muted small">(“key: value”)</span>
        <textarea rows={2} value={text} onInput={(event) => setText(event.currentTarget.value)} autoFocus />
      </label>
      <label>
        Kind
        <select value={kind} onChange={(event) => setKind(event.currentTarget.value as FactKind)}>
          {KIND_ORDER.map((name) => (
            <option key={name} value={name}>{name}</option>
          ))}
        </select>
      </label>
      <label>
        Reason <span class="muted small">(required, kept with the change)</span>
        <input value={reason} onInput={(event) => setReason(event.currentTarget.value)} />
      </label>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || text.trim() === '' || reason.trim() === ''}>{submitLabel}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
