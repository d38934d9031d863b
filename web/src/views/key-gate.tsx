/** Asks for an API key (from `strata keys create`), kept for this browser session only. */
import { useState } from 'preact/hooks';

export function KeyGate({ onKey, refused }: { onKey: (key: string) => void; refused: boolean }) {
  const [key, setKey] = useState('');
  return (
    <div class="key-gate" role="dialog" aria-modal="true" aria-labelledby="key-gate-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') onKey(key.trim());
        }}
      >
        <h1 id="key-gate-title">Strata</h1>
        <p>This server needs an API key. Create one with <code>strata keys create --tenant NAME</code>; it is kept in this tab until you close it.</p>
        {refused && (
          <p class="error" role="alert">
            The server refused the key given. Check it, or create a new one.
          </p>
        )}
        <label>
          API key
          <input type="password" autoComplete="off" value={key} onInput={(event) => setKey(event.currentTarget.value)} autoFocus />
        </label>
        <button type="submit" disabled={key.trim() === ''}>Open</button>
      </form>
    </div>
  );
}
