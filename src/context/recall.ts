/**
 * Layer 5 of a package: the archive's messages that best match the query. The best hits are shown in
 * full, since the answer to a question is rarely in a message's gist; once the detail share of the room
 * is spent, later hits take their brief form (tier 1), so the room still covers many of them; room left
 * at the end upgrades the brief ones, best first, tier by tier.
 */
import { mapPacked } from '../core/packed-map.js';
import type { Message } from '../core/types.js';
import type { Pause } from '../core/slices.js';
import type { TenantRepositories } from '../store/store.js';
import type { Assembly } from './assembly.js';
import type { TurnCache } from './turn-reader.js';
import type { TurnLines } from './turn-lines.js';
import type { CountShort, Line, TurnMaterial } from './turn-options.js';

/**
 * How the archive is searched for a query: the session's best messages, best first. The lexical index
 * (`searchArchive`) by default; a memory with hybrid recall passes its fused search.
 */
export type RecallSearch = (query: { sessionId: string; query: string; limit: number; maxTurn?: number }) => Promise<ReadonlyArray<{ messageId: string; turn: number }>>;

export interface RecallOptions {
  repositories: TenantRepositories;
  /** How the archive is searched (lexical or hybrid). */
  search: RecallSearch;
  sessionId: string;
  query: string;
  /** Most hits considered. */
  limit: number;
  /** Only messages of turns up to this one (the raw window shows the rest). */
  maxTurn: number;
  /** Most tokens the section may take. */
  reserve: number;
  /** Share of `reserve` in which hits are shown in full. */
  detailShare: number;
  countShort: CountShort;
  /** Where the hits' lines are kept. */
  lines: TurnLines;
  /** A memory's turn cache, which keeps the hits' turns warm between calls (default: read just the hits). */
  turnReader: TurnCache | undefined;
  /** Between the search and reading its hits (see `AssembleContextOptions.pause`). */
  pause: Pause;
}

/** Which messages recall showed, and their turns, so the history does not show them again. */
export interface Recalled {
  ids: Set<string>;
  turns: Set<number>;
  /** The turn of each recalled message. */
  messageTurns: number[];
}

/** The hits' messages, and the turns they were read from when a memory's turn cache gave them. */
async function hitMessages(
  options: RecallOptions,
  hits: ReadonlyArray<{ messageId: string; turn: number }>,
): Promise<{ messages: Map<string, Message>; turns: Map<number, TurnMaterial> }> {
  const { repositories, sessionId, turnReader } = options;
  const messages = new Map<string, Message>();
  if (hits.length === 0) return { messages, turns: new Map() };
  if (turnReader !== undefined) {
    // Turns by number, and only the hits' messages from them: hashing every id costs more.
    const turns = await turnReader.readTurns({ sessionId, turns: mapPacked(hits, (hit) => hit.turn) });
    for (const hit of hits) {
      const message = turns.get(hit.turn)?.messages.find((candidate) => candidate.id === hit.messageId);
      if (message !== undefined) messages.set(message.id, message);
    }
    return { messages, turns };
  }
  for (const message of await repositories.messages.getMany({ sessionId, messageIds: mapPacked(hits, (hit) => hit.messageId) })) messages.set(message.id, message);
  return { messages, turns: new Map() };
}

/** Whether a message asks something: its reply then likely holds the answer the query is after. */
function asks(message: Message): boolean {
  return message.content.includes('?');
}

/** The first message after `message` from someone else: in its turn, else the first of the next turn. */
function replyIn(message: Message, turns: ReadonlyMap<number, TurnMaterial>): Message | null {
  const own = turns.get(message.turn)?.messages ?? [];
  const at = own.findIndex((candidate) => candidate.id === message.id);
  const later = [...own.slice(at + 1), ...(turns.get(message.turn + 1)?.messages ?? [])];
  return later.find((candidate) => (candidate.speaker ?? candidate.role) !== (message.speaker ?? message.role)) ?? null;
}

/**
 * The turns the replies to the asking hits may be in (theirs and the next, up to `maxTurn`: a reply in
 * the window is shown there), adding to `known` those it lacks, read through the cache or from the store.
 */
async function replyTurns(options: RecallOptions, asking: readonly Message[], known: Map<number, TurnMaterial>): Promise<Map<number, TurnMaterial>> {
  const wanted = [...new Set(asking.flatMap((message) => [message.turn, message.turn + 1]))].filter((turn) => turn <= options.maxTurn && !known.has(turn));
  if (wanted.length === 0) return known;
  if (options.turnReader !== undefined) {
    for (const [turn, material] of await options.turnReader.readTurns({ sessionId: options.sessionId, turns: wanted })) known.set(turn, material);
    return known;
  }
  for (const turn of wanted) {
    const messages = await options.repositories.messages.listByTurns({ sessionId: options.sessionId, fromTurn: turn, toTurn: turn });
    if (messages.length > 0) known.set(turn, { turn, summary: null, messages });
  }
  return known;
}

/**
 * The messages to show, best first: each hit, and right after a hit that asks something, its reply
 * (a question matches the query's words, the answer often does not), unless the reply is in the window.
 */
async function candidates(
  options: RecallOptions,
  hits: ReadonlyArray<{ messageId: string }>,
  read: { messages: ReadonlyMap<string, Message>; turns: Map<number, TurnMaterial> },
): Promise<Message[]> {
  const ordered = hits.flatMap((hit) => read.messages.get(hit.messageId) ?? []);
  const turns = await replyTurns(options, ordered.filter(asks), read.turns);
  const seen = new Set<string>();
  const result: Message[] = [];
  for (const message of ordered) {
    const reply = asks(message) ? replyIn(message, turns) : null;
    for (const candidate of reply === null || reply.turn > options.maxTurn ? [message] : [message, reply]) {
      if (seen.has(candidate.id)) continue;
      seen.add(candidate.id);
      result.push(candidate);
    }
  }
  return result;
}

/** Add the recalled section to `assembly`, best hits first, within `reserve` tokens. */
export async function addRecalled(assembly: Assembly, options: RecallOptions): Promise<Recalled> {
  const { sessionId, query, reserve, countShort } = options;
  const recalledIds = new Set<string>();
  const recalledTurns = new Set<number>();
  const hits = await options.search({ sessionId, query, limit: options.limit, maxTurn: options.maxTurn });
  await options.pause();
  const read = await hitMessages(options, hits);
  const recalled: Array<{ message: Message; line: Line }> = [];
  let spent = 0;
  for (const message of await candidates(options, hits, read)) {
    const line = options.lines.messageLine(message, spent < reserve * options.detailShare ? 3 : 1, countShort);
    const cost = assembly.costOf('recalled', line.cost) + assembly.dayCost('recalled', message.sentAt);
    if (spent + cost > reserve || !assembly.fits(cost)) {
      assembly.omit([message.id], 'budget: recall share full');
      continue;
    }
    assembly.add('recalled', [], cost);
    assembly.noteDay('recalled', message.sentAt);
    spent += cost;
    recalled.push({ message, line });
    recalledIds.add(message.id);
    recalledTurns.add(message.turn);
  }
  for (const tier of [2, 3] as const) {
    for (const entry of recalled) {
      if ((entry.line.tier ?? 3) >= tier) continue;
      const richer = options.lines.messageLine(entry.message, tier, countShort);
      const extra = richer.cost - entry.line.cost;
      if ((extra > 0 && spent + extra > reserve) || !assembly.resize(extra)) continue;
      spent += extra;
      entry.line = richer;
    }
  }
  assembly.setItems('recalled', mapPacked(recalled, (entry) => entry.line));
  return { ids: recalledIds, turns: recalledTurns, messageTurns: recalled.map(({ message }) => message.turn) };
}
