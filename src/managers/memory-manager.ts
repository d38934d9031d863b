import type { FactDiff } from '../core/diff.js';
import type { ArtifactKind, Fact, Role, Tier, TurnDepth } from '../core/types.js';

/** One message of the turn being processed (already stored at tier 3). */
export interface TurnMessageInput {
  id: string;
  role: Role;
  speaker: string | null;
  content: string;
}

/** The newest version of an artifact the session already has. */
export interface KnownArtifact {
  name: string;
  kind: ArtifactKind;
  language: string | null;
  latest: string;
}

export interface ProcessTurnOptions {
  sessionId: string;
  turn: number;
  /** The messages of the turn in order (user side first). */
  messages: readonly TurnMessageInput[];
  /** The base-truth document before this turn. */
  facts: readonly Fact[];
  /** Artifacts produced so far, so a revision can continue an existing name. */
  artifacts: readonly KnownArtifact[];
  /** ISO-8601 time of the turn. */
  timestamp: string;
}

/** Tier 1 and tier 2 of one message, and the least detailed tier it may be shown at. */
export interface MessageMemory {
  messageId: string;
  tier1: string;
  tier2: string;
  requiredTier: Tier;
}

/** An artifact version proposed for the turn: a new name starts an artifact, a known name adds a version. */
export interface ArtifactDraft {
  name: string;
  kind: ArtifactKind;
  language: string | null;
  content: string;
  messageId: string;
}

/** Everything a memory manager derives from one turn. */
export interface TurnMemory {
  messages: MessageMemory[];
  /** ≤ 25 words. */
  userSummary: string;
  /** ≤ 30 words. */
  assistantSummary: string;
  depth: TurnDepth;
  windowExtension: number;
  diff: FactDiff;
  artifacts: ArtifactDraft[];
}

/** Who writes memory: `local` (rule-based, offline), `model` (an LLM) or `recorded` (replayed). */
export interface MemoryManager {
  /** Recorded as the actor of the fact events it causes. */
  readonly name: string;
  processTurn(options: ProcessTurnOptions): Promise<TurnMemory>;
}
