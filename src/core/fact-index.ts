/**
 * An index of a fact document for the lookups a diff makes: a fact by id, the facts with a key, the
 * first fact with a normalised text, and the fact a key refers to (what `matchFact` finds), worked out
 * from the facts sharing a word with the key instead of from every fact. A document's index is built
 * once and then goes with it: applying a diff takes the index of the facts it starts from (`takeIndex`)
 * and hands it, changed, to the facts it returns (`giveIndex`), so a turn's work follows its diff, not
 * the length of the document.
 */
import { FactRecency } from './fact-recency.js';
import { inSlices } from './slices.js';
import { addTo, removeFrom } from './list-map.js';
import { compareText, normalizeText, words } from './text.js';
import type { Fact, FactKind } from './types.js';

interface Entry {
  fact: Fact;
  /** Order in the document: later facts have higher positions. */
  position: number;
  /** The distinct words of the key and of the text. */
  keyWords: readonly string[];
  textWords: readonly string[];
  normalizedText: string;
}

const distinctWords = (text: string): string[] => [...new Set(words(text))];

/** The earliest of some entries in the document. */
function earliest(entries: readonly Entry[] | undefined): Entry | undefined {
  let first: Entry | undefined;
  for (const entry of entries ?? []) if (first === undefined || entry.position < first.position) first = entry;
  return first;
}

/** The order a store lists facts in: by the turn they were created in, then by id. */
export const storeOrder = (a: Fact, b: Fact): number => a.createdTurn - b.createdTurn || compareText(a.id, b.id);

export class FactIndex {
  /** By fact id, in document order (a changed fact keeps its place; a new one goes last). */
  private readonly entries = new Map<string, Entry>();
  private readonly byKey = new Map<string, Entry[]>();
  private readonly byText = new Map<string, Entry[]>();
  /** The entries whose key (or text) holds a word, by the word. */
  private readonly keyPostings = new Map<string, Entry[]>();
  private readonly textPostings = new Map<string, Entry[]>();
  private readonly recency = new FactRecency();
  private nextPosition = 0;
  /** Whether the document order is the store's: kept up as facts are added, so no pass over the facts checks it. */
  private ordered = true;
  /** A fact no other sorts after in the store's order (one removed since still bounds the rest). */
  private last: Fact | undefined;

  constructor(facts: readonly Fact[]) {
    for (const fact of facts) this.set(fact);
  }

  /** Whether the facts, in document order, are in the order a store lists them. */
  get inStoreOrder(): boolean {
    return this.ordered;
  }

  /** The facts in document order. */
  facts(): Fact[] {
    const facts: Fact[] = [];
    for (const entry of this.entries.values()) facts.push(entry.fact);
    return facts;
  }

  /** Put `fact` in the place of the fact with its id, or last when there is none. */
  set(fact: Fact): void {
    const old = this.entries.get(fact.id);
    if (old !== undefined) this.unindex(old);
    if (old === undefined ? this.last !== undefined && storeOrder(this.last, fact) > 0 : old.fact.createdTurn !== fact.createdTurn) this.ordered = false;
    if (old === undefined) this.last = fact;
    // (The text is normalised once, for its words too: `words` is its normalised form split.)
    const normalizedText = normalizeText(fact.text);
    const entry: Entry = {
      fact,
      position: old?.position ?? this.nextPosition++,
      keyWords: distinctWords(fact.key),
      textWords: normalizedText === '' ? [] : [...new Set(normalizedText.split(' '))],
      normalizedText,
    };
    this.entries.set(fact.id, entry);
    addTo(this.byKey, fact.key, entry);
    addTo(this.byText, entry.normalizedText, entry);
    for (const word of entry.keyWords) addTo(this.keyPostings, word, entry);
    for (const word of entry.textWords) addTo(this.textPostings, word, entry);
    this.recency.add(entry);
  }

  delete(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.unindex(entry);
    this.entries.delete(id);
  }

  /** The first fact in the document whose normalised text is `normalized`. */
  withText(normalized: string): Fact | undefined {
    return earliest(this.byText.get(normalized))?.fact;
  }

  /** The facts whose key is `key`, in no particular order. */
  withKey(key: string): Fact[] {
    return (this.byKey.get(key) ?? []).map((entry) => entry.fact);
  }

  /**
   * The fact `key` refers to, as `matchFact` finds it in the document (leaving out the fact `except`):
   * one with exactly the normalised key (the newest), else the one whose key or text is most similar,
   * at least `threshold`.
   */
  match(key: string, threshold: number, except?: string): Fact | undefined {
    const normalized = normalizeText(key);
    if (normalized === '') return undefined;
    const exact = (this.byKey.get(normalized) ?? []).filter((entry) => entry.fact.id !== except);
    if (exact.length > 0) return newestOf(exact.map((entry) => entry.fact));
    const query = distinctWords(normalized);
    const shared = new Map<Entry, { key: number; text: number }>();
    const count = (postings: Map<string, Entry[]>, field: 'key' | 'text'): void => {
      for (const word of query) {
        for (const entry of postings.get(word) ?? []) {
          const counts = shared.get(entry) ?? { key: 0, text: 0 };
          counts[field] += 1;
          shared.set(entry, counts);
        }
      }
    };
    count(this.keyPostings, 'key');
    count(this.textPostings, 'text');
    let best: Entry | undefined;
    let bestScore = threshold;
    // A fact sharing no word with the key scores 0: with a threshold of 0 or less every fact takes part.
    const candidates: Iterable<[Entry, { key: number; text: number }]> = threshold > 0 ? shared : [...this.entries.values()].map((entry) => [entry, shared.get(entry) ?? { key: 0, text: 0 }]);
    for (const [entry, counts] of candidates) {
      if (entry.fact.id === except) continue;
      // Sørensen–Dice over word sets, as `wordSimilarity` computes it.
      const score = Math.max(dice(counts.key, query.length, entry.keyWords.length), dice(counts.text, query.length, entry.textWords.length));
      // Of equal scores, the earliest fact in the document.
      if (score > bestScore || (score === bestScore && (best === undefined || entry.position < best.position))) {
        best = entry;
        bestScore = score;
      }
    }
    return best?.fact;
  }

  private unindex(entry: Entry): void {
    removeFrom(this.byKey, entry.fact.key, entry);
    removeFrom(this.byText, entry.normalizedText, entry);
    for (const word of entry.keyWords) removeFrom(this.keyPostings, word, entry);
    for (const word of entry.textWords) removeFrom(this.textPostings, word, entry);
    this.recency.remove(entry);
  }

  /** See `FactRecency.recent`: the facts of some kinds and the others last established, or null while all fit. */
  recent(always: readonly FactKind[], limit: number): Fact[] | null {
    return this.recency.recent(always, limit);
  }
}

function dice(shared: number, left: number, right: number): number {
  return left === 0 || right === 0 ? 0 : (2 * shared) / (left + right);
}

/** The most recently updated of several facts (by id on a tie). */
export function newestOf(facts: readonly Fact[]): Fact | undefined {
  let newest: Fact | undefined;
  for (const fact of facts) {
    if (newest === undefined || fact.updatedTurn > newest.updatedTurn || (fact.updatedTurn === newest.updatedTurn && compareText(fact.id, newest.id) < 0)) newest = fact;
  }
  return newest;
}

/** The index that goes with a fact list: facts lists are never changed in place, so an index stays true to its list. */
const indexes = new WeakMap<readonly Fact[], FactIndex>();

/** The index of `facts`, taken away from it (to be changed and given to the list it becomes), or a new one. */
export function takeIndex(facts: readonly Fact[]): FactIndex {
  const index = indexes.get(facts);
  indexes.delete(facts);
  return index ?? new FactIndex(facts);
}

/** The index that goes with `facts`, made (and kept with them) when they have none. */
export function indexOf(facts: readonly Fact[]): FactIndex {
  let index = indexes.get(facts);
  if (index === undefined) {
    index = new FactIndex(facts);
    indexes.set(facts, index);
  }
  return index;
}

/** Facts indexed in one slice of `indexingSlices`. */
const INDEXED_PER_SLICE = 2_000;

/**
 * Make the index of `facts` (the one `indexOf` then finds) a slice of facts at a time, so the caller can
 * let other work run between slices: a document of 10,000 facts took about a quarter of a second to
 * index in one go. Nothing to do when the facts have an index already or are few.
 */
export function* indexingSlices(facts: readonly Fact[]): Generator<void, void, void> {
  if (indexes.has(facts) || facts.length <= INDEXED_PER_SLICE) return;
  const index = new FactIndex([]);
  yield* inSlices(facts, INDEXED_PER_SLICE, (fact) => index.set(fact));
  // (An index made meanwhile, by work that could not wait, stands.)
  if (!indexes.has(facts)) indexes.set(facts, index);
}

/** Let `facts` keep `index`, which must list exactly them, in their order. */
export function giveIndex(facts: readonly Fact[], index: FactIndex): void {
  indexes.set(facts, index);
}

/** The facts `index` lists, as a new list that keeps the index (see `giveIndex`). */
export function listWithIndex(index: FactIndex): Fact[] {
  const facts = index.facts();
  giveIndex(facts, index);
  return facts;
}

/** Whether `facts` are known to be in the order a store lists them, from their index (false: not known). */
export function knownInStoreOrder(facts: readonly Fact[]): boolean {
  return indexes.get(facts)?.inStoreOrder === true;
}

/** Find the fact a key refers to: exact normalised key first (the newest), then the most similar key or text. */
export function matchFact(facts: readonly Fact[], key: string, threshold = 0.6): Fact | undefined {
  return new FactIndex(facts).match(key, threshold);
}

/**
 * `facts` with some replaced (by id, in place) and some taken out, in their order; the index of `facts`
 * goes with the result, changed the same way.
 */
export function withChanges(facts: readonly Fact[], upserts: readonly Fact[], removedIds: readonly string[]): Fact[] {
  const index = takeIndex(facts);
  for (const id of removedIds) index.delete(id);
  for (const fact of upserts) index.set(fact);
  return listWithIndex(index);
}
