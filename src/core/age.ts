/** Ages written the short way people write them: `30d`, `12h`, `90m`, `2w` (whole numbers of a unit). */
import { StrataError } from './errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds in an age such as `30d`; INVALID_INPUT saying the form otherwise. */
export function parseAge(text: unknown): number {
  const match = typeof text === 'string' ? /^([0-9]{1,6})([mhdw])$/u.exec(text.trim()) : null;
  const count = Number(match?.[1]);
  const unit = UNIT_MS[match?.[2] ?? ''];
  if (match === null || unit === undefined || count < 1) {
    throw new StrataError('INVALID_INPUT', `An age is a whole number and a unit, m (minutes), h (hours), d (days) or w (weeks), such as 30d (got ${JSON.stringify(String(text)).slice(0, 40)}).`);
  }
  return count * unit;
}
