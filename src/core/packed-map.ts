/**
 * `items.map(transform)` that always gives a packed array. Once V8 optimises a function, its inlined
 * `Array.prototype.map` creates holey arrays; lists that flow through many optimised functions (tokens,
 * sentences, statements) would then change shape mid-run and throw that optimised code away. Producers
 * of such lists use this instead.
 */
export function mapPacked<T, U>(items: readonly T[], transform: (item: T, index: number) => U): U[] {
  const result: U[] = [];
  for (let index = 0; index < items.length; index += 1) result.push(transform(items[index] as T, index));
  return result;
}
