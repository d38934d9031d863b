/**
 * One event for every write that changes what a session's reads return: a turn written (its raw
 * messages, or its memory), or the whole session replaced (deleted, imported). The caches that belong
 * to a memory listen to it; writers announce, and never clear a cache by hand.
 */
export interface SessionWrite {
  sessionId: string;
  /** The turn written; absent when the whole session changed. */
  turn?: number;
  /** True when the write added raw messages (a turn stored, an export imported): they are to be embedded. */
  messagesAdded?: boolean;
}

export type SessionWriteListener = (write: SessionWrite) => void;

export class SessionWrites {
  private readonly listeners: SessionWriteListener[] = [];

  /** Call `listener` after every write announced from now on. */
  listen(listener: SessionWriteListener): void {
    this.listeners.push(listener);
  }

  /** Tell every listener that the write is committed. */
  announce(write: SessionWrite): void {
    for (const listener of this.listeners) listener(write);
  }
}
