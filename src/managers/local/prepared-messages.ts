/**
 * The local manager's work on a turn's opening message, done before the turn arrives (while the chat
 * model writes its reply) and kept until `processTurn` takes it. Work is taken once and only for the
 * very message and timestamp it was done for, so a turn gets exactly what it would have computed.
 */
import type { TurnMessageInput } from '../memory-manager.js';
import type { AnalysedMessage } from './analysis.js';
import type { Statement } from './fact-extraction.js';
import type { Unit } from './units.js';

/** What the local manager derives from one message on its own, before looking at the rest of the turn. */
export interface MessageWork {
  analysed: AnalysedMessage;
  statements: Statement[];
  units: Unit[];
}

/** Work on a turn's first message, with the compromise budget its analysis left to the turn. */
export interface PreparedWork extends MessageWork {
  taggingLeft: number;
}

interface Entry {
  message: TurnMessageInput;
  timestamp: string;
  work: PreparedWork;
}

/** Prepared work by message id; the oldest entry goes first when full (a reply that failed never takes its own). */
export class PreparedMessages {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries: number) {}

  keep(message: TurnMessageInput, timestamp: string, work: PreparedWork): void {
    this.entries.delete(message.id);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(message.id, { message: { ...message }, timestamp, work });
  }

  /** The work prepared for this message at this timestamp, removed; undefined when there is none or it no longer fits. */
  take(message: TurnMessageInput, timestamp: string): PreparedWork | undefined {
    const entry = this.entries.get(message.id);
    if (entry === undefined) return undefined;
    this.entries.delete(message.id);
    const same =
      entry.timestamp === timestamp &&
      entry.message.role === message.role &&
      entry.message.speaker === message.speaker &&
      entry.message.content === message.content;
    return same ? entry.work : undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}
