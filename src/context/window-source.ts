/**
 * The raw window as a source: the last turns verbatim, newest first. The newest turn holds room ahead of
 * the base-truth document (up to its floor share) so facts cannot crowd out the latest exchange. A turn
 * that does not fit verbatim degrades into the history section, and so do all older window turns, so
 * the verbatim chat tail stays in order; with a query, degraded turns wait for recall.
 */
import { mapPacked } from '../core/packed-map.js';
import { toolUseOf } from '../core/tool-calls.js';
import type { Message } from '../core/types.js';
import type { TenantRepositories } from '../store/store.js';
import type { Assembly } from './assembly.js';
import type { ContextItem } from './context-package.js';
import { turnsInOrder } from './turn-reader.js';
import type { TurnLines } from './turn-lines.js';
import type { CountShort, TurnMaterial } from './turn-options.js';

export interface RawWindow {
  /** The first turn of the window (one past the last turn when the window is empty). */
  start: number;
  /** Its turns, newest first. */
  materials: TurnMaterial[];
}

/** The window's turns: the last `turns`, reaching further back for a turn whose summary extends it. */
export async function readWindow(repositories: TenantRepositories, sessionId: string, lastTurn: number, turns: number): Promise<RawWindow> {
  const tail = lastTurn === 0 ? [] : await repositories.turns.listBefore({ sessionId, beforeTurn: lastTurn + 1, limit: turns + 2 });
  let start = Math.max(1, lastTurn - turns + 1);
  for (const summary of tail) {
    if (summary.turn < start && summary.turn + summary.windowExtension > lastTurn - turns) start = summary.turn;
  }
  if (turns === 0) start = lastTurn + 1;
  if (lastTurn === 0 || start > lastTurn) return { start, materials: [] };
  const messages = await repositories.messages.listByTurns({ sessionId, fromTurn: start, toTurn: lastTurn });
  return { start, materials: turnsInOrder(messages, tail).reverse() };
}

function windowItem(message: Message, countShort: CountShort): ContextItem {
  const prefix = message.speaker === null ? '' : `${message.speaker}: `;
  return {
    text: `${prefix}${message.content}`,
    tokens: message.tokens.tier3 + (prefix === '' ? 0 : countShort(prefix)),
    sourceMessageIds: [message.id],
    kind: 'message',
    turn: message.turn,
    date: message.sentAt,
    tier: 3,
    factKind: null,
    role: message.role,
    ...toolUseOf(message),
  };
}

function verbatim(assembly: Assembly, material: TurnMaterial, countShort: CountShort): { items: ContextItem[]; cost: number } {
  const items = mapPacked(material.messages, (message) => windowItem(message, countShort));
  return { items, cost: items.reduce((sum, item) => sum + assembly.windowCost(item), 0) };
}

/** Hold room for the newest turn, up to `floorShare` of the budget; returns the room held and how to give it back. */
export function reserveNewest(assembly: Assembly, window: RawWindow, floorShare: number, countShort: CountShort): { tokens: number; release: () => void } {
  const newest = window.materials[0];
  const tokens =
    newest === undefined
      ? 0
      : Math.max(0, Math.min(Math.floor(assembly.budget * floorShare), assembly.costOf('window', verbatim(assembly, newest, countShort).cost), assembly.remaining()));
  return { tokens, release: assembly.reserve(tokens) };
}

export interface WindowOptions {
  countShort: CountShort;
  /** Where the degraded turns' lines are kept. */
  lines: TurnLines;
  /** A query is given: the window takes only `share` of the budget beyond its newest turn. */
  queryFirst: boolean;
  share: number;
  /** Room the newest turn held (given back before this source runs). */
  reserved: number;
}

/** Add the window, newest turn first; returns the turns that degraded and wait for recall (with a query). */
export function addWindow(assembly: Assembly, window: RawWindow, options: WindowOptions): TurnMaterial[] {
  const limit = options.queryFirst ? assembly.used + options.reserved + Math.floor(assembly.budget * options.share) : assembly.budget;
  const waiting: TurnMaterial[] = [];
  let degrading = false;
  for (const [index, material] of window.materials.entries()) {
    const { items, cost } = verbatim(assembly, material, options.countShort);
    if (!degrading && (index === 0 || assembly.used + assembly.costOf('window', cost) <= limit) && assembly.tryAdd('window', items, cost)) continue;
    degrading = true;
    if (options.queryFirst) waiting.push(material);
    else addDegraded(assembly, material, options);
  }
  return waiting;
}

/**
 * A window turn that did not fit verbatim, in the history section in the richest form that fits (the
 * cheapest first with a query, since the room went to the query), or omitted.
 */
export function addDegraded(assembly: Assembly, material: TurnMaterial, options: Pick<WindowOptions, 'countShort' | 'lines' | 'queryFirst'>): void {
  const forms = options.lines.turnOptions(material, options.countShort, { excluded: new Set(), topTier: 2 });
  if (options.queryFirst) forms.reverse();
  if (!forms.some((form) => assembly.tryAdd('history', form.items, form.cost))) {
    assembly.omit(mapPacked(material.messages, (message) => message.id), 'budget: raw window turn did not fit');
  }
}
