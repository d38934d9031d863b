/**
 * `items.map(transform)` that always gives a packed array. Once V8 optimises a function, its inlined
 * `Array.prototype.map` creates holey arrays (and `flatMap` always does); lists that flow through many
 * optimised functions (tokens, sentences, statements) would then change shape mid-run and throw that
 * optimised code away. The per-turn and per-package code maps such lists with this, a list that is
 * only joined included (the optimised caller checks the list's shape before `join`); a list handed
 * straight to `new Set`/`new Map`, or returned to the caller, needs no care.
 */
export function mapPacked<T, U>(items: readonly T[], transform: (item: T, index: number) => U): U[] {
  const result: U[] = [];
  for (let index = 0; index < items.length; index += 1) result.push(transform(items[index] as T, index));
  return result;
}
