/**
 * Long-term memory: what a tenant's assistant should know across sessions ("I'm vegetarian", "staging is
 * eu-west"). A memory is a short value with a compact generated key, an optional human name, the messages
 * it came from, and its history: every change of value is a version saying who made it and why, so any
 * memory can be shown as it was and any change undone. Tags organise memories; typed edges link them.
 * Pure data and the rules for it; no I/O.
 */
import { StrataError } from './errors.js';

/** Who changed a memory: the user, Strata itself, or an agent by name (`agent:linker`). */
export type MemoryAuthor = 'user' | 'system' | `agent:${string}`;

/** How one memory bears on another. */
export const EDGE_TYPES = ['relates-to', 'contradicts', 'supersedes', 'part-of', 'caused-by'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** The longest value a memory holds, in characters. */
export const MAX_MEMORY_VALUE = 500;

/** Messages a memory came from, in one session. */
export interface MemorySource {
  sessionId: string;
  messageIds: string[];
}

export interface LongTermMemory {
  id: string;
  /** Compact and generated when the memory is made (`M1`, `M2` … `M1Z`): unique in the tenant, never reused; never a name (names are lower case). */
  key: string;
  /** A human name unique in the tenant (`mom-birthday`), or null. */
  name: string | null;
  /**
   * What a memory promoted from a session's facts is about (the fact's key as a subject, `hourly-rate`),
   * unique in the tenant: a later statement about it revises this memory rather than making another. Null
   * for a memory made by hand.
   */
  subject: string | null;
  /** At most `MAX_MEMORY_VALUE` characters. */
  value: string;
  /** The number of its current version: 1 when made, one more at each version after (a change of value, a deprecation, an undo). */
  version: number;
  /** Set by an archiver or a person: kept and shown as deprecated, never deleted. */
  deprecated: boolean;
  /** Where it came from, oldest first. */
  sources: MemorySource[];
  createdAt: string;
  /** When its last version was made. */
  modifiedAt: string;
  reviewedAt: string | null;
  tendedAt: string | null;
  accessedAt: string | null;
}

/** A memory as it was from a version on (its value, whether deprecated), and who made the version and why. */
export interface MemoryVersion {
  memoryId: string;
  version: number;
  value: string;
  deprecated: boolean;
  at: string;
  by: MemoryAuthor;
  reason: string;
}

export interface MemoryTag {
  memoryId: string;
  /** Normalised (`normaliseTag`): lower case, words joined by `-`, levels by `/` (`family/birthdays`). */
  tag: string;
  by: MemoryAuthor;
  at: string;
}

export interface MemoryEdge {
  fromId: string;
  toId: string;
  type: EdgeType;
  by: MemoryAuthor;
  at: string;
  reason: string;
}

const AUTHOR = /^(user|system|agent:[a-z0-9][a-z0-9-]{0,63})$/u;
const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/** `by` when it names an author (`user`, `system`, `agent:<name>` in lower case); INVALID_INPUT otherwise. */
export function checkAuthor(by: unknown): MemoryAuthor {
  if (typeof by !== 'string' || !AUTHOR.test(by)) {
    throw new StrataError('INVALID_INPUT', `A memory change is made by "user", "system" or "agent:<name>" (lower-case letters, digits and dashes); got ${JSON.stringify(by)}.`);
  }
  return by as MemoryAuthor;
}

/** The value trimmed, when it holds 1 to `MAX_MEMORY_VALUE` characters; INVALID_INPUT otherwise. */
export function checkMemoryValue(value: unknown): string {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (trimmed === '' || [...trimmed].length > MAX_MEMORY_VALUE || trimmed.includes('\u0000')) {
    throw new StrataError('INVALID_INPUT', `A memory's value is text of 1 to ${String(MAX_MEMORY_VALUE)} characters, without NUL; got ${typeof value === 'string' ? `${String([...trimmed].length)} characters` : typeof value}. Split a longer one into several memories.`);
  }
  return trimmed;
}

/** A memory's name: lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most 100, and not shaped like an id. */
export function checkMemoryName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name) || UUID.test(name)) {
    throw new StrataError('INVALID_INPUT', `A memory's name is 1 to 100 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit, and not shaped like an id (like "mom-birthday"); got ${JSON.stringify(name)}.`);
  }
  return name;
}

/**
 * A tag as stored: trimmed, lower case, runs of spaces and underscores as one `-`, levels split by `/`
 * without empty ones ("Family / Birthdays" → "family/birthdays"). INVALID_INPUT when nothing is left
 * or a level holds anything but letters, digits and `-`.
 */
export function normaliseTag(tag: unknown): string {
  const levels = (typeof tag === 'string' ? tag : '')
    .toLowerCase()
    .split('/')
    .map((level) => level.trim().replace(/[\s_]+/gu, '-').replace(/-+/gu, '-').replace(/^-|-$/gu, ''))
    .filter((level) => level !== '');
  if (levels.length === 0 || levels.some((level) => !/^[\p{L}\p{N}-]{1,64}$/u.test(level))) {
    throw new StrataError('INVALID_INPUT', `A tag is one or more levels of letters, digits and "-" split by "/" (like "family/birthdays"); got ${JSON.stringify(tag)}.`);
  }
  return levels.join('/');
}

/**
 * A word in the singular as memories compare words: a final `s` dropped from words of four letters or more,
 * unless the word ends in `ss`, `us` or `is` ("saturdays" → "saturday", "status" and "glass" kept). Lighter
 * than `stemWord` (core/text.ts), which also cuts "-ing" and "-ed": a memory's subject stays a readable word.
 */
export function singularWord(word: string): string {
  return word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/u.test(word) ? word.slice(0, -1) : word;
}

/** The key of the tenant's `count`-th memory: `M` and the count in base 36, in capitals (so no name is ever a key). */
export function memoryKey(count: number): string {
  return `M${count.toString(36).toUpperCase()}`;
}

export function isEdgeType(type: unknown): type is EdgeType {
  return typeof type === 'string' && (EDGE_TYPES as readonly string[]).includes(type);
}

/**
 * `sources` with `added` joined in: a session already listed gets the message ids it lacks, after its
 * own; a new session goes last. Neither list is changed.
 */
export function mergeSources(sources: readonly MemorySource[], added: readonly MemorySource[]): MemorySource[] {
  const merged = sources.map((source) => ({ sessionId: source.sessionId, messageIds: [...source.messageIds] }));
  for (const source of added) {
    const existing = merged.find((entry) => entry.sessionId === source.sessionId);
    if (existing === undefined) {
      merged.push({ sessionId: source.sessionId, messageIds: [...new Set(source.messageIds)] });
      continue;
    }
    for (const messageId of source.messageIds) if (!existing.messageIds.includes(messageId)) existing.messageIds.push(messageId);
  }
  return merged;
}
