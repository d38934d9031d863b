/**
 * Long synchronous work cut into slices, so whoever runs it can let other work in between them: a
 * generator that yields after each slice, and a way to run one with a pause after each.
 */

/** Lets other work run between two steps of a long operation (a memory passes a turn of the event loop). */
export type Pause = () => Promise<void>;

/** No pause: the steps run straight through. */
export const NO_PAUSE: Pause = async () => undefined;

/** Call `each` on every item in order, yielding after every `perSlice` of them. */
export function* inSlices<T>(items: readonly T[], perSlice: number, each: (item: T) => void): Generator<void, void, void> {
  for (let start = 0; start < items.length; start += perSlice) {
    const end = Math.min(items.length, start + perSlice);
    for (let at = start; at < end; at += 1) each(items[at] as T);
    yield;
  }
}

/** Map `items` in order (a packed list, see `mapPacked`), yielding after every `perSlice` of them. */
export function* mappingInSlices<T, U>(items: readonly T[], perSlice: number, transform: (item: T, index: number) => U): Generator<void, U[], void> {
  const result: U[] = [];
  for (let index = 0; index < items.length; index += 1) {
    result.push(transform(items[index] as T, index));
    if ((index + 1) % perSlice === 0 && index + 1 < items.length) yield;
  }
  return result;
}

/** Run `slices` to its end at once, with no pause between them; its result. */
export function finish<T>(slices: Generator<void, T, void>): T {
  for (let step = slices.next(); ; step = slices.next()) if (step.done === true) return step.value;
}

/** Run `slices` to its end, awaiting `pause` after each slice; its result. */
export async function stepThrough<T>(slices: Generator<void, T, void>, pause: Pause): Promise<T> {
  for (let step = slices.next(); ; step = slices.next()) {
    if (step.done === true) return step.value;
    await pause();
  }
}
