import type { ChatMessage, FactKind, Role, Tier, ToolCall } from '../core/types.js';

/**
 * `artifacts` holds the artifact versions the query refers to, `long-term` the tenant's long-term memories
 * that bear on the conversation; a package lists either only when it has items.
 */
export type SectionName = 'instructions' | 'pinned' | 'long-term' | 'artifacts' | 'facts' | 'window' | 'history' | 'recalled';

/** What an item of a package shows. */
export type ItemKind = 'instructions' | 'fact' | 'message' | 'turn-summary' | 'artifact' | 'memory';

/** One line (or message) of a context package, with where it came from. */
export interface ContextItem {
  /**
   * What the line says. Message lines begin with their `[turn N]` mark (their day is a heading of the section); a fact line is the fact's
   * text, and the rendering appends its `(turn N, date)` mark (from `turn` and `date`).
   */
  text: string;
  /** Tokens of the item as rendered (a fact's mark included); the package total is measured on the whole rendering. */
  tokens: number;
  /** The messages this item carries content of. */
  sourceMessageIds: string[];
  kind: ItemKind;
  /** The turn the item comes from (facts: the turn they were last updated). */
  turn: number | null;
  /**
   * ISO-8601 time the item's message was sent (facts: the turn they were last established in), or null
   * when it is not known (imported without a time) or the item has none (instructions).
   */
  date: string | null;
  /** For messages: the tier shown. */
  tier: Tier | null;
  /** For facts: their kind. */
  factKind: FactKind | null;
  /** For window messages: the chat role they render as. */
  role: Role | null;
  /** For a window message that called tools: its calls (their results are the next window items). */
  toolCalls?: ToolCall[];
  /** For a window tool result: the call it answers. */
  toolCallId?: string;
}

export interface ContextSection {
  name: SectionName;
  /** Sum of the item tokens. */
  tokens: number;
  items: ContextItem[];
}

/** A range of turns, both ends included. */
export interface TurnRange {
  from: number;
  to: number;
}

/**
 * Something the assembler left out, and why: listed messages (a fact's sources, a window turn that did
 * not fit), or the older turns as a whole range, which in a long session is most of it and is given as
 * the range rather than as every message id.
 */
export interface Omission {
  /** The messages left out; empty for a range of turns (`turns`). */
  sourceMessageIds: string[];
  /** Turns left out whole: every message of turns `from`–`to` except those the package shows as recalled; null for listed messages. */
  turns: TurnRange | null;
  /** How many messages the omission covers: those listed, or those of the range. */
  messageCount: number;
  reason: string;
}

/** An item as the JSON of a package gives it: what it says, its size, where it came from, and what it is. */
export type ContextItemJson = Pick<ContextItem, 'text' | 'tokens' | 'sourceMessageIds' | 'kind' | 'turn' | 'date' | 'tier'>;

/** The JSON shape of a package (`strata context --json`). */
export interface ContextPackageJson {
  budget: number;
  tokens: number;
  messages: ChatMessage[];
  sections: Array<{ name: SectionName; tokens: number; items: ContextItemJson[] }>;
  omitted: Omission[];
  warnings: string[];
}

/** What the assembler returns: ordered sections under a hard budget, renderable to chat messages. */
export interface ContextPackage {
  budget: number;
  /** Tokens of `render()`, chat-format overhead included; always ≤ budget. */
  tokens: number;
  /** Tokenizer that measured `tokens`. */
  tokenizer: string;
  /** The package's sections, in render order; yours to change (copies, made when first read). */
  readonly sections: ContextSection[];
  /** What was left out and why; worked out when first read (rendering alone does not pay for it). */
  omitted: Omission[];
  /** Human-readable notes, e.g. a pinned exception that could not fit. */
  warnings: string[];
  /** OpenAI-style messages: one system message with the memory, then the raw window. */
  render(): ChatMessage[];
  toJSON(): ContextPackageJson;
}
