/** Test helper: drives the local manager through a conversation and applies its diffs like the engine does. */
import { applyDiff } from '../../../src/core/diff.js';
import type { FactEvent, Fact } from '../../../src/core/types.js';
import { createLocalMemoryManager } from '../../../src/managers/local/index.js';
import type { LocalManagerSettings } from '../../../src/managers/local/index.js';
import type { KnownArtifact, MemoryManager, TurnMemory, TurnMessageInput } from '../../../src/managers/memory-manager.js';

export interface Said {
  user?: string;
  assistant?: string;
  userSpeaker?: string | null;
  assistantSpeaker?: string | null;
}

export interface TurnResult {
  memory: TurnMemory;
  messages: TurnMessageInput[];
  /** The exchange text the engine grounds diffs in. */
  exchange: string;
  events: FactEvent[];
}

export class Conversation {
  readonly manager: MemoryManager;
  facts: Fact[] = [];
  artifacts: KnownArtifact[] = [];
  private turn = 0;
  private sequence = 1;
  private nextId = 1;

  constructor(settings?: LocalManagerSettings) {
    this.manager = createLocalMemoryManager(settings);
  }

  async say(said: Said, timestamp = '2024-05-08T10:00:00Z'): Promise<TurnResult> {
    this.turn += 1;
    const messages: TurnMessageInput[] = [];
    if (said.user !== undefined) {
      messages.push({ id: `t${this.turn}-user`, role: 'user', speaker: said.userSpeaker ?? null, content: said.user, sentAt: timestamp });
    }
    if (said.assistant !== undefined) {
      messages.push({ id: `t${this.turn}-assistant`, role: 'assistant', speaker: said.assistantSpeaker ?? null, content: said.assistant, sentAt: timestamp });
    }
    const memory = await this.manager.processTurn({
      sessionId: 'session',
      turn: this.turn,
      messages,
      facts: this.facts,
      artifacts: this.artifacts,
      timestamp,
    });
    const exchange = messages.map((message) => message.content).join('\n');
    const applied = applyDiff({
      sessionId: 'session',
      facts: this.facts,
      diff: memory.diff,
      exchange,
      exchangeMessageIds: messages.map((message) => message.id),
      exchangeTimes: [timestamp],
      turn: this.turn,
      actor: this.manager.name,
      now: timestamp,
      newId: () => `id-${this.nextId++}`,
      firstSequence: this.sequence,
    });
    this.sequence += applied.events.length;
    this.facts = applied.facts;
    for (const draft of memory.artifacts) {
      const known: KnownArtifact = { name: draft.name, kind: draft.kind, language: draft.language, latest: draft.content };
      const index = this.artifacts.findIndex((artifact) => artifact.name === draft.name);
      if (index >= 0) this.artifacts[index] = known;
      else this.artifacts.push(known);
    }
    return { memory, messages, exchange, events: applied.events };
  }

  /** Facts whose key is `key` (normalised). */
  factsWithKey(key: string): Fact[] {
    return this.facts.filter((fact) => fact.key === key);
  }
}

/** Run one turn against an empty document. */
export async function processOnce(said: Said, settings?: LocalManagerSettings): Promise<TurnResult> {
  return new Conversation(settings).say(said);
}

/** Whitespace word count, as a reader counts words. */
export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/u).length;
}
