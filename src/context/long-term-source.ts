/**
 * The `long-term` section of a package: what the tenant's long-term memory holds that bears on this
 * conversation now (the query, or else the user's newest message), from its other conversations. It has
 * its own share of the budget and comes after the pinned exceptions, before the session's own facts; each
 * line names its memory's key and why it is here, and carries the messages it came from. Memories that
 * did not fit are listed as omitted.
 */
import type { Assembly } from './assembly.js';
import type { ContextItem } from './context-package.js';
import type { CountShort } from './turn-options.js';

/** A long-term memory as a package shows it. */
export interface LongTermLine {
  id: string;
  key: string;
  value: string;
  /** Why it is relevant, in a few words. */
  reason: string;
  sourceMessageIds: string[];
  /** When it last changed. */
  modifiedAt: string;
}

/** Where a package's long-term lines come from (a memory's recall), and where it reports those it showed. */
export interface LongTermSource {
  /** Memories relevant to `query`, best first (none from this session alone: its facts are its own). */
  find(query: string): Promise<LongTermLine[]>;
  /** The memories the package shows (their last accessed time is set). */
  shown(ids: readonly string[]): Promise<void>;
}

export interface LongTermOptions {
  source: LongTermSource;
  query: string;
  /** Tokens the section may take. */
  room: number;
  countShort: CountShort;
}

function itemOf(line: LongTermLine, countShort: CountShort): ContextItem {
  const text = `- ${line.key}: ${line.value} (${line.reason})`;
  return { text, tokens: countShort(text) + 1, sourceMessageIds: line.sourceMessageIds, kind: 'memory', turn: null, date: line.modifiedAt, tier: null, factKind: null, role: null };
}

/**
 * Add the relevant memories that fit the room, best first; the rest are omitted (by key: their messages
 * belong to other conversations). Gives the memory id of each line added, by its text, for `markShown`.
 */
export async function addLongTerm(assembly: Assembly, options: LongTermOptions): Promise<Map<string, string>> {
  const { source, query, countShort } = options;
  const placed = new Map<string, string>();
  if (query.trim() === '' || options.room <= 0) return placed;
  const lines = await source.find(query);
  const limit = assembly.used + options.room;
  for (const line of lines) {
    const item = itemOf(line, countShort);
    const cost = assembly.costOf('long-term', item.tokens);
    if (assembly.used + cost <= limit && assembly.tryAdd('long-term', [item], item.tokens)) placed.set(item.text, line.id);
    else assembly.omit([], `long-term memory ${line.key} did not fit the section's share of the budget`);
  }
  return placed;
}

/** Tell the source which memories the finished package shows (a line trimmed at the end was not shown). */
export async function markShown(source: LongTermSource, sections: ReadonlyArray<{ name: string; items: ReadonlyArray<{ text: string }> }>, placed: ReadonlyMap<string, string>): Promise<void> {
  if (placed.size === 0) return;
  const items = sections.find((section) => section.name === 'long-term')?.items ?? [];
  const ids = items.flatMap((item) => placed.get(item.text) ?? []);
  if (ids.length > 0) await source.shown(ids);
}
