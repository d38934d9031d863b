/**
 * The memory state a run of turns evolves, and how one turn's memory advances it. Kept apart from
 * the write path so the import worker, which only advances its own copy, loads no schema library.
 */
import { applyDiff, keptInStoreOrder } from '../core/diff.js';
import { mapPacked } from '../core/packed-map.js';
import { toolUseOf } from '../core/tool-calls.js';
import type { Fact, Message } from '../core/types.js';
import type { KnownArtifact, ProcessTurnOptions, TurnMemory } from '../managers/memory-manager.js';

/** A turn's raw messages as stored. */
export interface RawTurn {
  turn: number;
  messages: Message[];
  /** The messages' tier-3 counts were made with this memory's tokenizer (true for turns just stored). */
  countedHere?: boolean;
}

/** The memory state a run of turns evolves: the facts, the next event number, the artifacts. */
export interface MemoryState {
  facts: Fact[];
  nextSequence: number;
  artifacts: Map<string, KnownArtifact & { id: string }>;
  /** When the session the state was read from was made (a session made again under its id is another); set by the state cache. */
  sessionCreatedAt?: string;
}

/** What a memory manager is asked about one stored turn. */
export function turnRequest(raw: RawTurn, state: MemoryState, fallbackTime: string): ProcessTurnOptions {
  return {
    sessionId: raw.messages[0]?.sessionId ?? '',
    turn: raw.turn,
    messages: mapPacked(raw.messages, (message) => ({ id: message.id, role: message.role, speaker: message.speaker, content: message.content, sentAt: message.sentAt, ...toolUseOf(message) })),
    facts: state.facts,
    artifacts: [...state.artifacts.values()],
    timestamp: raw.messages[0]?.createdAt ?? fallbackTime,
  };
}

function isEmptyDiff(diff: TurnMemory['diff']): boolean {
  return diff.add.length === 0 && diff.update.length === 0 && diff.remove.length === 0;
}

/**
 * Apply a turn's memory to the state: the base-truth diff (validated) and the artifact drafts.
 * Pure apart from `newId`; the import worker runs the same function to keep its copy of the state.
 */
export function advanceState(
  raw: RawTurn,
  state: MemoryState,
  memory: TurnMemory,
  options: { actor: string; now: string; newId: () => string },
): { applied: ReturnType<typeof applyDiff>; drafts: Array<{ artifactId: string; draft: TurnMemory['artifacts'][number] }> } {
  // An empty diff changes nothing (applyDiff would only copy the facts): most turns add no fact.
  const applied: ReturnType<typeof applyDiff> = isEmptyDiff(memory.diff)
    ? { facts: state.facts, events: [], upserted: [], removedIds: [] }
    : applyDiff({
        sessionId: raw.messages[0]?.sessionId ?? '',
        facts: state.facts,
        diff: memory.diff,
        exchange: mapPacked(raw.messages, (message) => message.content).join('\n'),
        exchangeMessageIds: mapPacked(raw.messages, (message) => message.id),
        exchangeTimes: raw.messages.flatMap((message) => (message.sentAt === null ? [] : [message.sentAt])),
        turn: raw.turn,
        actor: options.actor,
        now: options.now,
        newId: options.newId,
        firstSequence: state.nextSequence,
      });
  // In the order the store lists facts, so the next turn sees the document as a fresh read would give it
  // (a diff's result mostly is already, and then keeps its index for the next turn's diff).
  state.facts = applied.facts === state.facts ? state.facts : keptInStoreOrder(applied.facts);
  state.nextSequence += applied.events.length;
  const messageIds = new Set(raw.messages.map((message) => message.id));
  const drafts: Array<{ artifactId: string; draft: TurnMemory['artifacts'][number] }> = [];
  for (const draft of memory.artifacts) {
    if (!messageIds.has(draft.messageId)) continue;
    const known = state.artifacts.get(draft.name);
    const artifactId = known?.id ?? options.newId();
    // A new version keeps the artifact's kind and language, as the store does.
    state.artifacts.set(draft.name, { id: artifactId, name: draft.name, kind: known?.kind ?? draft.kind, language: known === undefined ? draft.language : known.language, latest: draft.content });
    drafts.push({ artifactId, draft });
  }
  return { applied, drafts };
}
