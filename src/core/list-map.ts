/** Maps from a name to a list of values: the lists are made on first use and dropped once empty. */

/** Append `value` to the list under `name`. */
export function addTo<K, T>(map: Map<K, T[]>, name: K, value: T): void {
  const list = map.get(name);
  if (list === undefined) map.set(name, [value]);
  else list.push(value);
}

/** Take `value` out of the list under `name` (the list goes when it is empty). */
export function removeFrom<K, T>(map: Map<K, T[]>, name: K, value: T): void {
  const list = map.get(name);
  if (list === undefined) return;
  const at = list.indexOf(value);
  if (at >= 0) list.splice(at, 1);
  if (list.length === 0) map.delete(name);
}
