/**
 * The lines of a turn's document by the words of their keys. A claim can only be about a line whose key
 * shares a word with its own (or holds a value it sets aside), so it is compared with those lines alone:
 * in a long conversation the document holds thousands of lines, and a turn states a few claims.
 */
export class KeyWordIndex {
  private readonly idsByWord = new Map<string, Set<string>>();
  private readonly wordsById = new Map<string, Iterable<string>>();

  /** `wordsOf` gives a key's words, each once (it may give the same collection for the same key). */
  constructor(private readonly wordsOf: (key: string) => Iterable<string>) {}

  /** Index the line `id` under the words of `key` (replacing what it was indexed under). */
  set(id: string, key: string): void {
    if (this.wordsById.has(id)) this.delete(id);
    const words = this.wordsOf(key);
    this.wordsById.set(id, words);
    for (const word of words) {
      let ids = this.idsByWord.get(word);
      if (ids === undefined) {
        ids = new Set();
        this.idsByWord.set(word, ids);
      }
      ids.add(id);
    }
  }

  delete(id: string): void {
    for (const word of this.wordsById.get(id) ?? []) {
      const ids = this.idsByWord.get(word);
      ids?.delete(id);
      // (A kept index must not grow with the words of every line it ever held.)
      if (ids?.size === 0) this.idsByWord.delete(word);
    }
    this.wordsById.delete(id);
  }

  /** Ids of the lines whose key holds one of `words`. */
  idsWith(words: Iterable<string>): Set<string> {
    const found = new Set<string>();
    for (const word of words) for (const id of this.idsByWord.get(word) ?? []) found.add(id);
    return found;
  }

  /** How many lines' keys hold the word. */
  count(word: string): number {
    return this.idsByWord.get(word)?.size ?? 0;
  }

  /** Whether a line's key holds the word. */
  has(word: string): boolean {
    return (this.idsByWord.get(word)?.size ?? 0) > 0;
  }
}
