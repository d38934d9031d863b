/**
 * Older turns as a source, newest first: first as many turns as the coverage share allows in their
 * cheapest form, then the newest of those upgraded to richer tiers while room remains, then older
 * turns again until the budget is spent. Messages recalled elsewhere are not shown again with their turns.
 */
import type { ContextItem } from './context-package.js';
import type { Assembly } from './assembly.js';
import type { TurnReader } from './turn-reader.js';
import type { CountShort, ExcludedMessages, TurnMaterial, TurnOption } from './turn-options.js';

const PAGE_TURNS = 64;

/**
 * Turns older than `fromTurn`, newest first, read page by page: a turn of a page already read is
 * returned at once, a new page as a promise (awaiting every turn would cost a microtask each).
 */
function olderTurns(reader: TurnReader, sessionId: string, fromTurn: number): () => TurnMaterial | null | Promise<TurnMaterial | null> {
  let cursor = fromTurn;
  let buffer: TurnMaterial[] = [];
  const load = async (): Promise<TurnMaterial | null> => {
    while (buffer.length === 0 && cursor >= 1) {
      const low = Math.max(1, cursor - PAGE_TURNS + 1);
      buffer = await reader.read({ sessionId, fromTurn: low, toTurn: cursor });
      cursor = low - 1;
    }
    // Oldest first in the page: the newest is the last.
    return buffer.pop() ?? null;
  };
  return () => buffer.pop() ?? load();
}

export interface HistoryOptions {
  reader: TurnReader;
  sessionId: string;
  /** The first turn of the raw window: history is what comes before it. */
  windowStart: number;
  countShort: CountShort;
  /** Share of the room left that goes to covering turns in their cheapest form first. */
  coverageShare: number;
  /** Messages shown in the recalled section. */
  shownElsewhere: ExcludedMessages;
  /** Raw tokens of older turns the section may reach back over; turns beyond are archived (default: no bound). */
  reachTokens?: number;
  /** The contextual window the reach is part of: one message counts for at most 5 % of it (default: the reach). */
  windowTokens?: number;
}

/** Where the history section stopped: the oldest turn it covers, and whether older turns are archived. */
export interface HistoryReach {
  /** The oldest turn covered (the window's first turn when none). */
  oldestCovered: number;
  /** True when the turns before `oldestCovered` lie beyond the contextual window, not merely beyond the budget. */
  archived: boolean;
}

/** Of the contextual window, the most one message counts for: a pasted log must not archive all before it. */
const MESSAGE_SHARE_OF_REACH = 0.05;

/** The raw tokens a turn takes of a contextual window of `windowTokens`, each message counted up to 5 % of it. */
export function contextualTokens(material: TurnMaterial, windowTokens: number): number {
  const cap = Math.max(1, windowTokens * MESSAGE_SHARE_OF_REACH);
  let tokens = 0;
  for (const message of material.messages) tokens += Math.min(cap, message.tokens.tier3);
  return tokens;
}

/** Add the history section; says how far back it reaches. */
export async function addHistory(assembly: Assembly, options: HistoryOptions): Promise<HistoryReach> {
  const next = olderTurns(options.reader, options.sessionId, options.windowStart - 1);
  const chosen: Array<{ forms: TurnOption[]; index: number }> = [];
  const reach = options.reachTokens ?? Number.POSITIVE_INFINITY;
  const windowTokens = options.windowTokens ?? reach;
  let pending: TurnMaterial | null = null;
  let oldestCovered = options.windowStart;
  let walked = 0;
  let archived = false;
  const cover = async (limit: number): Promise<void> => {
    if (archived) return;
    for (let found = pending ?? next(); ; found = next()) {
      const material = found instanceof Promise ? await found : found;
      if (material === null) break;
      if (pending === null) {
        walked += contextualTokens(material, windowTokens);
        if (walked > reach) {
          archived = true;
          return;
        }
      }
      pending = null;
      const forms = options.reader.lines.keptTurnOptions(material, options.countShort, options.shownElsewhere);
      const cheapest = forms[forms.length - 1];
      if (cheapest === undefined) {
        oldestCovered = material.turn;
        continue;
      }
      const sentAt = cheapest.items[0]?.date ?? null;
      const cost = assembly.costOf('history', cheapest.cost) + assembly.dayCost('history', sentAt);
      if (assembly.used + cost > limit) {
        pending = material;
        return;
      }
      assembly.add('history', [], cost);
      assembly.noteDay('history', sentAt);
      chosen.push({ forms, index: forms.length - 1 });
      oldestCovered = material.turn;
    }
  };
  await cover(assembly.used + Math.floor(assembly.remaining() * options.coverageShare));
  upgrade(assembly, chosen);
  await cover(assembly.budget);
  // Oldest turn first, as the section is shown (`chosen` runs newest first); then the window turns that
  // degraded into the section.
  const history: ContextItem[] = [];
  for (let index = chosen.length - 1; index >= 0; index -= 1) {
    const entry = chosen[index];
    if (entry !== undefined) history.push(...(entry.forms[entry.index]?.items ?? []));
  }
  history.push(...assembly.items('history'));
  assembly.setItems('history', history);
  return { oldestCovered, archived };
}

/** Each covered turn, newest first, in the richest form the room allows. */
function upgrade(assembly: Assembly, chosen: ReadonlyArray<{ forms: TurnOption[]; index: number }>): void {
  for (const entry of chosen) {
    const current = entry.forms[entry.index];
    if (current === undefined) continue;
    for (let index = 0; index < entry.index; index += 1) {
      const richer = entry.forms[index];
      if (richer !== undefined && assembly.resize(richer.cost - current.cost)) {
        entry.index = index;
        break;
      }
    }
  }
}
