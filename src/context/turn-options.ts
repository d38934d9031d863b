import { mapPacked } from '../core/packed-map.js';
import type { Message, Tier, TurnSummary } from '../core/types.js';
import { lineBreakTokens, spaceTokens } from '../providers/tokenizer/separator-tokens.js';
import type { ContextItem } from './context-package.js';
import { turnMark } from './provenance-marks.js';

/** A turn and what is stored about it. */
export interface TurnMaterial {
  turn: number;
  summary: TurnSummary | null;
  messages: Message[];
  /**
   * The turn's options with no message left out, kept by `keptTurnOptions` on first use. Readers create
   * materials with it undefined, so every material has one shape (a field, not a side table: the
   * assembler reads it for hundreds of turns per package, and each side-table lookup is a cache miss).
   */
  plainOptions?: TurnOption[] | undefined;
}

/** One way of showing a turn: richer options come first. */
export interface TurnOption {
  /** 0 = richest. */
  level: number;
  items: ContextItem[];
  /** Estimated tokens, line breaks and prefixes included. */
  cost: number;
}

export type CountShort = (text: string) => number;

/**
 * Tokens of a `[turn N]` mark (with an optional label) without tokenizing every turn number: the
 * tokenizer splits digits in groups of up to three, each one token. An estimate; the assembler measures
 * the rendered package exactly at the end.
 */
export function turnPrefixTokens(turn: number, label: string | null, countShort: CountShort): number {
  const digits = String(turn).length;
  const mark = turnMark(0);
  return countShort(label === null ? mark : `${mark} ${label}:`) - 1 + Math.ceil(digits / 3);
}

/** The label a line uses for a message: the speaker's name, else the role. */
export function speakerLabel(message: Pick<Message, 'speaker' | 'role'>): string {
  return message.speaker ?? message.role;
}

/** The text of a message at a tier, falling back to richer tiers when a lower one is empty. */
export function tierText(message: Message, tier: Tier): { text: string; tokens: number; tier: Tier } {
  if (tier <= 1 && message.tier1.trim() !== '') return { text: message.tier1, tokens: message.tokens.tier1, tier: 1 };
  if (tier <= 2 && message.tier2.trim() !== '') return { text: message.tier2, tokens: message.tokens.tier2, tier: 2 };
  return { text: message.content, tokens: message.tokens.tier3, tier: 3 };
}

export type Line = ContextItem & { cost: number };

/** Lines built per message object, by requested tier: a memory's cached turns keep theirs between calls. */
const LINES = new WeakMap<Message, Array<Line | undefined>>();

/**
 * A history or recall line for one message at a tier, remembered for the message object (its texts and
 * counts never change: a changed message is read again as a new object). Callers must not modify the result.
 */
export function messageLine(message: Message, tier: Tier, countShort: CountShort): Line {
  let lines = LINES.get(message);
  if (lines === undefined) {
    lines = [];
    LINES.set(message, lines);
  }
  let line = lines[tier];
  if (line === undefined) {
    line = buildMessageLine(message, tier, countShort);
    lines[tier] = line;
  }
  return line;
}

function buildMessageLine(message: Message, tier: Tier, countShort: CountShort): Line {
  const shown = tierText(message, tier);
  const prefix = `${turnMark(message.turn)} ${speakerLabel(message)}:`;
  const prefixTokens = turnPrefixTokens(message.turn, speakerLabel(message), countShort);
  return {
    text: `${prefix} ${shown.text}`,
    tokens: prefixTokens + shown.tokens,
    sourceMessageIds: [message.id],
    kind: 'message',
    turn: message.turn,
    date: message.sentAt,
    tier: shown.tier,
    factKind: null,
    role: null,
    cost: prefixTokens + spaceTokens(shown.text, countShort) + shown.tokens + lineBreakTokens(shown.text, countShort),
  };
}

/** The one-line turn-log entry of a turn, or null when the turn has no usable summary. */
export function summaryLine(material: TurnMaterial, countShort: CountShort): Line | null {
  const summary = material.summary;
  if (summary === null) return null;
  const user = material.messages.find((message) => message.role === 'user');
  const assistant = material.messages.find((message) => message.role === 'assistant');
  const parts: string[] = [];
  let labelTokens = 0;
  const addPart = (label: string, text: string): void => {
    if (text.trim() === '') return;
    parts.push(`${label}: ${text}`);
    labelTokens += countShort(`${label}:`) + 1;
  };
  addPart(user === undefined ? 'user' : speakerLabel(user), summary.userSummary);
  addPart(assistant === undefined ? 'assistant' : speakerLabel(assistant), summary.assistantSummary);
  if (parts.length === 0) return null;
  const time = material.messages.find((message) => message.sentAt !== null)?.sentAt ?? null;
  const prefix = turnMark(material.turn);
  const text = `${prefix} ${parts.join(' — ')}`;
  const tokens = turnPrefixTokens(material.turn, null, countShort) + summary.tokens + labelTokens;
  return {
    text,
    tokens,
    sourceMessageIds: mapPacked(material.messages, (message) => message.id),
    kind: 'turn-summary',
    turn: material.turn,
    date: time,
    tier: null,
    factKind: null,
    role: null,
    cost: tokens + 1 + lineBreakTokens(text, countShort),
  };
}

/**
 * The ways a turn can be shown, richest first: every message at `topTier` (or its requiredTier),
 * then at most tier 2, then tier 1, then the turn-summary line. Options that are not cheaper than
 * a richer one are dropped.
 */
export function turnOptions(
  material: TurnMaterial,
  countShort: CountShort,
  options: { excluded: ReadonlySet<string>; topTier?: Tier },
): TurnOption[] {
  const messages = material.messages.filter((message) => !options.excluded.has(message.id));
  const candidates: TurnOption[] = [];
  if (messages.length > 0) {
    const ceilings: Array<(message: Message) => Tier> = [
      (message) => options.topTier ?? message.requiredTier,
      (message) => (Math.min(options.topTier ?? message.requiredTier, 2) as Tier),
      () => 1,
    ];
    ceilings.forEach((ceiling, level) => {
      const items = mapPacked(messages, (message) => messageLine(message, ceiling(message), countShort));
      candidates.push({ level, items, cost: items.reduce((sum, item) => sum + item.cost, 0) });
    });
  }
  const summary = summaryLine(material, countShort);
  if (summary !== null) candidates.push({ level: 3, items: [summary], cost: summary.cost });
  const kept: TurnOption[] = [];
  for (const candidate of candidates) {
    const previous = kept[kept.length - 1];
    if (previous !== undefined && candidate.cost >= previous.cost) continue;
    kept.push(candidate);
  }
  return kept;
}

/** Options of turns per material object, by the ids of its messages left out (when any are). */
const KEPT_OPTIONS = new WeakMap<TurnMaterial, Map<string, TurnOption[]>>();
const NOTHING_EXCLUDED: ReadonlySet<string> = new Set();

/** Messages left out of the older turns (they are shown elsewhere), with the turns they belong to. */
export interface ExcludedMessages {
  ids: ReadonlySet<string>;
  /** The turns of those messages: any other turn has nothing left out, which is decided without reading its ids. */
  turns: ReadonlySet<number>;
}

/**
 * `turnOptions` (top tier as required) without the turn's messages in `excluded`, remembered for the
 * material object and the messages left out (its texts and counts never change: a changed turn is
 * read again as a new object). Callers must not modify the result.
 */
export function keptTurnOptions(material: TurnMaterial, countShort: CountShort, excluded: ExcludedMessages): TurnOption[] {
  let key = '';
  if (excluded.turns.has(material.turn)) {
    for (const message of material.messages) if (excluded.ids.has(message.id)) key += `${message.id} `;
  }
  if (key === '') {
    material.plainOptions ??= turnOptions(material, countShort, { excluded: NOTHING_EXCLUDED });
    return material.plainOptions;
  }
  let byExcluded = KEPT_OPTIONS.get(material);
  if (byExcluded === undefined) {
    byExcluded = new Map();
    KEPT_OPTIONS.set(material, byExcluded);
  }
  let options = byExcluded.get(key);
  if (options === undefined) {
    options = turnOptions(material, countShort, { excluded: excluded.ids });
    byExcluded.set(key, options);
  }
  return options;
}
