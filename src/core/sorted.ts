/** Lookups in lists kept in ascending order. */

/** The first index of an ascending list whose value passes `reached` (the length when none does): a binary search. */
export function firstIndex<T>(values: readonly T[], reached: (value: T) => boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (reached(values[middle] as T)) high = middle;
    else low = middle + 1;
  }
  return low;
}
