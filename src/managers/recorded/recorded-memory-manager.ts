/**
 * The recorded memory manager: plays back memory that was written elsewhere (for instance LoCoMo's
 * LLM-written observations and session summaries), turn by turn, so the whole pipeline can run offline
 * on real LLM-written memory. It proposes; the engine validates as for any manager, so a recorded fact
 * that is not grounded in its exchange, or cites messages outside it, is rejected and recorded as an event.
 */
import { StrataError } from '../../core/errors.js';
import { routeTurn } from '../../core/routing.js';
import type { FactKind, Tier } from '../../core/types.js';
import type { MemoryManager, MessageMemory, ProcessTurnOptions, TurnMemory } from '../memory-manager.js';

/** One message of a recorded turn. */
export interface RecordedMessage {
  /** The id the message had where the memory was recorded (a LoCoMo dia_id); facts cite it. */
  externalId: string;
  /** When given, the content the replayed message must have, so a misaligned replay fails loudly. */
  content?: string;
  /** Recorded tier 1 and tier 2 (default ''; the assembler then shows the raw text). */
  tier1?: string;
  tier2?: string;
  /** Default 2. */
  requiredTier?: Tier;
}

/** A recorded base-truth line and the recorded messages it rests on. */
export interface RecordedFact {
  text: string;
  /** Default `fact`. */
  kind?: FactKind;
  key?: string;
  /** External ids of its source messages; each must belong to this turn or an earlier one. */
  sources: string[];
}

/** What was recorded for one turn (turn N of a session is `turns[N - 1]`). */
export interface RecordedTurn {
  messages: RecordedMessage[];
  /** Default: the raw text of the user side (the engine cuts it to 25 words). */
  userSummary?: string;
  /** Default: the raw text of the assistant side (cut to 30 words). */
  assistantSummary?: string;
  /** Facts proposed as additions in this turn. */
  facts?: RecordedFact[];
}

export interface RecordedMemoryManagerSettings {
  /** The recording, turn by turn; every session replayed with this manager follows it from turn 1. */
  turns: readonly RecordedTurn[];
  /** Actor name of its fact events (default `recorded`). */
  name?: string;
}

export interface RecordedMemoryManager extends MemoryManager {
  /** Facts proposed so far, over all sessions (the engine's events say which it accepted). */
  proposedFacts(): number;
  /** The message id a recorded message was replayed as, once its turn was processed. */
  messageIdOf(sessionId: string, externalId: string): string | undefined;
}

function failure(message: string): StrataError {
  return new StrataError('MEMORY_MANAGER_FAILURE', message);
}

/** Create a manager that plays back `settings.turns`. */
export function createRecordedMemoryManager(settings: RecordedMemoryManagerSettings): RecordedMemoryManager {
  const name = settings.name ?? 'recorded';
  const turns = settings.turns;
  const idMaps = new Map<string, Map<string, string>>();
  let proposed = 0;

  const processTurn = (options: ProcessTurnOptions): Promise<TurnMemory> => {
    const recorded = turns[options.turn - 1];
    if (recorded === undefined) {
      throw failure(`The recording has ${turns.length} turns; nothing was recorded for turn ${options.turn}.`);
    }
    if (recorded.messages.length !== options.messages.length) {
      throw failure(`Turn ${options.turn} has ${options.messages.length} messages but ${recorded.messages.length} were recorded; the replay does not follow the recording.`);
    }
    const ids = idMaps.get(options.sessionId) ?? new Map<string, string>();
    idMaps.set(options.sessionId, ids);
    const messages: MessageMemory[] = options.messages.map((message, index) => {
      const entry = recorded.messages[index];
      if (entry === undefined) throw failure(`Turn ${options.turn} has no recorded message ${index + 1}.`);
      if (entry.content !== undefined && entry.content !== message.content) {
        throw failure(`Message ${index + 1} of turn ${options.turn} is not the recorded message ${entry.externalId}; the replay does not follow the recording.`);
      }
      ids.set(entry.externalId, message.id);
      return { messageId: message.id, tier1: entry.tier1 ?? '', tier2: entry.tier2 ?? '', requiredTier: entry.requiredTier ?? 2 };
    });
    const add = (recorded.facts ?? []).map((fact) => ({
      text: fact.text,
      kind: fact.kind ?? 'fact',
      ...(fact.key === undefined ? {} : { key: fact.key }),
      sourceMessageIds: fact.sources.map((source) => {
        const id = ids.get(source);
        if (id === undefined) throw failure(`A recorded fact of turn ${options.turn} cites ${source}, which has not been replayed yet.`);
        return id;
      }),
    }));
    proposed += add.length;
    const side = (role: 'user' | 'assistant'): string =>
      options.messages
        .filter((message) => message.role === role)
        .map((message) => message.content)
        .join('\n');
    const route = routeTurn(options.messages.map((message) => message.content));
    return Promise.resolve({
      messages,
      userSummary: recorded.userSummary ?? side('user'),
      assistantSummary: recorded.assistantSummary ?? side('assistant'),
      depth: route.depth,
      windowExtension: route.windowExtension,
      diff: { add, update: [], remove: [] },
      artifacts: [],
    });
  };

  return {
    name,
    processTurn: async (options) => processTurn(options),
    proposedFacts: () => proposed,
    messageIdOf: (sessionId, externalId) => idMaps.get(sessionId)?.get(externalId),
  };
}
