/**
 * `compute` remembered for up to `maxEntries` keys. When full, everything is forgotten at once: the
 * texts these memos serve (fact lines, words, package lines) recur turn after turn, so a cleared memo
 * fills again with what is in use. `storedKey` gives the key kept for a new entry (default: the key).
 */
export function boundedMemo<K, V>(compute: (key: K) => V, maxEntries: number, storedKey?: (key: K) => K): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    const found = values.get(key);
    if (found !== undefined || values.has(key)) return found as V;
    const value = compute(key);
    if (values.size >= maxEntries) values.clear();
    values.set(storedKey === undefined ? key : storedKey(key), value);
    return value;
  };
}
