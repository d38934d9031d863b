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

/** Files dropped on the window: whether some are being dragged over it, and the one being imported now. */
export interface FileDrop {
  dragging: boolean;
  /** "name (2 of 3)" while an import runs, else null. */
  importing: string | null;
}

/** Imports the files dropped on the window while `active` (once the app has its key), one after another; the last imported opens. */
export function useFileDrop(active: boolean, onImported: (sessionId: string) => void, onError: (message: string) => void): FileDrop {
  const [dropping, setDropping] = useState(false);
  const [importing, setImporting] = useState<string | null>(null);
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
      const files = [...(event.dataTransfer?.files ?? [])];
      void (async () => {
        for (const [index, file] of files.entries()) {
          setImporting(files.length === 1 ? file.name : `${file.name} (${index + 1} of ${files.length})`);
          try {
            handlers.current.onImported(await importFile(file));
          } catch (error) {
            handlers.current.onError(`${file.name}: ${describeError(error)}`);
          }
        }
        setImporting(null);
      })();
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
  return { dragging: dropping, importing };
}
