import { mapPacked } from '../core/packed-map.js';
import { messageText } from '../core/tool-calls.js';
import type { Message, Tier, TurnSummary } from '../core/types.js';
import { lineBreakTokens, spaceTokens } from '../providers/tokenizer/separator-tokens.js';
import type { ContextItem } from './context-package.js';
import { turnMark } from './provenance-marks.js';

/** A turn and what is stored about it. */
export interface TurnMaterial {
  turn: number;
  summary: TurnSummary | null;
  messages: Message[];
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
  // (A message that called tools shows its calls: `tokens.tier3` counts them.)
  return { text: messageText(message), tokens: message.tokens.tier3, tier: 3 };
}

export type Line = ContextItem & { cost: number };

/** The line showing a message at a tier (or the richest non-empty tier below it), with its estimated cost. */
export function messageLineOf(message: Message, tier: Tier, countShort: CountShort): Line {
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
  lineOf: (message: Message, tier: Tier) => Line = (message, tier) => messageLineOf(message, tier, countShort),
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
      const items = mapPacked(messages, (message) => lineOf(message, ceiling(message)));
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

/** Messages left out of the older turns (they are shown elsewhere), with the turns they belong to. */
export interface ExcludedMessages {
  ids: ReadonlySet<string>;
  /** The turns of those messages: any other turn has nothing left out, which is decided without reading its ids. */
  turns: ReadonlySet<number>;
}
