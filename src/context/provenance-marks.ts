/**
 * How a package shows when each line is true as of: fact lines end with `(turn 14, 3 Mar 2026)`, message
 * lines start with `[turn 12, 3 Mar 2026]`. The date is the day (UTC) the line's message was sent; a
 * message whose time is unknown (imported without one) shows its turn alone.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "3 Mar 2026" for an ISO-8601 time (its UTC day), or null when there is no valid time. */
export function dayOf(time: string | null): string | null {
  if (time === null) return null;
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

function when(turn: number, time: string | null): string {
  const day = dayOf(time);
  return day === null ? `turn ${turn}` : `turn ${turn}, ${day}`;
}

/** ` (turn 14, 3 Mar 2026)`: appended to a fact line, the turn it was last established in. */
export function factMark(turn: number, time: string | null): string {
  return ` (${when(turn, time)})`;
}

/** `[turn 12, 3 Mar 2026]`: the start of a line quoting or summing up a message of that turn. */
export function turnMark(turn: number, time: string | null): string {
  return `[${when(turn, time)}]`;
}
