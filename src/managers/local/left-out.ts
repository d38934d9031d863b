/**
 * What a turn knows of the facts outside its working facts (`working-facts.ts`): their keys, which a new
 * line never takes, and their keys' subject words, which a claim may still be about. A session's
 * document keeps a count of every key and subject word, brought up to date from one turn to the next
 * like its lines, so a turn asks the counts instead of listing thousands of left-out facts again.
 */
import { inSlices } from '../../core/slices.js';
import type { Fact } from '../../core/types.js';
import { subjectWords } from './claim-target.js';
import { changesFrom } from './document-walk.js';

/** How many of the turn's working lines have a key, or a subject word in their key (a `BaseLines`' indexes). */
interface WorkingCounts {
  indexes: { key: { count(word: string): number }; subject: { count(word: string): number } };
}

export interface LeftOut {
  /** Whether a fact outside the work has this (normalised) key. */
  hasKey(key: string): boolean;
  /** Whether the key of a fact outside the work holds this subject word. */
  hasWord(word: string): boolean;
}

export const NOTHING_LEFT_OUT: LeftOut = { hasKey: () => false, hasWord: () => false };

/** From the facts themselves: those of `facts` not in `working` (a turn without a kept document). */
export function leftOutOf(facts: readonly Fact[], working: readonly Fact[]): LeftOut {
  const kept = new Set(working);
  const keys = new Set<string>();
  for (const fact of facts) if (!kept.has(fact)) keys.add(fact.key);
  let words: Set<string> | undefined;
  return {
    hasKey: (key) => keys.has(key),
    hasWord: (word) => {
      words ??= new Set([...keys].flatMap((key) => [...subjectWords(key)]));
      return words.has(word);
    },
  };
}

function bump(counts: Map<string, number>, name: string, by: number): void {
  const next = (counts.get(name) ?? 0) + by;
  if (next === 0) counts.delete(name);
  else counts.set(name, next);
}

/** How many facts of a session's whole document have each key and each subject word in their key. */
export class DocumentKeys {
  private readonly keys = new Map<string, number>();
  private readonly words = new Map<string, number>();
  /** The key each fact was counted under. */
  private readonly keyOf = new Map<string, string>();
  private synced: readonly Fact[] = [];

  constructor(facts: readonly Fact[]) {
    for (const fact of facts) this.count(fact);
    this.synced = facts;
  }

  /** The counts of `facts`, made `perSlice` facts at a time (the caller may let other work run at each step). */
  static *inSlices(facts: readonly Fact[], perSlice: number): Generator<void, DocumentKeys, void> {
    const keys = new DocumentKeys([]);
    yield* inSlices(facts, perSlice, (fact) => keys.count(fact));
    keys.synced = facts;
    return keys;
  }

  /** Count `facts` instead; false when they are in another order than before (the caller then counts them afresh). */
  sync(facts: readonly Fact[]): boolean {
    const changes = changesFrom(this.synced, facts, (id) => this.keyOf.has(id), false);
    if (changes === null) return false;
    for (const fact of changes.gone) this.uncount(fact.id);
    for (const fact of [...changes.changed, ...changes.added]) {
      this.uncount(fact.id);
      this.count(fact);
    }
    this.synced = facts;
    return true;
  }

  /** What the facts outside `base` (the turn's working facts, a subset of the document) hold. */
  outside(base: WorkingCounts): LeftOut {
    return {
      hasKey: (key) => (this.keys.get(key) ?? 0) > base.indexes.key.count(key),
      hasWord: (word) => (this.words.get(word) ?? 0) > base.indexes.subject.count(word),
    };
  }

  private count(fact: Fact): void {
    this.keyOf.set(fact.id, fact.key);
    bump(this.keys, fact.key, 1);
    for (const word of subjectWords(fact.key)) bump(this.words, word, 1);
  }

  private uncount(id: string): void {
    const key = this.keyOf.get(id);
    if (key === undefined) return;
    this.keyOf.delete(id);
    bump(this.keys, key, -1);
    for (const word of subjectWords(key)) bump(this.words, word, -1);
  }
}
