/**
 * Replay a LoCoMo conversation into a fresh temporary store through the library, session by session:
 * `speaker_a` → user and `speaker_b` → assistant, each message keeping its speaker's name (the engine
 * renders it into the text), a shared image appended as `[shares <caption>]`, and the session's time as
 * the timestamp of its messages. A Strata turn is a user message and the assistant reply that follows it
 * within one session; a session that opens with `speaker_b` starts with an assistant-only turn.
 *
 * `record()` does not take an external id, so the messageId ↔ dia_id map is built from the ids each
 * `record()` returns, in the order the messages were given.
 */
import type { Role } from '../../core/types.js';
import type { MemoryManager } from '../../managers/memory-manager.js';
import { createMemory, type Memory, type MemoryOptions, type SessionHandle } from '../../memory/create-memory.js';
import type { Tokenizer } from '../../providers/tokenizer/tokenizer.js';
import { reproducibleSources } from '../reproducible.js';
import { scratchStore } from '../scratch-store.js';
import type { LocomoDialogue, LocomoSample } from './dataset.js';

/** The text a dialogue is stored as: its text, then `[shares <caption>]` for a shared image. */
export function dialogueContent(dialogue: Pick<LocomoDialogue, 'text' | 'imageCaption'>): string {
  const text = dialogue.text.trim();
  if (dialogue.imageCaption === null) return text;
  const image = `[shares ${dialogue.imageCaption}]`;
  return text === '' ? image : `${text} ${image}`;
}

/** One dialogue as a message to store. */
export interface ReplayMessage {
  diaId: string;
  role: Role;
  speaker: string;
  content: string;
  /** N of the LoCoMo session. */
  session: number;
  /** ISO-8601 time of the session. */
  timestamp: string;
}

/** One Strata turn of the replay: a user message, its reply, or one of them alone. */
export interface ReplayTurn {
  session: number;
  timestamp: string;
  /** User side first. */
  messages: ReplayMessage[];
}

/** The Strata turns a sample is replayed as, in order. */
export function replayTurns(sample: LocomoSample): ReplayTurn[] {
  const turns: ReplayTurn[] = [];
  for (const session of sample.sessions) {
    let current: ReplayMessage[] = [];
    const flush = (): void => {
      if (current.length > 0) turns.push({ session: session.index, timestamp: session.timestamp, messages: current });
      current = [];
    };
    for (const dialogue of session.dialogues) {
      const role: Role = dialogue.speaker === sample.speakerA ? 'user' : 'assistant';
      const message: ReplayMessage = {
        diaId: dialogue.diaId,
        role,
        speaker: dialogue.speaker,
        content: dialogueContent(dialogue),
        session: session.index,
        timestamp: session.timestamp,
      };
      // A user message always opens a turn; a second assistant message in a row opens one too.
      if (role === 'user' || current.some((entry) => entry.role === 'assistant')) flush();
      current.push(message);
    }
    flush();
  }
  return turns;
}

/** A stored dialogue and the message id it got. */
export interface ReplayedMessage extends ReplayMessage {
  messageId: string;
  turn: number;
}

export interface ReplayedConversation {
  sample: LocomoSample;
  memory: Memory;
  session: SessionHandle;
  /** Every dialogue in conversation order, with its message id. */
  messages: ReplayedMessage[];
  messageIdOf: ReadonlyMap<string, string>;
  diaIdOf: ReadonlyMap<string, string>;
  /** Close the temporary store. */
  close(): Promise<void>;
}

export interface ReplayOptions {
  /** Who writes memory (default: the local manager). */
  manager?: MemoryManager;
  /** Tokenizer shared with the baselines (default: the memory's, from its settings). */
  tokenizer?: Tokenizer;
  /** Other memory options (environment, config file, assembler tuning …); the store is always a fresh one. */
  memory?: Omit<MemoryOptions, 'path' | 'store' | 'manager' | 'tokenizer'>;
  /** A PostgreSQL URL to replay in (a schema of its own, dropped on close); default a private in-memory SQLite database. */
  database?: string;
  /** Called after every stored turn. */
  onTurn?: (done: number, total: number) => void;
}

/**
 * When a replay starts: the first session's time (the epoch when it has none), so its ids and times come
 * out the same in every run (see `reproducibleSources`).
 */
function replayStart(sample: LocomoSample): number {
  const start = Date.parse(sample.sessions[0]?.timestamp ?? '');
  return Number.isNaN(start) ? 0 : start;
}

/** Replay `sample` into a fresh store and return the session with its id maps. */
export async function replayConversation(sample: LocomoSample, options: ReplayOptions = {}): Promise<ReplayedConversation> {
  const sources = reproducibleSources({ prefix: 'm', width: 8, stepMs: 1, start: replayStart(sample) });
  const scratch = scratchStore(options.database);
  const memory = createMemory({
    env: {},
    newId: sources.newId,
    clock: sources.clock,
    ...options.memory,
    ...scratch.options,
    ...(options.manager === undefined ? {} : { manager: options.manager }),
    ...(options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer }),
  });
  try {
    const session = await memory.sessions.create({ title: `LoCoMo ${sample.sampleId}` });
    const turns = replayTurns(sample);
    const messages: ReplayedMessage[] = [];
    for (const [index, turn] of turns.entries()) {
      const user = turn.messages.find((message) => message.role === 'user');
      const assistant = turn.messages.find((message) => message.role === 'assistant');
      const result = await session.record({
        ...(user === undefined ? {} : { user: { content: user.content, speaker: user.speaker } }),
        ...(assistant === undefined ? {} : { assistant: { content: assistant.content, speaker: assistant.speaker } }),
        timestamp: turn.timestamp,
      });
      turn.messages.forEach((message, position) => {
        const messageId = result.messageIds[position];
        if (messageId === undefined) throw new Error(`Turn ${result.turn} of ${sample.sampleId} stored fewer messages than it was given.`);
        messages.push({ ...message, messageId, turn: result.turn });
      });
      options.onTurn?.(index + 1, turns.length);
    }
    return {
      sample,
      memory,
      session,
      messages,
      messageIdOf: new Map(messages.map((message) => [message.diaId, message.messageId])),
      diaIdOf: new Map(messages.map((message) => [message.messageId, message.diaId])),
      close: async () => {
        await memory.close();
        await scratch.drop();
      },
    };
  } catch (error) {
    await memory.close();
    await scratch.drop();
    throw error;
  }
}
