/**
 * A conversation file dropped anywhere on the window is imported as a new session (a Strata export, an
 * OpenAI-style message list, or any format `strata import` reads).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api/api-error.js';
import { importConversation } from './api/strata-api.js';

/** The files a chooser offers: what `strata import` reads. */
export const IMPORTABLE = '.json,.jsonl,.md,.txt,application/json';

/** Reads a dropped or chosen file and imports it; resolves with the new session's id. */
export async function importFile(file: File): Promise<string> {
  const text = await file.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: sent as text, and the server says what it expected.
  }
  const result = await importConversation(data, file.name);
  return result.sessionId;
}

/** Imports a file dropped on the window while `active` (once the app has its key); says whether one is being dragged over. */
export function useFileDrop(active: boolean, onImported: (sessionId: string) => void, onError: (message: string) => void): boolean {
  const [dropping, setDropping] = useState(false);
  const handlers = useRef({ onImported, onError });
  handlers.current = { onImported, onError };
  useEffect(() => {
    if (!active) return;
    let depth = 0;
    const hasFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') ?? false;
    const enter = (event: DragEvent): void => {
      if (!hasFiles(event)) return;
      depth += 1;
      setDropping(true);
    };
    const leave = (): void => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDropping(false);
    };
    const over = (event: DragEvent): void => {
      if (hasFiles(event)) event.preventDefault();
    };
    const drop = (event: DragEvent): void => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDropping(false);
      const file = event.dataTransfer?.files[0];
      if (file !== undefined) importFile(file).then((id) => handlers.current.onImported(id), (error: unknown) => handlers.current.onError(describeError(error)));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [active]);
  return dropping;
}
