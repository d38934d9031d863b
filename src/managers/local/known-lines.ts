/**
 * The lines a turn's claims are compared with: the document's facts (a base kept from one turn of a
 * session to the next, brought up to date with what changed) and, over it, what the turn itself adds,
 * rewrites and drops. Lines are found by the words of their keys, so a turn's work depends on what it
 * says, not on how long the document has grown; the base is never changed by a turn.
 */
import { indexingSlices } from '../../core/fact-index.js';
import { inSlices } from '../../core/slices.js';
import type { Fact } from '../../core/types.js';
import { contentStems } from './claim-doubt.js';
import { subjectWords } from './claim-target.js';
import type { Known } from './known-line.js';
import { KeyWordIndex } from './known-index.js';
import { changesFrom } from './document-walk.js';
import { DocumentKeys } from './left-out.js';
import { workingSet } from './working-facts.js';

/** Which words of a key an index holds: its subject words, the whole key, or its content stems. */
export type KeyIndexName = 'subject' | 'key' | 'stem';

class LineIndexes {
  readonly subject = new KeyWordIndex(subjectWords);
  readonly key = new KeyWordIndex((key) => [key]);
  readonly stem = new KeyWordIndex(contentStems);

  set(entry: Known): void {
    this.subject.set(entry.id, entry.key);
    this.key.set(entry.id, entry.key);
    this.stem.set(entry.id, entry.key);
  }

  delete(id: string): void {
    this.subject.delete(id);
    this.key.delete(id);
    this.stem.delete(id);
  }
}

const lineOf = (fact: Fact): Known => ({ id: `fact:${fact.id}`, key: fact.key, text: fact.text, kind: fact.kind, factId: fact.id, order: fact.updatedTurn, sources: fact.sourceMessageIds });

const sameSources = (line: Known, fact: Fact): boolean => {
  const sources = line.sources ?? [];
  return sources === fact.sourceMessageIds || (sources.length === fact.sourceMessageIds.length && sources.every((source, index) => source === fact.sourceMessageIds[index]));
};

const same = (line: Known, fact: Fact): boolean =>
  line.key === fact.key && line.text === fact.text && line.kind === fact.kind && line.order === fact.updatedTurn && sameSources(line, fact);

/** A document's facts as lines, indexed; kept for a session and brought up to date each turn. */
export class BaseLines {
  readonly lines = new Map<string, Known>();
  readonly positions = new Map<string, number>();
  /** The lines by their facts' ids. */
  private readonly byFact = new Map<string, Known>();
  readonly indexes = new LineIndexes();
  private last = 0;
  /** The facts the lines were last made from. */
  private synced: readonly Fact[];

  constructor(facts: readonly Fact[]) {
    for (const fact of facts) this.append(lineOf(fact));
    this.synced = facts;
  }

  /** The base of `facts`, made `perSlice` facts at a time (the caller may let other work run at each step). */
  static *inSlices(facts: readonly Fact[], perSlice: number): Generator<void, BaseLines, void> {
    const base = new BaseLines([]);
    yield* inSlices(facts, perSlice, (fact) => base.append(lineOf(fact)));
    base.synced = facts;
    return base;
  }

  /** The positions after every line of the base. */
  get end(): number {
    return this.last;
  }

  /**
   * Make the base the lines of `facts`, in their order: unchanged lines stay, changed ones are
   * re-indexed, gone ones dropped, new ones appended (see `changesFrom` for how the facts are compared).
   * When they come in another order (a turn's working set takes in an older fact established again, in
   * its place in the document), the lines are put in the new order as a base made of `facts` would hold
   * them, and only new and changed lines are indexed again. Always true: the base is never made afresh.
   */
  sync(facts: readonly Fact[]): boolean {
    const changes = changesFrom(this.synced, facts, (id) => this.byFact.has(id), true);
    if (changes === null) {
      this.reorder(facts);
      return true;
    }
    for (const fact of changes.gone) {
      const line = this.byFact.get(fact.id);
      if (line !== undefined) this.remove(line.id, fact.id);
    }
    for (const fact of changes.changed) {
      const line = this.byFact.get(fact.id);
      if (line === undefined || !same(line, fact)) this.replace(lineOf(fact));
    }
    for (const fact of changes.added) this.append(lineOf(fact));
    this.synced = facts;
    return true;
  }

  /** The lines of `facts` in their order, numbered from 1 as a new base numbers them; unchanged lines keep their index entries. */
  private reorder(facts: readonly Fact[]): void {
    const present = new Set(facts.map((fact) => fact.id));
    for (const [factId, line] of [...this.byFact]) if (!present.has(factId)) this.remove(line.id, factId);
    this.lines.clear();
    this.positions.clear();
    this.last = 0;
    for (const fact of facts) {
      const kept = this.byFact.get(fact.id);
      if (kept === undefined || !same(kept, fact)) {
        // (Indexing a line again replaces what it was indexed under.)
        this.append(lineOf(fact));
        continue;
      }
      this.last += 1;
      this.positions.set(kept.id, this.last);
      this.lines.set(kept.id, kept);
    }
    this.synced = facts;
  }

  private append(line: Known): void {
    this.last += 1;
    this.positions.set(line.id, this.last);
    this.replace(line);
  }

  private replace(line: Known): void {
    this.lines.set(line.id, line);
    if (line.factId !== null) this.byFact.set(line.factId, line);
    this.indexes.set(line);
  }

  private remove(id: string, factId: string): void {
    this.lines.delete(id);
    this.byFact.delete(factId);
    this.positions.delete(id);
    this.indexes.delete(id);
  }
}

/** The base's lines with the turn's changes over them; iterated in the order a map of them would keep. */
export class KnownLines {
  /** Lines the turn wrote (or dropped: null), by id. */
  private readonly changed = new Map<string, Known | null>();
  /** Positions of the lines the turn added, after the base's. */
  private readonly addedPositions = new Map<string, number>();
  private readonly indexes = new LineIndexes();
  private last: number;

  constructor(private readonly base: BaseLines) {
    this.last = base.end;
  }

  get(id: string): Known | undefined {
    return this.changed.has(id) ? (this.changed.get(id) ?? undefined) : this.base.lines.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  *values(): IterableIterator<Known> {
    for (const [id, line] of this.base.lines) {
      if (this.addedPositions.has(id)) continue;
      const current = this.changed.has(id) ? this.changed.get(id) : line;
      if (current !== null && current !== undefined) yield current;
    }
    for (const id of this.addedPositions.keys()) {
      const line = this.changed.get(id);
      if (line !== null && line !== undefined) yield line;
    }
  }

  /** Write a line in place of the one under its id (a new id goes last). */
  set(line: Known): void {
    if (!this.has(line.id)) {
      // (A line dropped and written again goes last, as in a map.)
      this.addedPositions.delete(line.id);
      this.addedPositions.set(line.id, (this.last += 1));
    }
    this.changed.set(line.id, line);
    this.indexes.set(line);
  }

  delete(id: string): void {
    this.changed.set(id, null);
    this.addedPositions.delete(id);
    this.indexes.delete(id);
  }

  /** Whether a line's key holds the word, by the index. */
  hasWord(index: KeyIndexName, word: string): boolean {
    if (this.indexes[index].has(word)) return true;
    for (const id of this.base.indexes[index].idsWith([word])) if (!this.changed.has(id)) return true;
    return false;
  }

  /** Whether a line of the document as it was before the turn has a key holding the word. */
  inBase(index: KeyIndexName, word: string): boolean {
    return this.base.indexes[index].has(word);
  }

  /** The lines whose keys hold one of the words (or is one of `keys`), by the index, in order. */
  withWords(index: KeyIndexName, words: Iterable<string>, keys: readonly string[] = []): Known[] {
    const found = new Map<string, Known>();
    this.collect(index, [...words], found);
    if (keys.length > 0) this.collect('key', keys, found);
    return [...found.values()].sort((a, b) => this.positionOf(a.id) - this.positionOf(b.id));
  }

  /** Add to `found` the current lines whose keys hold one of the words, by the index. */
  private collect(index: KeyIndexName, words: readonly string[], found: Map<string, Known>): void {
    for (const id of this.base.indexes[index].idsWith(words)) {
      const line = this.base.lines.get(id);
      if (line !== undefined && !this.changed.has(id)) found.set(id, line);
    }
    for (const id of this.indexes[index].idsWith(words)) {
      const line = this.changed.get(id);
      if (line !== null && line !== undefined) found.set(id, line);
    }
  }

  private positionOf(id: string): number {
    return this.addedPositions.get(id) ?? this.base.positions.get(id) ?? 0;
  }
}

/** Something kept per session and brought up to a document, or false when it must be made afresh. */
interface Synced {
  sync(facts: readonly Fact[]): boolean;
}

/** Keep `value` as the session's, the most recent of at most `max`. */
function keep<T>(kept: Map<string, T>, sessionId: string, value: T, max: number): T {
  kept.delete(sessionId);
  kept.set(sessionId, value);
  const oldest = kept.size > max ? kept.keys().next().value : undefined;
  if (oldest !== undefined) kept.delete(oldest);
  return value;
}

/** The session's `T` from `kept` brought up to `facts` (or made afresh), kept as the most recent of at most `max`. */
function syncedFor<T extends Synced>(kept: Map<string, T>, sessionId: string, facts: readonly Fact[], make: (facts: readonly Fact[]) => T, max: number): T {
  const value = kept.get(sessionId);
  return keep(kept, sessionId, value !== undefined && value.sync(facts) ? value : make(facts), max);
}

/** Facts taken into a base or key counts in one slice of `BaseLinesCache.preparing`. */
const FACTS_PER_SLICE = 2_000;

/** The bases of the sessions a manager worked on last (a few: a base is as large as its document), and their documents' key counts. */
export class BaseLinesCache {
  private readonly bases = new Map<string, BaseLines>();
  private readonly keys = new Map<string, DocumentKeys>();

  constructor(private readonly maxSessions = 8) {}

  /** The session's base brought up to `facts`, or a new one when there is none or the facts were reordered. */
  lookup(sessionId: string, facts: readonly Fact[]): BaseLines {
    return syncedFor(this.bases, sessionId, facts, (all) => new BaseLines(all), this.maxSessions);
  }

  /**
   * Make what a turn of the session needs of its document when nothing is kept for it (the document's
   * index, the base of its working facts, the key counts of the rest) a slice of facts at a time, so the
   * caller can let other work run between slices: the first turn of a 10,000-fact session in a process
   * spent about half a second on them in one go. Nothing to do when the session's base is kept or the
   * document is small; the turn then brings what is kept up to date itself (`lookup`, `documentKeys`).
   */
  *preparing(sessionId: string, facts: readonly Fact[], workingLimit: number): Generator<void, void, void> {
    if (this.bases.has(sessionId) || facts.length <= FACTS_PER_SLICE) return;
    yield* indexingSlices(facts);
    const { working, partial } = workingSet(facts, workingLimit);
    keep(this.bases, sessionId, yield* BaseLines.inSlices(working, FACTS_PER_SLICE), this.maxSessions);
    if (partial) keep(this.keys, sessionId, yield* DocumentKeys.inSlices(facts, FACTS_PER_SLICE), this.maxSessions);
  }

  /** The key counts of the session's whole document, brought up to `facts`. */
  documentKeys(sessionId: string, facts: readonly Fact[]): DocumentKeys {
    return syncedFor(this.keys, sessionId, facts, (all) => new DocumentKeys(all), this.maxSessions);
  }
}
