/**
 * Ids and times an evaluation hands its memory so that a run comes out the same on every run and
 * machine: orderings that fall back on ids or times (equal scores, equal turns) are then reproducible,
 * and so are the published figures.
 */

export interface ReproducibleSettings {
  /** What every id starts with, before a hyphen: `m` gives `m-00000001`. */
  prefix: string;
  /** Digits of the zero-padded counter, so the ids sort in the order they are made. */
  width: number;
  /** Milliseconds the clock moves on at each reading. */
  stepMs: number;
  /** Time (milliseconds since the epoch) the clock steps from; its first reading is `start + stepMs`. */
  start: number;
}

/** Ids numbered from 1 in the order they are made, and a clock that steps `stepMs` per reading. */
export function reproducibleSources(settings: ReproducibleSettings): { newId: () => string; clock: () => Date } {
  let count = 0;
  let time = settings.start;
  return {
    newId: () => `${settings.prefix}-${String((count += 1)).padStart(settings.width, '0')}`,
    clock: () => new Date((time += settings.stepMs)),
  };
}
