/** Asks why, before a change that needs a reason (a fact's removal). */
import { useState } from 'preact/hooks';

interface Props {
  label: string;
  submitLabel: string;
  onSubmit(reason: string): Promise<boolean>;
  onCancel(): void;
}

export function ReasonForm({ label, submitLabel, onSubmit, onCancel }: Props) {
  const [reason, setReason] = useState('');
  return (
    <form
      class="reason-form"
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit(reason.trim());
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <label>
        {label}
        <input value={reason} onInput={(event) => setReason(event.currentTarget.value)} autoFocus />
      </label>
      <div class="actions">
        <button type="submit" class="danger" disabled={reason.trim() === ''}>{submitLabel}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
