/**
 * The local manager's work on a turn's opening message, done before the turn arrives (while the chat
 * model writes its reply) and kept until `processTurn` takes it. Work is taken once and only for the
 * very message and timestamp it was done for, so a turn gets exactly what it would have computed.
 */
import type { TurnMessageInput } from '../memory-manager.js';
import type { AnalysedMessage } from './analysis.js';
import type { MessageClaims } from './claims.js';
import type { Statement } from './statement.js';
import type { Unit } from './units.js';

/** What the local manager derives from one message on its own, before looking at the rest of the turn. */
export interface MessageWork {
  analysed: AnalysedMessage;
  statements: Statement[];
  /** What the message says that the base truth may keep (empty when the message may not add facts). */
  claims: MessageClaims;
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

/**
 * Prepared work by message id, at most `maxEntries` entries and `maxCharacters` characters of their
 * messages; the oldest go first (a turn whose reply failed never takes its own), while the newest
 * entry is always kept.
 */
export class PreparedMessages {
  private readonly entries = new Map<string, Entry>();
  private characters = 0;

  constructor(private readonly limits: { maxEntries: number; maxCharacters: number }) {}

  /** Keep work on `message`, which must not change afterwards (the work refers to it). */
  keep(message: TurnMessageInput, timestamp: string, work: PreparedWork): void {
    this.remove(message.id);
    for (const [id] of this.entries) {
      if (this.entries.size < this.limits.maxEntries && this.characters + message.content.length <= this.limits.maxCharacters) break;
      this.remove(id);
    }
    this.entries.set(message.id, { message, timestamp, work });
    this.characters += message.content.length;
  }

  /** The work prepared for this message at this timestamp, removed; undefined when there is none or it no longer fits. */
  take(message: TurnMessageInput, timestamp: string): PreparedWork | undefined {
    const entry = this.remove(message.id);
    if (entry === undefined) return undefined;
    const same =
      entry.timestamp === timestamp &&
      entry.message.role === message.role &&
      entry.message.speaker === message.speaker &&
      entry.message.sentAt === message.sentAt &&
      entry.message.content === message.content;
    return same ? entry.work : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry !== undefined) {
      this.entries.delete(id);
      this.characters -= entry.message.content.length;
    }
    return entry;
  }
}
