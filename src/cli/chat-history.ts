/**
 * What was typed in `strata chat`, kept per session beside the database (`<database>.chat-history/`),
 * so ↑ in a later run of the same session brings back its earlier lines. One line per entry, oldest
 * first; a file that cannot be read or written costs the history, never the chat.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPostgresUrl } from '../memory/default-store.js';

/** Lines kept and offered by ↑, newest first. */
export const HISTORY_LINES = 1000;

export interface ChatHistory {
  /** The session's earlier lines, newest first (as readline takes them). */
  load(): string[];
  /** Keep a line just entered. */
  add(line: string): void;
}

/** The history of `sessionId` for the database at `databasePath`; null for an in-memory database or a PostgreSQL one (no file to keep it beside). */
export function chatHistory(databasePath: string, sessionId: string, onProblem: (message: string) => void): ChatHistory | null {
  if (databasePath === ':memory:' || isPostgresUrl(databasePath)) return null;
  const folder = `${databasePath}.chat-history`;
  // (A session id may hold characters a file name cannot.)
  const file = join(folder, `${encodeURIComponent(sessionId)}.txt`);
  let warned = false;
  const problem = (what: string, error: unknown): void => {
    if (warned) return;
    warned = true;
    onProblem(`the chat history ${what} ${file}: ${(error as Error).message}`);
  };
  return {
    load: () => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problem('could not be read from', error);
        return [];
      }
      const lines = text.split('\n').filter((line) => line !== '');
      const kept = lines.slice(-HISTORY_LINES);
      // The file is appended to; it is cut back to what is offered once it holds twice that.
      if (lines.length > 2 * HISTORY_LINES) {
        try {
          writeFileSync(file, `${kept.join('\n')}\n`, { mode: 0o600 });
        } catch (error) {
          problem('could not be written to', error);
        }
      }
      // Newest first, each line once (at its latest use), as readline keeps what is typed.
      return [...new Set(kept.reverse())];
    },
    add: (line) => {
      // A line is one entry: a pasted line break would split it.
      const entry = line.replace(/[\r\n]+/gu, ' ').trim();
      if (entry === '') return;
      try {
        // What was typed is the user's to read: the folder and file are made private.
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        appendFileSync(file, `${entry}\n`, { mode: 0o600 });
      } catch (error) {
        problem('could not be written to', error);
      }
    },
  };
}
