/**
 * The roles of a stored conversation: the user, the assistant, and the results of the tools the
 * assistant called (agents).
 */
export type Role = 'user' | 'assistant' | 'tool';

/** A tool the assistant asked to call, as the OpenAI chat format gives it. */
export interface ToolCall {
  /** The call's id; the `tool` message with the same `toolCallId` holds its result. */
  id: string;
  /** The function's name. */
  name: string;
  /** Its arguments as the model wrote them: JSON text, kept as it is (even when it does not parse). */
  arguments: string;
}

/** Tier 1: `key = value` pairs; tier 2: a brief summary; tier 3: the raw text. */
export type Tier = 1 | 2 | 3;

export type TurnDepth = 'short' | 'medium' | 'long' | 'code';

export type TurnStatus = 'summarised' | 'fallback-raw' | 'pending-retry';

export type FactKind = 'fact' | 'constraint' | 'goal' | 'preference' | 'exception';

export const FACT_KINDS: readonly FactKind[] = ['constraint', 'exception', 'goal', 'preference', 'fact'];

export interface Tenant {
  id: string;
  createdAt: string;
}

export interface Session {
  id: string;
  title: string;
  /** System instructions rendered at the top of every context package ('' when none). */
  instructions: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  turnCount: number;
  /** Sum of the raw (tier 3) tokens of every message. */
  tokenCount: number;
}

export interface TierTokens {
  tier1: number;
  tier2: number;
  tier3: number;
}

export interface Message {
  id: string;
  sessionId: string;
  /** 1-based turn number. */
  turn: number;
  /** 0-based position of the message in its session. */
  position: number;
  role: Role;
  /** The speaker's name when the conversation has named people, else null. */
  speaker: string | null;
  /** Tier 3: the raw text, stored forever. */
  content: string;
  tier1: string;
  tier2: string;
  tokens: TierTokens;
  /**
   * The tier the assembler shows this message at once it is older than the raw window;
   * it degrades to lower tiers only to fit the budget.
   */
  requiredTier: Tier;
  /** ISO-8601 time the message was sent, or (when that is not known) the time Strata stored it. */
  createdAt: string;
  /**
   * ISO-8601 time the message was sent, when known: live turns (`record()`, `chat()`), and imported
   * messages whose file gives a time. Null for a message imported without one: relative dates in it
   * ("tomorrow") are not resolved, and no date is shown for it.
   */
  sentAt: string | null;
  /** An id the message had in the system it came from (for example a LoCoMo dia_id), else null. */
  externalId: string | null;
  /** An assistant message's tool calls, in order; absent when it called none. Their results follow it in the same turn. */
  toolCalls?: ToolCall[];
  /** A `tool` message's answer to the call with this id (an earlier message of the same turn); absent otherwise. */
  toolCallId?: string;
}

export interface TurnSummary {
  sessionId: string;
  turn: number;
  messageIds: string[];
  userSummary: string;
  assistantSummary: string;
  depth: TurnDepth;
  status: TurnStatus;
  /** Extra turns this turn stays verbatim in the raw window (long replies: 1–2). */
  windowExtension: number;
  tokens: number;
  createdAt: string;
  /**
   * True when the turn was answered in a live chat before the previous turn's memory was written (the
   * session lock's bound passed). Once set it stays set; absent means false.
   */
  staleMemory?: boolean;
  /** What the chat model asked for while it wrote this turn's reply, round by round (absent: nothing). */
  detailRequests?: DetailRequestRecord[];
}

/** One request for more detail the chat model made in a turn, and what it did. */
export interface DetailRequestRecord {
  /** The model's reply it came in: 1 for the first, 2 for the reply after the first requests … */
  round: number;
  kind: 'tier' | 'search';
  /** What the model named: a message ref (`12u`) or id for a tier, the query for a search. */
  target: string;
  /** For a tier request: the tier asked for. */
  tier?: Tier;
  /** For a tier request: the message of this session it named, when it named one. */
  messageId?: string;
  /**
   * `raised` (the message is shown at that tier from now on), `unchanged` (it already was), `searched`,
   * `ignored` (no such message in this session), `over-limit` (no round was left to use it).
   */
  outcome: 'raised' | 'unchanged' | 'searched' | 'ignored' | 'over-limit';
}

export interface Fact {
  id: string;
  sessionId: string;
  /** Normalised key: the text before the first `:`. */
  key: string;
  text: string;
  kind: FactKind;
  /** Exceptions are pinned: never dropped by the assembler, never removed by consolidation. */
  pinned: boolean;
  sourceMessageIds: string[];
  createdTurn: number;
  updatedTurn: number;
  createdAt: string;
  updatedAt: string;
  /**
   * The id of an older fact this one may replace. Its manager could not tell whether the two are about
   * the same subject, so both are kept: the package shows the older line inside this one's, marked as
   * possibly superseded, until the older one is established again or either goes. Absent when none.
   */
  mayReplace?: string;
}

export type FactEventOp = 'add' | 'update' | 'remove' | 'consolidate' | 'reject' | 'warning';

export interface FactEvent {
  id: string;
  sessionId: string;
  /** Order of the event within its session (1-based, gap-free). */
  sequence: number;
  /** The fact the event changed; null for `reject` events. */
  factId: string | null;
  op: FactEventOp;
  key: string;
  kind: FactKind;
  oldText: string | null;
  newText: string | null;
  turn: number;
  /** Who made the change: `local`, a model name, or `user`. */
  actor: string;
  reason: string;
  sourceMessageIds: string[];
  createdAt: string;
  /** For an `add` or `update`: the id of an older fact the line may replace (see `Fact.mayReplace`). */
  mayReplace?: string;
  /**
   * For an undo: the id of the event it reverts. The fact comes back as it stood before that event,
   * established at the turn (and time) it was then, not at the turn of the undo.
   */
  undoes?: string;
}

export type ArtifactKind = 'code' | 'draft';

export interface ArtifactVersion {
  artifactId: string;
  version: number;
  turn: number;
  messageId: string;
  content: string;
  tokens: number;
  createdAt: string;
}

export interface Artifact {
  id: string;
  sessionId: string;
  name: string;
  kind: ArtifactKind;
  language: string | null;
  versions: ArtifactVersion[];
}

/**
 * An OpenAI-style chat message, as rendered from a context package. An assistant message that called
 * tools carries them (its content may then be empty), and each `tool` message answers one of them: a
 * package never holds a call without its result or a result without its call.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
}
