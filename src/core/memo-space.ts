/**
 * Memos bounded in bytes. A `MemoSpace` is one bound shared by several memos: when their entries together
 * pass it, the oldest entries of the memo holding the most bytes go first, so the space stays full of
 * what was computed last and never grows past its bound, however long the history it serves.
 *
 * Text analysis keeps its memos in the space of the work that is running (`space.run(work)`): the engine
 * and each memory manager own a space, sized by configuration, and run their synchronous work in it, so
 * two engines in one process never share a cache. Work outside any space uses a small one of the process.
 */

import { StrataError } from './errors.js';

/** What an entry costs besides its key and value: the map's slot and the entry object, about. */
const ENTRY_OVERHEAD = 64;

/** Bytes of a string in V8, about: a header and up to two bytes per character. */
export function stringBytes(text: string): number {
  return 16 + 2 * text.length;
}

/** Bytes a value holds, about, counting what it reaches up to three levels down (shared parts count each time). */
export function approximateBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number' || typeof value === 'bigint') return 16;
  if (typeof value !== 'object' || value === null) return 0;
  if (depth >= 3) return 32;
  let total: number;
  if (value instanceof Set) {
    total = 64;
    for (const item of value) total += 24 + approximateBytes(item, depth + 1);
  } else if (value instanceof Map) {
    total = 64;
    for (const [key, item] of value) total += 32 + approximateBytes(key, depth + 1) + approximateBytes(item, depth + 1);
  } else if (Array.isArray(value)) {
    total = 32;
    for (const item of value as unknown[]) total += 8 + approximateBytes(item, depth + 1);
  } else {
    total = 24;
    for (const item of Object.values(value)) total += 8 + approximateBytes(item, depth + 1);
  }
  return total;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

/** One memo's entries in a space, oldest first, and their bytes. */
export class MemoTable {
  readonly entries = new Map<string, Entry<unknown>>();
  bytes = 0;
}

/** How a memo's entries are weighed and kept. */
export interface MemoOptions<V> {
  /** Bytes of a computed value (default `approximateBytes`). */
  sizeOf?: (value: V) => number;
  /** The key to keep for a new entry (default the key itself), e.g. a copy that holds no larger string alive. */
  storedKey?: (key: string) => string;
}

export class MemoSpace {
  private readonly tables: MemoTable[] = [];
  private used = 0;

  /** @param maxBytes the bound, in bytes, of all this space's memos together. */
  constructor(readonly maxBytes: number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) {
      throw new StrataError('INVALID_CONFIG', `A cache's size must be a number of bytes, 0 or more (got ${String(maxBytes)}); fix cacheBytes or STRATA_CACHE_MB.`);
    }
  }

  /** Bytes held now, about. */
  get bytes(): number {
    return this.used;
  }

  /** Forget every entry. */
  clear(): void {
    for (const table of this.tables) {
      table.entries.clear();
      table.bytes = 0;
    }
    this.used = 0;
  }

  /** Run `work` with this space as the one `scopedMemo`s keep their entries in. `work` must be synchronous. */
  run<T>(work: () => T): T {
    return runIn(this, work);
  }

  /** A memo of `compute` whose entries live in this space. */
  memo<V>(compute: (key: string) => V, options: MemoOptions<V> = {}): (key: string) => V {
    const table = this.table();
    return (key) => this.lookup(table, key, compute, options);
  }

  /** A new table of this space, for one memo's entries. */
  table(): MemoTable {
    const table = new MemoTable();
    this.tables.push(table);
    return table;
  }

  /** `compute(key)`, remembered in `table` (one of this space's, from `table()`). */
  lookup<V>(table: MemoTable, key: string, compute: (key: string) => V, options: MemoOptions<V>): V {
    const found = table.entries.get(key);
    if (found !== undefined) return found.value as V;
    const value = compute(key);
    const bytes = ENTRY_OVERHEAD + stringBytes(key) + (options.sizeOf ?? approximateBytes)(value);
    if (bytes > this.maxBytes) return value;
    table.entries.set(options.storedKey === undefined ? key : options.storedKey(key), { value, bytes });
    table.bytes += bytes;
    this.used += bytes;
    if (this.used > this.maxBytes) this.evict();
    return value;
  }

  /** Drop the oldest entries of the fullest table until the space is within its bound. */
  private evict(): void {
    while (this.used > this.maxBytes) {
      let fullest = this.tables[0];
      for (const table of this.tables) if (fullest === undefined || table.bytes > fullest.bytes) fullest = table;
      if (fullest === undefined) return;
      for (const [key, entry] of fullest.entries) {
        fullest.entries.delete(key);
        fullest.bytes -= entry.bytes;
        this.used -= entry.bytes;
        if (this.used <= this.maxBytes) break;
      }
    }
  }
}

/** The space of work run outside any other: 4 MiB. */
const PROCESS_SPACE = new MemoSpace(4 * 1024 * 1024);

let running: MemoSpace = PROCESS_SPACE;

function runIn<T>(space: MemoSpace, work: () => T): T {
  const previous = running;
  running = space;
  try {
    return work();
  } finally {
    running = previous;
  }
}

/**
 * A memo whose entries live in the space of the work running when it is called (`MemoSpace.run`), or in
 * the process's small space outside any. For module-level analysis functions shared by several engines.
 */
export function scopedMemo<V>(compute: (key: string) => V, options: MemoOptions<V> = {}): (key: string) => V {
  const tables = new WeakMap<MemoSpace, MemoTable>();
  return (key) => {
    const space = running;
    let table = tables.get(space);
    if (table === undefined) {
      table = space.table();
      tables.set(space, table);
    }
    return space.lookup(table, key, compute, options);
  };
}
